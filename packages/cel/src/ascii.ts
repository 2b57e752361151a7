/** ASCII-only lower-casing, as cel-go's `lowerAscii` (non-ASCII letters are kept). */
export function lowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** ASCII-only upper-casing, as cel-go's `upperAscii`. */
export function upperAscii(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}
