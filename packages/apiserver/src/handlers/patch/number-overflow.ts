import { badRequest } from '../../errors/api-error.js';
import type { FieldValidation } from '../../request/query.js';
import type { MergingPatchType, PatchBody } from './apply.js';

const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;

const isNumberChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || c === 46 || c === 43 || c === MINUS || c === 101 || c === 69;

/**
 * The first number literal of a valid JSON text that a float64 cannot hold (`1e400`), or
 * undefined. Strings are skipped; one pass over the text.
 */
export function overflowingNumber(text: string): string | undefined {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === MINUS || (c >= 48 && c <= 57)) {
      const start = i;
      while (i + 1 < n && isNumberChar(text.charCodeAt(i + 1))) i++;
      const literal = text.slice(start, i + 1);
      if (!Number.isFinite(Number(literal))) return literal;
    }
  }
  return undefined;
}

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
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return false;
}
