import type { CoreEvent } from '../core/v1.js';
import type { Event } from '../events/v1.js';

/**
 * Converts an events.k8s.io/v1 Event to the core/v1 shape, which is also kevents' stored
 * (internal) form (pkg/apis/events/v1/conversion.go): regarding->involvedObject,
 * note->message, reportingController->reportingComponent, deprecated* -> legacy fields.
 */
export function eventToCore(e: Event): CoreEvent {
  // Each member set by its own statement: a shared setter keyed by name would make every store
  // megamorphic.
  const c: CoreEvent = {
    metadata: e.metadata,
    involvedObject: e.regarding ?? {},
    reportingComponent: e.reportingController ?? '',
    reportingInstance: e.reportingInstance ?? '',
  };
  if (e.reason != null) c.reason = e.reason;
  if (e.note != null) c.message = e.note;
  if (e.deprecatedSource != null) c.source = e.deprecatedSource;
  if (e.deprecatedFirstTimestamp != null) c.firstTimestamp = e.deprecatedFirstTimestamp;
  if (e.deprecatedLastTimestamp != null) c.lastTimestamp = e.deprecatedLastTimestamp;
  if (e.deprecatedCount != null) c.count = e.deprecatedCount;
  if (e.type != null) c.type = e.type;
  if (e.eventTime != null) c.eventTime = e.eventTime;
  if (e.series != null) c.series = e.series;
  if (e.action != null) c.action = e.action;
  if (e.related != null) c.related = e.related;
  return c;
}

/** Converts the core/v1 (internal) shape to events.k8s.io/v1: the inverse of {@link eventToCore}. */
export function coreToEvent(c: CoreEvent): Event {
  const e: Event = { metadata: c.metadata, eventTime: c.eventTime ?? null };
  if (c.series) e.series = { count: c.series.count ?? 0, lastObservedTime: c.series.lastObservedTime ?? '' };
  if (c.reportingComponent) e.reportingController = c.reportingComponent;
  if (c.reportingInstance) e.reportingInstance = c.reportingInstance;
  if (c.action != null) e.action = c.action;
  if (c.reason != null) e.reason = c.reason;
  if (c.involvedObject != null) e.regarding = c.involvedObject;
  if (c.related != null) e.related = c.related;
  if (c.message != null) e.note = c.message;
  if (c.type != null) e.type = c.type;
  if (c.source != null) e.deprecatedSource = c.source;
  if (c.firstTimestamp != null) e.deprecatedFirstTimestamp = c.firstTimestamp;
  if (c.lastTimestamp != null) e.deprecatedLastTimestamp = c.lastTimestamp;
  if (c.count != null) e.deprecatedCount = c.count;
  return e;
}
