import { timeToMillis, type Event } from '@kevents/api';

/**
 * When an event was last observed, in ms since the epoch: `series.lastObservedTime`, else
 * `eventTime`, else `deprecatedLastTimestamp`, else `metadata.creationTimestamp`.
 */
export function lastObservation(e: Event): number {
  for (const t of [e.series?.lastObservedTime, e.eventTime, e.deprecatedLastTimestamp, e.metadata.creationTimestamp]) {
    const ms = timeToMillis(t);
    if (!Number.isNaN(ms)) return ms;
  }
  return 0;
}

/** When an event was first observed: `eventTime`, else `deprecatedFirstTimestamp`, else creation. */
export function firstObservation(e: Event): number {
  for (const t of [e.eventTime, e.deprecatedFirstTimestamp, e.metadata.creationTimestamp]) {
    const ms = timeToMillis(t);
    if (!Number.isNaN(ms)) return ms;
  }
  return 0;
}

/** How many occurrences an event stands for: its series count, else its legacy count, else 1. */
export function occurrences(e: Event): number {
  return e.series?.count ?? (e.deprecatedCount !== undefined && e.deprecatedCount > 1 ? e.deprecatedCount : 1);
}
