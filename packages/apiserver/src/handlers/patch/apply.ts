import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, unprocessable, unsupportedMediaType } from '../../errors/api-error.js';
import { mediaType } from '../body.js';
import { excessiveNesting, maxDepthMessage, maxNestingDepth, nestingDepth } from '../json-depth.js';
import { mergePatch } from './merge-patch.js';
import { setOwn } from './own.js';
import { strategicMerge } from './strategic-merge-patch.js';

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
 * A copy of JSON data whose objects have no prototype, so that a JSON patch path through
 * `__proto__`, `constructor` or `prototype` reaches (or adds) members of the data only.
 */
function withoutPrototypes(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(withoutPrototypes);
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v)) setOwn(out, k, withoutPrototypes((v as Record<string, unknown>)[k]));
  return out;
}

/**
 * Applies a patch body of the given type to an object's external JSON. The result nests at
 * most {@link maxNestingDepth} levels (a JSON patch can nest a value deeper than either input).
 */
export function applyPatch(type: PatchType, current: Record<string, unknown>, raw: unknown): unknown {
  const patched = applyParsed(type, current, parsePatch(raw));
  if (nestingDepth(patched) > maxNestingDepth) {
    throw badRequest(`couldn't get version/kind; json parse error: ${maxDepthMessage('{')}`);
  }
  return patched;
}

function applyParsed(type: PatchType, current: Record<string, unknown>, patch: unknown): unknown {
  switch (type) {
    case 'application/json-patch+json': {
      if (!Array.isArray(patch))
        throw badRequest(`json: cannot unmarshal ${typeof patch} into Go value of type jsonpatch.Patch`);
      try {
        const doc = withoutPrototypes(current);
        return fastJsonPatch.applyPatch(doc, patch as Operation[], true, true, false).newDocument;
      } catch (err) {
        throw unprocessable(
          `the server rejected our request due to an error in our request: ${(err as Error).message.split('\n')[0]}`,
        );
      }
    }
    case 'application/merge-patch+json':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
        throw badRequest('json: cannot unmarshal non-object into merge patch');
      }
      return mergePatch(current, patch);
    case 'application/strategic-merge-patch+json':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
        throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      }
      return strategicMerge(current, patch);
  }
}
