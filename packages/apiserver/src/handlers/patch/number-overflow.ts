import { badRequest } from '../../errors/api-error.js';
import type { FieldValidation } from '../../request/query.js';
import type { MergingPatchType, PatchBody } from './apply.js';
import { overflowingNumber } from '../json-scan.js';

/**
 * Refuses a merge or strategic merge patch holding a number past a float64, as kube does before
 * applying it: it decodes the patch into `map[string]interface{}` (merge patches only under
 * `fieldValidation=Strict` or `Warn`, the default), and Go's decoder refuses such a number there
 * (400 `json: cannot unmarshal number 1e400 into Go value of type float64`, after `error decoding
 * patch: ` for merge patches). A JSON patch keeps the number as text until the patched object is
 * decoded.
 */
export function refuseOverflowingNumbers(
  type: MergingPatchType,
  patch: PatchBody,
  fieldValidation: FieldValidation,
): void {
  if (type === 'application/json-patch+json') return;
  if (type === 'application/merge-patch+json' && fieldValidation === 'Ignore') return;
  if (!holdsInfinity(patch.value)) return;
  const literal = overflowingNumber(patch.text);
  if (literal === undefined) return;
  const error = `json: cannot unmarshal number ${literal} into Go value of type float64`;
  throw badRequest(type === 'application/merge-patch+json' ? `error decoding patch: ${error}` : error);
}

/** Whether a parsed JSON value holds ±Infinity (a literal past a float64), without recursion. */
function holdsInfinity(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  // Only containers go on the stack: pushing and popping each of a million scalars costs the
  // event loop a quarter of a second; looking at them where they are, a few milliseconds.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    // By index: `Object.keys` of an array makes a string of every index.
    const members: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < members.length; i++) {
      const e = members[i];
      if (typeof e === 'number') {
        if (!Number.isFinite(e)) return true;
      } else if (e !== null && typeof e === 'object') stack.push(e);
    }
  }
  return false;
}
