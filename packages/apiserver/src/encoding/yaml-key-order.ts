/**
 * The order in which goyaml v2 (the YAML library under sigs.k8s.io/yaml, which kube-apiserver
 * writes YAML responses with) writes a map's string keys: its `keyList.Less`. Keys are compared
 * by Unicode code points up to the first difference; there a letter (Go's `unicode.IsLetter`)
 * sorts after anything else, two letters by code point, and otherwise the runs of digits
 * (`unicode.IsDigit`) starting there are compared as numbers (int64 with Go's wrap-around, each
 * digit worth its code point minus '0', so "a9" < "a10"), then by run length, then by code point.
 *
 * That relation is not transitive for some mixes of digits and other characters; there Go's
 * order depends on its random map iteration order, and this one on the input order.
 */

const letter = /^\p{L}$/u;
const digit = /^\p{Nd}$/u;

function isLetter(c: number): boolean {
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return letter.test(String.fromCodePoint(c));
}

function isDigit(c: number): boolean {
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return digit.test(String.fromCodePoint(c));
}

/** The code point that ends just before UTF-16 index `i`. */
function codePointBefore(s: string, i: number): number {
  const c = s.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = s.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return ((h - 0xd800) << 10) + (c - 0xdc00) + 0x10000;
  }
  return c;
}

/** Past this a digit run's value is kept as a BigInt, wrapped to int64 like Go's. */
const exactLimit = 2 ** 53 / 16 - 1_200_000;

/** The value of the digit run of `s` from `i` on, starting from `start`, and its length in runes. */
function digitRun(s: string, i: number, start: number): [number | bigint, number] {
  let n: number | bigint = start;
  let runes = 0;
  while (i < s.length) {
    const c = s.codePointAt(i)!;
    if (!isDigit(c)) break;
    if (typeof n === 'number' && n > exactLimit) n = BigInt(n);
    n = typeof n === 'number' ? n * 10 + (c - 48) : BigInt.asIntN(64, n * 10n + BigInt(c - 48));
    i += c > 0xffff ? 2 : 1;
    runes++;
  }
  return [n, runes];
}

function sameNum(a: number | bigint, b: number | bigint): boolean {
  return typeof a === 'number' && typeof b === 'number' ? a === b : BigInt(a) === BigInt(b);
}

function lessNum(a: number | bigint, b: number | bigint): boolean {
  return typeof a === 'number' && typeof b === 'number' ? a < b : BigInt(a) < BigInt(b);
}

/** goyaml v2's `keyList.Less` for two string keys. */
export function goyamlKeyLess(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length < b.length;
  // Back to the start of a surrogate pair whose second halves differ.
  const h = a.charCodeAt(i - 1);
  if (i > 0 && h >= 0xd800 && h <= 0xdbff) i--;
  const ac = a.codePointAt(i)!;
  const bc = b.codePointAt(i)!;
  const al = isLetter(ac);
  const bl = isLetter(bc);
  if (al && bl) return ac < bc;
  if (al || bl) return bl;
  let start = 0;
  if (ac === 48 || bc === 48) {
    for (let j = i; j > 0;) {
      const c = codePointBefore(a, j);
      if (!isDigit(c)) break;
      if (c !== 48) {
        start = 1;
        break;
      }
      j -= c > 0xffff ? 2 : 1;
    }
  }
  const [an, ar] = digitRun(a, i, start);
  const [bn, br] = digitRun(b, i, start);
  if (!sameNum(an, bn)) return lessNum(an, bn);
  if (ar !== br) return ar < br;
  return ac < bc;
}

/** A comparator for `Array.prototype.sort` that orders keys as goyaml v2 writes them. */
export function compareGoyamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  return goyamlKeyLess(a, b) ? -1 : 1;
}
