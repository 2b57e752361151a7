import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, unprocessable, unsupportedMediaType } from '../../errors/api-error.js';
import { mediaType } from '../body.js';
import { mergePatch } from './merge-patch.js';
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
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
};

/** Applies a patch body of the given type to an object's external JSON. */
export function applyPatch(type: PatchType, current: Record<string, unknown>, raw: unknown): unknown {
  const patch = parsePatch(raw);
  switch (type) {
    case 'application/json-patch+json': {
      if (!Array.isArray(patch))
        throw badRequest(`json: cannot unmarshal ${typeof patch} into Go value of type jsonpatch.Patch`);
      try {
        return fastJsonPatch.applyPatch(structuredClone(current), patch as Operation[], true, true).newDocument;
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
