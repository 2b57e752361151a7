import { normalizeMicroTime, normalizeTime } from '@kevents/api';

/** A wire timestamp as Go holds it: empty, `null` and absent are all the zero time. */
export const isZeroTime = (v: string | null | undefined): boolean => v === undefined || v === null || v === '';

/**
 * A `metav1.Time` as Go's `json.Marshal` prints it in an error (`"2024-01-02T03:04:05Z"`, or `null`
 * when zero). Unparseable input is returned as given.
 */
export const goTime = (v: string | null | undefined): string | null =>
  v === undefined || v === null || v === '' ? null : (normalizeTime(v) ?? v);

/** A `metav1.MicroTime` as Go's `json.Marshal` prints it (`"2024-01-02T03:04:05.000000Z"`, or `null`). */
export const goMicroTime = (v: string | null | undefined): string | null =>
  v === undefined || v === null || v === '' ? null : (normalizeMicroTime(v) ?? v);

/** The comparison key of a timestamp: the instant to the microsecond (Semantic equality compares instants). */
export const timeKey = goMicroTime;
