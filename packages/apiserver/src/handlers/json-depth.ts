import { endOfJsonString } from './json-scan.js';

/**
 * Nesting limits of request bodies. Go's JSON scanner (which kube-apiserver decodes with) refuses
 * more than 10,000 nested arrays and objects; kevents refuses past {@link maxNestingDepth}, a
 * depth every part of the server (duplicate-key scan, decoding, patches, structured clones,
 * serializers, storage) handles with room to spare, so that every stored object can be served
 * back. Both checks here are iterative: no input can exhaust the stack.
 */

/** The most arrays and objects a request body (or a patched object) may nest. */
export const maxNestingDepth = 1000;

const QUOTE = 34;

/**
 * The character at which a JSON text first nests deeper than `limit` (`{` or `[`), or undefined
 * when it does not. Strings are skipped; the text need not be valid JSON.
 */
export function excessiveNesting(text: string, limit = maxNestingDepth): string | undefined {
  const n = text.length;
  // Nesting past `limit` takes more than `limit` characters.
  if (n <= limit) return undefined;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfJsonString(text, i);
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return text[i];
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return undefined;
}

/**
 * How deep a parsed value nests (a scalar is 0, `{}` and `[]` are 1), without recursion. It stops
 * once the depth passes `limit` (answering `limit + 1`), so a value that refers to itself (a YAML
 * alias to an enclosing anchor makes one) ends too. Only containers are stacked, each beside its
 * depth; arrays are read by index (`Object.keys` of an array spells out every index) and objects
 * by `for...in` (parsed data: plain objects whose properties are all their own), which reads an
 * Event's 40 values ~4× faster than listing each object's keys.
 */
export function nestingDepth(value: unknown, limit = maxNestingDepth): number {
  if (value === null || typeof value !== 'object') return 0;
  let max = 0;
  // Pairs: a container, then its depth.
  const stack: unknown[] = [value, 1];
  while (stack.length) {
    const depth = stack.pop() as number;
    const v = stack.pop() as object;
    if (depth > max) {
      max = depth;
      if (max > limit) return max;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') stack.push(x, depth + 1);
      }
    } else {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') stack.push(x, depth + 1);
      }
    }
  }
  return max;
}

/** Go's scanner error for a text that nests too deep. */
export const maxDepthMessage = (char: string): string => `invalid character '${char}' exceeded max depth`;
