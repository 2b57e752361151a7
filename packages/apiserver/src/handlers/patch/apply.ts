import { refuseWideJson, refuseWideJsonPatch } from '../wide-json.js';
import { goJsonSyntaxError, parseJson } from '@kevents/api';
import type { ObjectSchema } from '@kevents/api';
import type { FieldValidation } from '../../request/query.js';
import { badRequest, unsupportedMediaType } from '../../errors/api-error.js';
import { bodyText, mediaType } from '../body.js';
import { excessiveNesting, maxDepthMessage } from '../json-depth.js';
import { applyJSONPatch, decodeJSONPatch, refuseJSONPatchText } from './json-patch.js';
import { strictJSONPatchErrors } from './json-patch-strict.js';
import { cloneTree } from './json-tree.js';
import { mergePatch } from './merge-patch.js';
import { checkPlainTree } from './plain-tree.js';
import { strategicMerge } from './strategic-merge-patch.js';
import { WorkBudget } from './work-budget.js';
import { countTextValues } from '../json-scan.js';
import { tooManyPatchValues } from './limits.js';
import { countValuesUpTo, tooManyValues } from '../../registry/object-values.js';
import { defaultValueLimits } from '../../registry/value-limits.js';
import type { ValueLimits } from '../../registry/value-limits.js';

const isPlainObject = (v: unknown): v is object => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The PATCH media types kevents serves, in the order kube-apiserver lists them (no CBOR apply). */
export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;

export type PatchType = (typeof patchMediaTypes)[number];

/** The server-side apply media type (`types.ApplyYAMLPatchType`): a YAML or JSON apply configuration. */
export const applyPatchType = 'application/apply-patch+yaml';

/** The patch types that patch the stored object's JSON (everything but server-side apply). */
export type MergingPatchType = Exclude<PatchType, typeof applyPatchType>;

/**
 * Checks the PATCH Content-Type (its parameters dropped, case ignored); any other type gets
 * Kubernetes' 415 listing the types served (`application/apply-patch+cbor` among the others,
 * as kube-apiserver without the CBOR feature gate).
 */
export function patchTypeOf(contentType: string | undefined): PatchType {
  const t = mediaType(contentType);
  if ((patchMediaTypes as readonly string[]).includes(t)) return t as PatchType;
  throw unsupportedMediaType([...patchMediaTypes]);
}

/** A JSON, merge or strategic merge patch body, read once: its text and its value. */
export interface PatchBody {
  readonly text: string;
  readonly value: unknown;
  /**
   * A JSON patch's strict errors under `fieldValidation=Strict` or `Warn` (unknown and repeated
   * fields of its operations, {@link strictJSONPatchErrors}), reported with the patched object's.
   */
  readonly strictErrors?: readonly string[];
}

/**
 * Reads a patch body as JSON. Nesting past the bound is a 400 `error decoding patch: ...`; a
 * syntax error is a 400 in the words of the decoder kube reads that patch type with: Go's
 * (`invalid character '}' looking for beginning of value`) for strategic merge patches and for
 * JSON patches under `fieldValidation=Ignore` (json-patch's decode), after `error decoding
 * patch: ` for JSON patches otherwise (kube's strict decode into `[]jsonPatchOp` comes first)
 * and for merge patches, whose `Ignore` form kube leaves to json-patch (`Invalid JSON Patch`). A
 * JSON patch under `Strict` or `Warn` is then read as that strict decode reads it
 * ({@link strictJSONPatchErrors}: its 400s, and its strict errors kept in the body). A body
 * spelling more values than `limits` allow is a 413 before it is parsed.
 */
export function readPatch(
  raw: unknown,
  type: MergingPatchType = 'application/merge-patch+json',
  fieldValidation: FieldValidation = 'Warn',
  limits: ValueLimits = defaultValueLimits,
): PatchBody {
  const text = bodyText(raw);
  const deep = excessiveNesting(text);
  if (deep !== undefined) throw badRequest(`error decoding patch: ${maxDepthMessage(deep)}`);
  const jsonPatch = type === 'application/json-patch+json';
  let strictErrors: readonly string[] | undefined;
  if (jsonPatch) {
    refuseWideJsonPatch(text, limits);
    if (text.length > unparsedPatchText) strictErrors = refuseJSONPatchText(text, fieldValidation);
  } else {
    refuseWideJson(text, limits);
    if (countTextValues(text, limits.patchValues) > limits.patchValues) throw tooManyPatchValues(limits.patchValues);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    const why = goJsonSyntaxError(text) ?? (err as Error).message;
    if (type === 'application/strategic-merge-patch+json' || (jsonPatch && fieldValidation === 'Ignore'))
      throw badRequest(why);
    if (jsonPatch) throw badRequest(`error decoding patch: ${why}`);
    throw badRequest(fieldValidation === 'Ignore' ? 'Invalid JSON Patch' : `error decoding patch: ${why}`);
  }
  if (jsonPatch && fieldValidation !== 'Ignore') strictErrors ??= strictJSONPatchErrors(text);
  return strictErrors === undefined || strictErrors.length === 0 ? { text, value } : { text, value, strictErrors };
}

/**
 * A JSON patch text longer than this is answered from its shape first when the operations are
 * what is wrong ({@link refuseJSONPatchText}, a pass of a few milliseconds a MiB); a shorter one
 * parses in well under a millisecond.
 */
const unparsedPatchText = 64 * 1024;

/** {@link applyPatchBody} of a raw body, read under `fieldValidation` (kube's default, `Warn`). */
export function applyPatch(
  type: MergingPatchType,
  current: Record<string, unknown>,
  raw: unknown,
  fieldValidation: FieldValidation = 'Warn',
): unknown {
  return applyPatchBody(type, current, readPatch(raw, type, fieldValidation));
}

/**
 * Applies a patch of the given type to an object's external JSON, under the bounds of
 * `limits.ts`. The patch works on a copy of `current` (left unchanged) and spends one
 * {@link WorkBudget}; its result is checked to be a plain JSON tree within the nesting and size
 * limits ({@link checkPlainTree}) before anything decodes, validates, stores or encodes it; a result
 * of more than `limits.bodyValues` values is a 413. A strategic merge patch looks fields up in
 * the Go type `schema` describes (the view's kind; core/v1 Event unless given).
 */
export function applyPatchBody(
  type: MergingPatchType,
  current: Record<string, unknown>,
  patch: PatchBody,
  limits: ValueLimits = defaultValueLimits,
  schema?: ObjectSchema,
): unknown {
  // The copy of `current` is not charged: its size is bounded by the limits it was stored under.
  const doc = cloneTree(current, new WorkBudget(Infinity)) as Record<string, unknown>;
  const patched = applyParsed(type, doc, patch.value, new WorkBudget(), schema);
  // Decoding refuses an object of more values first of all (413); refused here, before the walk of
  // every container below (a Set of each), which costs a patched list of a million empty arrays
  // half a second. A patch's lists (plain fields, finalizers) join the object uncharged.
  if (isPlainObject(patched) && countValuesUpTo(patched, limits.bodyValues) > limits.bodyValues) {
    throw tooManyValues(limits.objectValues);
  }
  if (patched !== undefined) checkPlainTree(patched);
  return patched;
}

function applyParsed(
  type: MergingPatchType,
  doc: Record<string, unknown>,
  patch: unknown,
  budget: WorkBudget,
  schema: ObjectSchema | undefined,
): unknown {
  switch (type) {
    case 'application/json-patch+json':
      return applyJSONPatch(doc, decodeJSONPatch(patch), budget);
    case 'application/merge-patch+json':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
        throw badRequest('json: cannot unmarshal non-object into merge patch');
      }
      return mergePatch(doc, patch, budget);
    case 'application/strategic-merge-patch+json':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
        throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      }
      return strategicMerge(doc, patch as Record<string, unknown>, budget, schema);
  }
}
