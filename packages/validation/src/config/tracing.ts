import type { TracingConfiguration } from '@kevents/api';
import { FieldPath } from '../field/path.js';
import { invalid, type FieldError } from '../field/error.js';
import { parseGoURL, URLParseError } from './url.js';

const maxSamplingRatePerMillion = 1_000_000;

/** component-base `ValidateTracingConfiguration`: sampling rate, then endpoint. */
export function validateTracingConfiguration(c: TracingConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const rate = c.samplingRatePerMillion;
  const rp = FieldPath.root('samplingRatePerMillion');
  if (rate !== undefined && rate !== null) {
    if (rate < 0) errs.push(invalid(rp, rate, 'sampling rate must be positive'));
    if (rate > maxSamplingRatePerMillion)
      errs.push(invalid(rp, rate, 'sampling rate per million must be less than or equal to one million'));
  }
  if (c.endpoint !== undefined && c.endpoint !== null) {
    const ep = FieldPath.root('endpoint');
    const target = c.endpoint.includes('//') ? c.endpoint : `dns://${c.endpoint}`;
    try {
      const u = parseGoURL(target);
      if (u.scheme !== 'dns' && u.scheme !== 'unix' && u.scheme !== 'unix-abstract') {
        errs.push(
          invalid(
            ep,
            c.endpoint,
            `unsupported scheme: ${u.scheme}.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md`,
          ),
        );
      }
    } catch (e) {
      if (!(e instanceof URLParseError)) throw e;
      errs.push(invalid(ep, c.endpoint, e.message));
    }
  }
  return errs;
}
