import { badRequest, unsupportedMediaType } from '../../errors/api-error.js';
import { mediaType } from '../body.js';
import { excessiveNesting, maxDepthMessage } from '../json-depth.js';
import { applyJSONPatch, decodeJSONPatch } from './json-patch.js';
import { cloneTree } from './json-tree.js';
import { mergePatch } from './merge-patch.js';
import { checkPlainTree } from './plain-tree.js';
import { strategicMerge } from './strategic-merge-patch.js';
import { WorkBudget } from './work-budget.js';

/** The patch media types kevents applies. */
export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
] as const;

/** Media types Kubernetes lists in its 415 answer for PATCH. */
const listedPatchTypes = [...patchMediaTypes, 'application/apply-patch+yaml', 'application/apply-patch+cbor'];

export type PatchType = (typeof patchMediaTypes)[number];

/**
 * Checks the PATCH Content-Type. Server-side apply is not built yet: it is refused with a 415
 * that says so, and any other unknown type gets Kubernetes' 415.
 */
export function patchTypeOf(contentType: string | undefined): PatchType {
  const t = mediaType(contentType);
  if ((patchMediaTypes as readonly string[]).includes(t)) return t as PatchType;
  if (t === 'application/apply-patch+yaml' || t === 'application/apply-patch+cbor') {
    const err = unsupportedMediaType([...patchMediaTypes]);
    err.status.message = `${err.status.message} (server-side apply, ${t}, is not supported by kevents; use client-side apply or a merge patch)`;
    throw err;
  }
  throw unsupportedMediaType(listedPatchTypes);
}

const parsePatch = (raw: unknown): unknown => {
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  const deep = excessiveNesting(text);
  if (deep !== undefined) throw badRequest(`error decoding patch: ${maxDepthMessage(deep)}`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
};

/**
 * Applies a patch body of the given type to an object's external JSON, under the bounds of
 * `limits.ts`. The patch works on a copy of `current` (left unchanged) and spends one
 * {@link WorkBudget}; its result is checked to be a plain JSON tree within the nesting and size
 * limits ({@link checkPlainTree}) before anything decodes, validates, stores or encodes it.
 */
export function applyPatch(type: PatchType, current: Record<string, unknown>, raw: unknown): unknown {
  const patch = parsePatch(raw);
  // The copy of `current` is not charged: its size is bounded by the limits it was stored under.
  const doc = cloneTree(current, new WorkBudget(Infinity)) as Record<string, unknown>;
  const patched = applyParsed(type, doc, patch, new WorkBudget());
  // A strategic merge patch of `$patch: delete` leaves nothing, which decoding answers.
  if (patched !== undefined) checkPlainTree(patched);
  return patched;
}

function applyParsed(type: PatchType, doc: Record<string, unknown>, patch: unknown, budget: WorkBudget): unknown {
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
      return strategicMerge(doc, patch, '', budget);
  }
}
