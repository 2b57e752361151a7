import { createHash } from 'node:crypto';
import type { Event, ObjectReference } from '@kevents/api';

/** The informer index that groups events by {@link seriesKey}. */
export const seriesIndex = 'series';

const refFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

function ref(r: ObjectReference | undefined): string[] {
  return refFields.map((f) => String((r as Record<string, unknown> | undefined)?.[f] ?? ''));
}

/**
 * The series an event belongs to: namespace, type, action, reason, reportingController,
 * reportingInstance, the whole `regarding` reference and the whole `related` reference. That is
 * client-go's isomorphism key (tools/events `getKey`) plus the namespace, which client-go gets
 * for free because one recorder only sees its own events. The note is not part of it. Returned
 * as a 128-bit hash so that the index stays small.
 */
export function seriesKey(e: Event): string {
  const parts = [
    e.metadata.namespace ?? '',
    e.type ?? '',
    e.action ?? '',
    e.reason ?? '',
    e.reportingController ?? '',
    e.reportingInstance ?? '',
    ...ref(e.regarding),
    ...ref(e.related),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}
