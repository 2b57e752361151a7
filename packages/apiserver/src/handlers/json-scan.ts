const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;

/** The index of the quote that ends the JSON string opened at `open` (or the text's length). */
export function endOfJsonString(text: string, open: number): number {
  const n = text.length;
  let i = open + 1;
  for (; i < n; i++) {
    const d = text.charCodeAt(i);
    if (d === BACKSLASH) i++;
    else if (d === QUOTE) break;
  }
  return i;
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
      while (i + 1 < n && isNumberChar(text.charCodeAt(i + 1))) i++;
      const literal = text.slice(start, i + 1);
      if (!Number.isFinite(Number(literal))) return literal;
    }
  }
  return undefined;
}
