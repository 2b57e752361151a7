import type { ObjectMeta, ListMeta } from '../meta/object-meta.js';
import type { ObjectReference, EventSource } from '../core/v1.js';

/** events.k8s.io/v1 `EventSeries`: both fields are required within a series. */
export interface EventSeries {
  count: number;
  /** `metav1.MicroTime` */
  lastObservedTime: string;
}

/**
 * events.k8s.io/v1 `Event`. Times are strings: `eventTime` and `series.lastObservedTime` are
 * `metav1.MicroTime`, the deprecated timestamps are `metav1.Time`.
 */
export interface Event {
  apiVersion?: string;
  kind?: 'Event';
  metadata: ObjectMeta;
  eventTime: string | null;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}

/** events.k8s.io/v1 `EventList` */
export interface EventList {
  apiVersion: string;
  kind: 'EventList';
  metadata: ListMeta;
  items: Event[];
}
