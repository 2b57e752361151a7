import { goQuote, isGoPrint } from '@kevents/api';
import { isJsonObject } from './json-value.js';
import type { JsonValue } from './json-value.js';

export { goQuote, isGoPrint };

/**
 * A number as Go's `%v` prints it: integers in decimal (`int64`), other numbers as
 * `strconv.FormatFloat(f, 'g', -1, 64)` (exponent form below 1e-4 and from 1e6 on). JSON does not
 * tell integers from floats; integral numbers print as Go prints the `int64` its decoder makes.
 */
export function goFormatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

/** Structured-merge-diff's `value.ToString`: how values appear in path strings (`[name="x"]`). */
export function goValueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goFormatNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goValueString).join(',') + ']';
  if (isJsonObject(v)) {
    return Object.keys(v)
      .map((k) => `${k}=${goValueString(v[k]!)}`)
      .join('');
  }
  return '{{undefined}}';
}
