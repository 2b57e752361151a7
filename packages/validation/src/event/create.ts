import type { CoreEvent } from '@kevents/api';
import { invalid, required, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { validateKubeFinalizerNames } from '../meta/finalizers.js';
import { isZeroTime } from '../meta/go-time.js';
import { nameIsDNSSubdomain } from '../meta/name-functions.js';
import { validateObjectMeta } from '../meta/object-meta.js';
import { legacyValidateEvent } from './legacy.js';
import { isStrictEventVersion, type EventRequestVersion } from './request-version.js';
import { validateEventSeries } from './series.js';

/** `v1.EventTypeNormal` and `v1.EventTypeWarning`, the only types events.k8s.io/v1 accepts. */
export const eventTypes: readonly string[] = ['Normal', 'Warning'];

const needsUnset = (name: string) => invalid(FieldPath.root(name), '', 'needs to be unset');

/**
 * `ValidateEventCreate`: validates a new Event given in the internal (core-shaped) form, converted
 * from events.k8s.io/v1 first when it came through that API. core/v1 gets only the legacy rules;
 * events.k8s.io/v1 also needs a DNS-subdomain name and valid metadata, eventTime, type
 * `Normal`|`Warning`, a valid series, and no firstTimestamp, lastTimestamp, count or source.
 * Paths are the internal names (`involvedObject`, `message`, `reportingController`, `source`...).
 */
export function validateEventCreate(event: CoreEvent, requestVersion: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(event);
  if (!isStrictEventVersion(requestVersion)) return errs;

  const meta = event.metadata ?? {};
  for (const e of validateObjectMeta(meta, { namespaced: true, nameFn: nameIsDNSSubdomain })) errs.push(e);
  if (meta.finalizers != null)
    errs.push(...validateKubeFinalizerNames(meta.finalizers, FieldPath.root('metadata', 'finalizers')));
  if (event.series != null) errs.push(...validateEventSeries(event));
  if (isZeroTime(event.eventTime)) errs.push(required(FieldPath.root('eventTime')));
  const type = event.type ?? '';
  if (!eventTypes.includes(type)) errs.push(invalid(FieldPath.root('type'), '', `has invalid value: ${type}`));
  if (!isZeroTime(event.firstTimestamp)) errs.push(needsUnset('firstTimestamp'));
  if (!isZeroTime(event.lastTimestamp)) errs.push(needsUnset('lastTimestamp'));
  if ((event.count ?? 0) !== 0) errs.push(needsUnset('count'));
  if (event.source?.component || event.source?.host) errs.push(needsUnset('source'));
  return errs;
}
