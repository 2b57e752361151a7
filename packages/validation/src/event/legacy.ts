import { eventLimits, type CoreEvent } from '@kevents/api';
import { invalid, pushInvalid, required, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { isDNS1123Subdomain } from '../meta/dns.js';
import { isZeroTime } from '../meta/go-time.js';
import { goLen } from '../meta/messages.js';
import { isQualifiedName } from '../meta/qualified-name.js';
import { reportingController } from './go-values.js';

const lengthLimit = (n: number) => `can have at most ${n} characters`;

/** A required string with a byte limit: `Required value`, or `Invalid value: "": can have at most N characters`. */
function requiredWithin(errs: FieldError[], value: string | undefined, name: string, limit: number): void {
  const v = value ?? '';
  if (!v) errs.push(required(FieldPath.root(name)));
  else if (goLen(v) > limit) errs.push(invalid(FieldPath.root(name), '', lengthLimit(limit)));
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
    if (!rc) errs.push(required(FieldPath.root('reportingController')));
    pushInvalid(errs, isQualifiedName(rc), () => FieldPath.root('reportingController'), rc);
    requiredWithin(errs, event.reportingInstance, 'reportingInstance', eventLimits.reportingInstance);
    requiredWithin(errs, event.action, 'action', eventLimits.action);
    requiredWithin(errs, event.reason, 'reason', eventLimits.reason);
    if (goLen(event.message ?? '') > eventLimits.note) {
      errs.push(invalid(FieldPath.root('message'), '', lengthLimit(eventLimits.note)));
    }
  }
  pushInvalid(errs, isDNS1123Subdomain(ns), () => FieldPath.root('namespace'), ns);
  return errs;
}
