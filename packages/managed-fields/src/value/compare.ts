import { isJsonObject } from './json-value.js';
import type { JsonObject, JsonValue } from './json-value.js';

/**
 * Compares two strings as Go's `strings.Compare` does: by their UTF-8 bytes, which is code
 * point order. JavaScript's `<` compares UTF-16 code units, which differs from code point order
 * when a surrogate pair meets a code unit in U+E000..U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1; // a surrogate encodes a code point above U+FFFF
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** The type rank of `value.Compare`: numbers, strings, booleans, lists, maps, null. */
function rank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v === null) return 5;
  return 4;
}

/**
 * Orders two values as structured-merge-diff's `value.Compare` (value/value.go): numbers
 * (integers and floats compared numerically) < strings < booleans (false < true) < lists
 * (lexically) < maps (by sorted keys, then values) < null.
 */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const l = a as JsonValue[];
      const r = b as JsonValue[];
      for (let i = 0; ; i++) {
        if (i >= l.length && i >= r.length) return 0;
        if (i >= l.length) return -1;
        if (i >= r.length) return 1;
        const c = compareValues(l[i]!, r[i]!);
        if (c !== 0) return c;
      }
    }
    case 4:
      return compareMaps(a as JsonObject, b as JsonObject);
    default:
      return 0;
  }
}

/** `value.MapCompare`: zips both maps' keys in lexical order. */
function compareMaps(l: JsonObject, r: JsonObject): number {
  const lk = Object.keys(l);
  const rk = Object.keys(r);
  if (lk.length === 0 && rk.length === 0) return 0;
  const keys = [...new Set([...lk, ...rk])].sort(compareStrings);
  let i = 0;
  for (const key of keys) {
    let c: number;
    const inL = Object.hasOwn(l, key);
    const inR = Object.hasOwn(r, key);
    if (i === lk.length) c = -1;
    else if (i === rk.length) c = 1;
    else if (!inL) c = 1;
    else if (!inR) c = -1;
    else c = compareValues(l[key]!, r[key]!);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

/** Deep equality as `value.Equals`: numbers compare numerically, maps ignore key order. */
export function equalValues(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalValues(a[i]!, b[i]!)) return false;
    return true;
  }
  if (Array.isArray(b) || !isJsonObject(a) || !isJsonObject(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) {
    if (!Object.hasOwn(b, k) || !equalValues(a[k]!, b[k]!)) return false;
  }
  return true;
}
