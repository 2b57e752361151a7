import type { CoreEvent } from '../core/v1.js';
import type { Event } from '../events/v1.js';

const setIf = <T extends object, K extends keyof T>(o: T, k: K, v: T[K] | undefined): void => {
  if (v !== undefined && v !== null) o[k] = v;
};

/**
 * Converts an events.k8s.io/v1 Event to the core/v1 shape, which is also kevents' stored
 * (internal) form (pkg/apis/events/v1/conversion.go): regarding->involvedObject,
 * note->message, reportingController->reportingComponent, deprecated* -> legacy fields.
 */
export function eventToCore(e: Event): CoreEvent {
  const c: CoreEvent = {
    metadata: e.metadata,
    involvedObject: e.regarding ?? {},
    reportingComponent: e.reportingController ?? '',
    reportingInstance: e.reportingInstance ?? '',
  };
  setIf(c, 'reason', e.reason);
  setIf(c, 'message', e.note);
  setIf(c, 'source', e.deprecatedSource);
  setIf(c, 'firstTimestamp', e.deprecatedFirstTimestamp);
  setIf(c, 'lastTimestamp', e.deprecatedLastTimestamp);
  setIf(c, 'count', e.deprecatedCount);
  setIf(c, 'type', e.type);
  setIf(c, 'eventTime', e.eventTime);
  setIf(c, 'series', e.series);
  setIf(c, 'action', e.action);
  setIf(c, 'related', e.related);
  return c;
}

/** Converts the core/v1 (internal) shape to events.k8s.io/v1: the inverse of {@link eventToCore}. */
export function coreToEvent(c: CoreEvent): Event {
  const e: Event = { metadata: c.metadata, eventTime: c.eventTime ?? null };
  if (c.series) e.series = { count: c.series.count ?? 0, lastObservedTime: c.series.lastObservedTime ?? '' };
  setIf(e, 'reportingController', c.reportingComponent || undefined);
  setIf(e, 'reportingInstance', c.reportingInstance || undefined);
  setIf(e, 'action', c.action);
  setIf(e, 'reason', c.reason);
  setIf(e, 'regarding', c.involvedObject);
  setIf(e, 'related', c.related);
  setIf(e, 'note', c.message);
  setIf(e, 'type', c.type);
  setIf(e, 'deprecatedSource', c.source);
  setIf(e, 'deprecatedFirstTimestamp', c.firstTimestamp);
  setIf(e, 'deprecatedLastTimestamp', c.lastTimestamp);
  setIf(e, 'deprecatedCount', c.count);
  return e;
}
