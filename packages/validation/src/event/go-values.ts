import type { CoreEvent, CoreEventSeries, EventSource, ObjectReference } from '@kevents/api';
import { timeKey } from '../meta/go-time.js';

/**
 * The internal `core.ObjectReference` as Go compares and prints it in a `field is immutable`
 * error: internal types have no JSON tags, so `json.Marshal` uses the Go field names and prints
 * every field.
 */
export const goObjectReference = (r: ObjectReference | undefined) => ({
  Kind: r?.kind ?? '',
  Namespace: r?.namespace ?? '',
  Name: r?.name ?? '',
  UID: r?.uid ?? '',
  APIVersion: r?.apiVersion ?? '',
  ResourceVersion: r?.resourceVersion ?? '',
  FieldPath: r?.fieldPath ?? '',
});

/** The internal `core.EventSource` as Go prints it. */
export const goEventSource = (s: EventSource | undefined) => ({ Component: s?.component ?? '', Host: s?.host ?? '' });

/** `event.Related`, a pointer: absent is nil (`null`), `{}` is a zero struct. */
export const goRelated = (r: ObjectReference | null | undefined) => (r == null ? null : goObjectReference(r));

/** `event.Series` for `reflect.DeepEqual`: nil, or count and the instant of lastObservedTime. */
export const seriesKey = (s: CoreEventSeries | null | undefined) =>
  s == null ? null : { count: s.count ?? 0, lastObservedTime: timeKey(s.lastObservedTime) };

/** The internal `ReportingController` (core/v1 JSON calls it `reportingComponent`). */
export const reportingController = (e: CoreEvent): string => e.reportingComponent ?? '';
