/** The bits of a {@link keyCode}: every integer below 2^52 is an exact double. */
const codeBits = 52;
/** Powers of two by exponent, to {@link codeBits}: a variable `2 ** n` is a call to `pow`. */
const pow2 = Array.from({ length: codeBits + 1 }, (_, i) => 2 ** i);

/**
 * The code units of `key` from `at` as one order-preserving number of 52 bits: each unit below
 * U+007F as 8 bits (a 0 and the unit plus one), any other as 17 (a 1 and the unit), all bits past
 * the end 0 (below every unit, as a shorter string sorts first), cut after 52 bits. The units'
 * bits form an order-preserving prefix code, so for keys sharing their first `at` units a smaller
 * code means a smaller key; equal codes leave the order to the strings. An ASCII key gets six
 * and a half units into a code, others at least three.
 */
export function keyCode(key: string, at: number): number {
  const n = key.length;
  let code = 0;
  let bits = 0;
  for (let i = at; bits < codeBits; i++) {
    if (i >= n) return code * pow2[codeBits - bits];
    const u = key.charCodeAt(i);
    const width = u < 0x7f ? 8 : 17;
    const value = u < 0x7f ? u + 1 : 0x10000 + u;
    const room = codeBits - bits;
    if (width > room) return code * pow2[room] + Math.floor(value / pow2[width - room]);
    code = code * pow2[width] + value;
    bits += width;
  }
  return code;
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
