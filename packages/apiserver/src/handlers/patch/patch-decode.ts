import { goFormatValue, goQuote } from '@kevents/api';
import type { ObjectSchema } from '@kevents/api';
import { invalid as fieldInvalid, goJSON } from '@kevents/validation';
import { invalid } from '../../errors/api-error.js';
import type { FieldValidation } from '../../request/query.js';
import { decodeKind } from '../body.js';
import type { DecodedBody } from '../body.js';
import { countMemberNames, findDuplicateKeys } from '../json-duplicates.js';
import type { MergingPatchType, PatchBody } from './apply.js';
import type { ValueLimits } from '../../registry/value-limits.js';

/**
 * Decodes a patched object as kube's `jsonPatcher` and `smpPatcher` do. Any failure is a 422
 * ` "" is invalid: patch: Invalid value: "<value>": <the decoder's words>`, where the value is
 * the patched object's JSON (JSON and merge patches) or the patch as Go's `%+v` prints it
 * (strategic merge patches). Under `fieldValidation=Strict` or `Warn`, a merge or strategic
 * merge patch's repeated keys are strict errors (`duplicate field "a"`), and so are a JSON patch's
 * unknown and repeated fields (`json patch unknown field "[0].x"`, read with the patch), reported
 * before the patched object's unknown fields: a 422 together, or warnings. A patched object of more values
 * than `valueLimits` allow is a 413.
 */
export function decodePatched<T>(
  type: MergingPatchType,
  patch: PatchBody,
  patched: unknown,
  view: { schema: ObjectSchema; groupVersion: string; kind: string },
  fieldValidation: FieldValidation,
  valueLimits?: ValueLimits,
): DecodedBody<T> {
  const checksPatch = fieldValidation !== 'Ignore' && type !== 'application/json-patch+json';
  const strictErrors =
    type === 'application/json-patch+json'
      ? [...(patch.strictErrors ?? [])]
      : checksPatch && patchHasDuplicateKeys(patch)
        ? findDuplicateKeys(patch.text).map((f) => `duplicate field ${goQuote(f)}`)
        : [];
  const fail = (detail: string): Error => {
    const value = type === 'application/strategic-merge-patch+json' ? goFormatValue(patch.value) : goJSON(patched);
    return invalid({ group: '', kind: '' }, '', [fieldInvalid('patch', value, detail)]);
  };
  return decodeKind<T>(
    { value: patched, text: patch.text, duplicates: [], strictErrors },
    view.schema,
    view,
    fieldValidation,
    { fail, ...(valueLimits && { valueLimits }) },
  );
}

/**
 * Whether a patch's text may repeat a member name: JSON.parse keeps one member per name, so the
 * parsed patch has fewer members than its text spells out exactly when one repeats.
 */
export function patchHasDuplicateKeys(patch: PatchBody): boolean {
  return countMemberNames(patch.text) !== countMembers(patch.value);
}

/**
 * The object members a parsed value holds at every depth. Only containers go on the stack and
 * arrays are read by index: stacking each of the million scalars a 3 MiB patch can hold (as
 * `hasDuplicateKeys` does) costs the event loop a third of a second.
 */
export function countMembers(value: unknown): number {
  let members = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const items: unknown[] = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) members += items.length;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return members;
}
