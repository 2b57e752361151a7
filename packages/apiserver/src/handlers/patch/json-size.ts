/**
 * Sizes of JSON values in bytes of their compact text (UTF-8), counted without writing the text.
 * With `html`, strings are counted as Go's encoding/json writes them (what evanphx/json-patch
 * measures a copied value with): `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u00XX`, and a
 * lone surrogate as the U+FFFD that Go's decoder would have made of it. Without, as
 * `JSON.stringify` writes them.
 */
import type { WorkBudget } from './work-budget.js';

/** Bytes of a string's JSON text, quotes included. */
export function stringSize(s: string, html: boolean): number {
  let n = 2;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) n += c === 0x22 || c === 0x5c ? 2 : html && (c === 0x3c || c === 0x3e || c === 0x26) ? 6 : 1;
      // \b \t \n \f \r are two characters; other controls are \u00XX.
      else n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) {
      n += 2;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < len ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else {
        n += html ? 3 : 6;
      }
    } else {
      n += html && (c === 0x2028 || c === 0x2029) ? 6 : 3;
    }
  }
  return n;
}

/** Bytes of a scalar's JSON text (`undefined` counts as the `null` an array would hold). */
export function scalarSize(v: unknown, html: boolean): number {
  switch (typeof v) {
    case 'string':
      return stringSize(v, html);
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    default:
      return 4;
  }
}

/**
 * Bytes of `value`'s compact JSON text. Iterative (no depth can exhaust the stack); it returns as
 * soon as the count passes `cap` (so a value larger than the cap costs the cap's worth of work,
 * and a cyclic one ends), and charges `budget` one step per container and per member.
 */
export function jsonSize(value: unknown, html: boolean, cap = Infinity, budget?: WorkBudget): number {
  if (value === null || typeof value !== 'object') return scalarSize(value, html);
  let size = 0;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      const n = v.length;
      budget?.charge(n + 1);
      // Brackets and the commas between the elements.
      size += n === 0 ? 2 : n + 1;
      for (let i = 0; i < n; i++) {
        const e: unknown = v[i];
        if (e !== null && typeof e === 'object') stack.push(e);
        else size += scalarSize(e, html);
      }
    } else {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      budget?.charge(keys.length + 1);
      // Braces, a colon per member and the commas between them.
      size += keys.length === 0 ? 2 : 2 * keys.length + 1;
      for (const k of keys) {
        size += stringSize(k, html);
        const e = o[k];
        if (e !== null && typeof e === 'object') stack.push(e);
        else size += scalarSize(e, html);
      }
    }
    if (size > cap) return size;
  }
  return size;
}
