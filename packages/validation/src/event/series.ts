import type { CoreEvent } from '@kevents/api';
import { invalid, required, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { isZeroTime } from '../meta/go-time.js';

/**
 * `validateV1EventSeries`: when a series is present its count is at least 2
 * (`series.count: Invalid value: "": should be at least 2`) and lastObservedTime is set.
 */
export function validateEventSeries(event: CoreEvent): FieldError[] {
  const s = event.series;
  if (s == null) return [];
  const errs: FieldError[] = [];
  if ((s.count ?? 0) < 2) errs.push(invalid(FieldPath.root('series', 'count'), '', 'should be at least 2'));
  if (isZeroTime(s.lastObservedTime)) errs.push(required(FieldPath.root('series', 'lastObservedTime')));
  return errs;
}
