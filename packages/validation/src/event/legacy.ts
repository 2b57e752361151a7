import { eventLimits, type CoreEvent } from '@kevents/api';
import { invalid, required, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { isDNS1123Subdomain } from '../meta/dns.js';
import { isZeroTime } from '../meta/go-time.js';
import { goLen } from '../meta/messages.js';
import { isQualifiedName } from '../meta/qualified-name.js';
import { reportingController } from './go-values.js';

const lengthLimit = (n: number) => `can have at most ${n} characters`;

/** A required string with a byte limit: `Required value`, or `Invalid value: "": can have at most N characters`. */
function requiredWithin(value: string | undefined, name: string, limit: number): FieldError[] {
  const v = value ?? '';
  const p = FieldPath.root(name);
  if (!v) return [required(p)];
  return goLen(v) > limit ? [invalid(p, '', lengthLimit(limit))] : [];
}

/**
 * `legacyValidateEvent`: the rules every Event create and update passes, on both APIs. Without
 * eventTime only the namespaces are compared; with it, reportingController (a qualified name),
 * reportingInstance, action and reason are required, lengths are limited in UTF-8 bytes, and an
 * event about a cluster-scoped object must live in `default` or `kube-system`. The event namespace
 * must always be a DNS-1123 subdomain. Paths use the internal (core) field names.
 */
export function legacyValidateEvent(event: CoreEvent): FieldError[] {
  const errs: FieldError[] = [];
  const ns = event.metadata?.namespace ?? '';
  const objNs = event.involvedObject?.namespace ?? '';
  const mismatch = () =>
    invalid(FieldPath.root('involvedObject', 'namespace'), objNs, 'does not match event.namespace');
  if (isZeroTime(event.eventTime)) {
    if (objNs ? ns !== objNs : ns !== '' && ns !== 'default') errs.push(mismatch());
  } else {
    if (!objNs && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch());
    const rc = reportingController(event);
    const rcPath = FieldPath.root('reportingController');
    if (!rc) errs.push(required(rcPath));
    errs.push(...isQualifiedName(rc).map((m) => invalid(rcPath, rc, m)));
    errs.push(...requiredWithin(event.reportingInstance, 'reportingInstance', eventLimits.reportingInstance));
    errs.push(...requiredWithin(event.action, 'action', eventLimits.action));
    errs.push(...requiredWithin(event.reason, 'reason', eventLimits.reason));
    if (goLen(event.message ?? '') > eventLimits.note) {
      errs.push(invalid(FieldPath.root('message'), '', lengthLimit(eventLimits.note)));
    }
  }
  errs.push(...isDNS1123Subdomain(ns).map((m) => invalid(FieldPath.root('namespace'), ns, m)));
  return errs;
}
