import type { CoreEvent } from '@kevents/api';
import type { FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { deepEqual } from '../meta/deep-equal.js';
import { validateKubeFinalizerNames } from '../meta/finalizers.js';
import { goMicroTime, goTime, timeKey } from '../meta/go-time.js';
import { validateImmutableField } from '../meta/immutable.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-update.js';
import { goEventSource, goObjectReference, goRelated, reportingController, seriesKey } from './go-values.js';
import { legacyValidateEvent } from './legacy.js';
import { isStrictEventVersion, type EventRequestVersion } from './request-version.js';
import { validateEventSeries } from './series.js';

/**
 * `ValidateEventUpdate`: the new Event passes the legacy rules; through events.k8s.io/v1 the
 * metadata update rules also apply, a changed series is re-validated, and every other field is
 * immutable (`<path>: Invalid value: <new value>: field is immutable`). `reason` is checked twice,
 * as in Kubernetes, so a changed reason yields two identical errors.
 */
export function validateEventUpdate(
  newEvent: CoreEvent,
  oldEvent: CoreEvent,
  requestVersion: EventRequestVersion,
): FieldError[] {
  const errs = legacyValidateEvent(newEvent);
  if (!isStrictEventVersion(requestVersion)) return errs;

  const newMeta = newEvent.metadata ?? {};
  errs.push(...validateObjectMetaUpdate(newMeta, oldEvent.metadata ?? {}));
  errs.push(...validateKubeFinalizerNames(newMeta.finalizers, FieldPath.root('metadata', 'finalizers')));
  if (!deepEqual(seriesKey(newEvent.series), seriesKey(oldEvent.series))) errs.push(...validateEventSeries(newEvent));

  const same = (name: string, pick: (e: CoreEvent) => unknown, print?: (e: CoreEvent) => unknown) =>
    errs.push(
      ...validateImmutableField(pick(newEvent), pick(oldEvent), FieldPath.root(name), (print ?? pick)(newEvent)),
    );
  const str = (v: string | undefined) => v ?? '';
  same('involvedObject', (e) => goObjectReference(e.involvedObject));
  same('reason', (e) => str(e.reason));
  same('message', (e) => str(e.message));
  same('source', (e) => goEventSource(e.source));
  same(
    'firstTimestamp',
    (e) => timeKey(e.firstTimestamp),
    (e) => goTime(e.firstTimestamp),
  );
  same(
    'lastTimestamp',
    (e) => timeKey(e.lastTimestamp),
    (e) => goTime(e.lastTimestamp),
  );
  same('count', (e) => e.count ?? 0);
  same('reason', (e) => str(e.reason));
  same('type', (e) => str(e.type));
  same(
    'eventTime',
    (e) => timeKey(e.eventTime),
    (e) => goMicroTime(e.eventTime),
  );
  same('action', (e) => str(e.action));
  same('related', (e) => goRelated(e.related));
  same('reportingController', reportingController);
  same('reportingInstance', (e) => str(e.reportingInstance));
  return errs;
}
