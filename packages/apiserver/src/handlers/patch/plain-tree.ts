import { ApiError, badRequest, internalError } from '../../errors/api-error.js';
import { maxDepthMessage, maxNestingDepth } from '../json-depth.js';
import { scalarSize, stringSize } from './json-size.js';
import { maxPatchedObjectBytes } from './limits.js';

/** The 413 of a patched object whose JSON passes {@link maxPatchedObjectBytes}. */
export const patchedObjectTooLarge = (limit = maxPatchedObjectBytes): ApiError =>
  new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: the patched object is more than ${limit} bytes of JSON`,
  );

/** What kube-apiserver answers when the patched JSON nests past Go's decoder limit. */
const tooDeep = (): ApiError => badRequest(`couldn't get version/kind; json parse error: ${maxDepthMessage('{')}`);

/** A patched object that is not JSON data is a fault of the server, never of the request. */
const notATree = (why: string): ApiError => internalError(new Error(`the patched object is not a JSON tree: ${why}`));

/**
 * Checks that a patched object is a plain JSON tree before it is decoded, validated, stored or
 * encoded: every array and object reached once (no container shared between two places, no
 * cycle), only JSON scalars (and ±Infinity, what `JSON.parse` makes of `1e400`), plain arrays and
 * objects, nested at most `maxDepth` levels ({@link maxNestingDepth}, in kube-apiserver's decoder's
 * words) and at most `maxBytes` of
 * compact JSON ({@link maxPatchedObjectBytes}: 413). Iterative, and it stops at the first
 * failure, so its work is bounded by `maxBytes` whatever it is given.
 */
export function checkPlainTree(value: unknown, maxDepth = maxNestingDepth, maxBytes = maxPatchedObjectBytes): void {
  if (!isContainer(value)) {
    checkScalar(value);
    if (scalarSize(value, false) > maxBytes) throw patchedObjectTooLarge(maxBytes);
    return;
  }
  const seen = new Set<object>();
  let size = 0;
  // Containers still to visit, and the depth of each (scalars are counted where they are met).
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) throw tooDeep();
    if (seen.has(v)) throw notATree('a container is reachable twice');
    seen.add(v);
    if (Array.isArray(v)) {
      const n = v.length;
      size += n === 0 ? 2 : n + 1;
      for (let i = 0; i < n; i++) {
        const e: unknown = v[i];
        if (isContainer(e)) {
          stack.push(e);
          depths.push(depth + 1);
        } else {
          checkScalar(e);
          size += scalarSize(e, false);
        }
      }
    } else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) throw notATree('an object is not plain data');
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      size += keys.length === 0 ? 2 : 2 * keys.length + 1;
      for (const k of keys) {
        size += stringSize(k, false);
        const e = o[k];
        if (isContainer(e)) {
          stack.push(e);
          depths.push(depth + 1);
        } else {
          checkScalar(e);
          size += scalarSize(e, false);
        }
      }
    }
    if (size > maxBytes) throw patchedObjectTooLarge(maxBytes);
  }
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

/** JSON scalars only (an `undefined` member is what JSON.stringify leaves out). */
function checkScalar(v: unknown): void {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return;
    case 'number':
      // A number literal past a double's range (`1e400`) parses as ±Infinity: the decoding that
      // follows answers it as it answers the same number in a request body (400 where a field
      // cannot hold it, dropped with an unknown field), as kube decodes the patched JSON.
      if (Number.isNaN(v)) throw notATree('NaN is not JSON');
      return;
    default:
      if (v !== null) throw notATree(`a ${typeof v} is not JSON`);
  }
}
