/** One more than the largest UTF-16 code unit: the base of a {@link keyCode}. */
const codeBase = 65537;

/**
 * The three UTF-16 code units of `key` from `at` as one number (each plus one, 0 past the end:
 * below every code unit, as a shorter string sorts first). For keys sharing their first `at`
 * units, a smaller code means a smaller key and equal codes mean equal units there. The largest
 * code, 65537³ − 1, is an exact double.
 */
export function keyCode(key: string, at: number): number {
  const n = key.length;
  const a = at < n ? key.charCodeAt(at) + 1 : 0;
  const b = at + 1 < n ? key.charCodeAt(at + 1) + 1 : 0;
  const c = at + 2 < n ? key.charCodeAt(at + 2) + 1 : 0;
  return (a * codeBase + b) * codeBase + c;
}

/** The length of the longest common prefix of two strings. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** First index in `[lo, hi)` of ascending `codes` whose code is `>= code` (else `hi`). */
export function lowerBoundCode(codes: Float64Array, code: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (codes[mid] < code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `[lo, hi)` of ascending `codes` whose code is `> code` (else `hi`). */
export function upperBoundCode(codes: Float64Array, code: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (codes[mid] <= code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
