import { jsonStringEnd } from '@kevents/api';
const QUOTE = 34;
const MINUS = 45;

/** The index of the quote that ends the JSON string opened at `open` (or the text's length): {@link jsonStringEnd}. */
export function endOfJsonString(text: string, open: number): number {
  const end = jsonStringEnd(text, open + 1);
  return end < 0 ? text.length : end;
}

const isNumberChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || c === 46 || c === 43 || c === MINUS || c === 101 || c === 69;

/**
 * The first number literal of a JSON text that a float64 cannot hold (`1e400`), or undefined.
 * Strings are skipped; one pass over the text, which need not be valid JSON.
 */
export function overflowingNumber(text: string): string | undefined {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfJsonString(text, i);
    } else if (c === MINUS || (c >= 48 && c <= 57)) {
      const start = i;
      let exponent = false;
      while (i + 1 < n && isNumberChar(text.charCodeAt(i + 1))) {
        const d = text.charCodeAt(++i);
        if (d === 101 || d === 69) exponent = true;
      }
      // Without an exponent, a literal past a double spells more than 308 digits.
      if (!exponent && i + 1 - start < 309) continue;
      const literal = text.slice(start, i + 1);
      if (!Number.isFinite(Number(literal))) return literal;
    }
  }
  return undefined;
}

/**
 * How many values (object members and array elements below the root) a JSON text spells: a
 * value for each comma outside strings and for each object or array that is not empty, counting
 * no further than `limit + 1`. A scan of the text, for any text (a malformed one is counted as
 * far as it reads).
 */
export function countTextValues(text: string, limit = Infinity): number {
  let n = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = endOfJsonString(text, i);
    } else if (c === 44) {
      if (++n > limit) return n;
    } else if (c === 123 || c === 91) {
      let j = i + 1;
      while (j < end && isBlank(text.charCodeAt(j))) j++;
      const d = text.charCodeAt(j);
      if (d !== 125 && d !== 93 && ++n > limit) return n;
    }
  }
  return n;
}

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
