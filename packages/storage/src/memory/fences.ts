import { commonPrefixLength, keyCode, lowerBoundCode, upperBoundCode } from './key-code.js';

/**
 * The ascending last keys of a {@link SortedIndex}'s chunks, searched by {@link keyCode}: all of
 * them share `prefix`, and `codes[c]` codes the units of `keys[c]` after it. A search compares
 * numbers in one typed array and reads key strings (each a cache miss in a large heap) only among
 * fences with its own code. Where fences share more than the prefix (many chunks of one namespace
 * among few), the codes tie and the search falls back to the strings of the tied run.
 */
export class Fences {
  private readonly keys: string[] = [];
  private codes = new Float64Array(16);
  private prefix = '';

  get length(): number {
    return this.keys.length;
  }

  /** The last key of chunk `c`. */
  key(c: number): string {
    return this.keys[c];
  }

  /** The first chunk whose last key is `>= key` (`length` when none). */
  atOrAfter(key: string): number {
    const keys = this.keys;
    const n = keys.length;
    if (!key.startsWith(this.prefix)) return lowerBoundString(keys, key, 0, n);
    const code = keyCode(key, this.prefix.length);
    const lo = lowerBoundCode(this.codes, code, 0, n);
    if (lo === n || this.codes[lo] !== code) return lo;
    return lowerBoundString(keys, key, lo, upperBoundCode(this.codes, code, lo + 1, n));
  }

  /** Sets chunk `c`'s last key (keeping the keys ascending). */
  set(c: number, key: string): void {
    this.keys[c] = key;
    if (this.admit(key)) this.codes[c] = keyCode(key, this.prefix.length);
  }

  /** Inserts a last key for a new chunk at `c` (keeping the keys ascending). */
  insert(c: number, key: string): void {
    const n = this.keys.length;
    if (n === this.codes.length) {
      const grown = new Float64Array(n * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.keys.splice(c, 0, key);
    this.codes.copyWithin(c + 1, c, n);
    if (this.admit(key)) this.codes[c] = keyCode(key, this.prefix.length);
    if (c === 0 || c === n) this.narrow();
  }

  /** Removes chunk `c`'s last key. */
  remove(c: number): void {
    const n = this.keys.length;
    this.keys.splice(c, 1);
    this.codes.copyWithin(c, c + 1, n);
    if (c === 0 || c === n - 1) this.narrow();
  }

  /**
   * Shortens the prefix to one `key` has too, recoding every fence; returns whether the code of
   * `key` is still to be written (false when the recoding wrote it).
   */
  private admit(key: string): boolean {
    if (key.startsWith(this.prefix)) return true;
    this.prefix = this.prefix.slice(0, commonPrefixLength(this.prefix, key));
    this.encode();
    return false;
  }

  /** Lengthens the prefix to what the first and last keys share, when that is longer. */
  private narrow(): void {
    const n = this.keys.length;
    if (n === 0) return;
    const shared = commonPrefixLength(this.keys[0], this.keys[n - 1]);
    if (shared > this.prefix.length) {
      this.prefix = this.keys[0].slice(0, shared);
      this.encode();
    }
  }

  private encode(): void {
    const at = this.prefix.length;
    for (let c = 0; c < this.keys.length; c++) this.codes[c] = keyCode(this.keys[c], at);
  }
}

/** First index in `[lo, hi)` of ascending `keys` whose key is `>= key` (else `hi`). */
function lowerBoundString(keys: readonly string[], key: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
