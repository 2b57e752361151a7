/** Anything ordered by a string key. */
export interface Keyed {
  readonly key: string;
}

/** The default size at which a chunk is split in two. */
const defaultChunkSize = 512;
/** A {@link Slot} is `chunk * slotBase + position`. */
const slotBase = 1024;

/**
 * Where a key is, or would be inserted, in a {@link SortedIndex}: valid until the index changes.
 */
export type Slot = number;

/** One more than the largest UTF-16 code unit: the base of a {@link keyCode}. */
const codeBase = 65537;

/**
 * The three UTF-16 code units of `key` from `at` as one number (each plus one, 0 past the end:
 * below every code unit, as a shorter string sorts first). For keys sharing their first `at`
 * units, a smaller code means a smaller key and equal codes mean equal units there. The largest
 * code, 65537³ − 1, is an exact double.
 */
function keyCode(key: string, at: number): number {
  const n = key.length;
  const a = at < n ? key.charCodeAt(at) + 1 : 0;
  const b = at + 1 < n ? key.charCodeAt(at + 1) + 1 : 0;
  const c = at + 2 < n ? key.charCodeAt(at + 2) + 1 : 0;
  return (a * codeBase + b) * codeBase + c;
}

/** The length of the longest common prefix of two strings. */
function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Keys in byte order, as a list of sorted chunks of at most `chunkSize` keys (a one-level B+
 * tree): inserting or removing a key costs a binary search and a shift within one chunk, finding
 * a key's position a binary search over the chunks, and reading a range costs what it returns. A
 * list after a write therefore pays nothing for the rest of the table.
 *
 * In a large index nearly every comparison of a search is a cache miss (each key is a string of
 * its own somewhere in the heap), and they are what a search costs. Each chunk therefore keeps
 * the prefix all its keys share and, in one typed array, a {@link keyCode} of the three code units
 * after it for each key: a search within a chunk compares numbers in a few contiguous cache lines
 * and reads a key's string only where codes are equal.
 */
export class SortedIndex<E extends Keyed> {
  private chunks: E[][] = [];
  /** The last key of each chunk: the binary search over chunks reads one flat array. */
  private lastKeys: string[] = [];
  /** A prefix every key of chunk `c` has. */
  private prefixes: string[] = [];
  /** `codes[c][i]` is `keyCode(chunks[c][i].key, prefixes[c].length)`. */
  private codes: Float64Array[] = [];
  /** `starts[c]`: how many entries precede chunk `c`; rebuilt lazily after a change. */
  private starts: number[] | undefined;
  private count = 0;
  private readonly chunkSize: number;

  /**
   * @param chunkSize - the size at which a chunk is split in two (even, 4 to 1024; tests use small
   *   ones to exercise splits with few keys).
   */
  constructor(chunkSize = defaultChunkSize) {
    if (!Number.isInteger(chunkSize) || chunkSize % 2 !== 0 || chunkSize < 4 || chunkSize > slotBase)
      throw new RangeError(`chunk size must be an even integer from 4 to ${slotBase}, not ${chunkSize}`);
    this.chunkSize = chunkSize;
  }

  get size(): number {
    return this.count;
  }

  /** Where `key` is or would go (one search for a lookup followed by an insert). */
  locate(key: string): Slot {
    const c = Math.min(this.chunkAtOrAfter(key), Math.max(0, this.chunks.length - 1));
    return c * slotBase + (this.chunks[c] === undefined ? 0 : this.lowerBoundIn(c, key));
  }

  /** The entry at a slot when it has `key`. */
  at(slot: Slot, key: string): E | undefined {
    const c = Math.floor(slot / slotBase);
    const i = slot % slotBase;
    const chunk = this.chunks[c];
    if (chunk === undefined || i >= chunk.length) return undefined;
    // A different code settles it without reading the entry at the slot (every key of the chunk
    // has its prefix: a key without it differs anyway).
    if (this.codes[c][i] !== keyCode(key, this.prefixes[c].length)) return undefined;
    const e = chunk[i];
    return e.key === key ? e : undefined;
  }

  /** Adds an entry whose key is not in the index yet. */
  insert(e: E): void {
    this.insertAt(this.locate(e.key), e);
  }

  /** Adds an entry, not in the index yet, at the slot {@link locate} gave for its key (no change since). */
  insertAt(slot: Slot, e: E): void {
    this.starts = undefined;
    this.count++;
    const key = e.key;
    if (this.chunks.length === 0) {
      this.chunks.push([e]);
      this.lastKeys.push(key);
      this.prefixes.push(key);
      this.codes.push(new Float64Array(this.chunkSize));
      return;
    }
    const c = Math.floor(slot / slotBase);
    const i = slot % slotBase;
    const chunk = this.chunks[c];
    if (!key.startsWith(this.prefixes[c])) {
      this.prefixes[c] = this.prefixes[c].slice(0, commonPrefixLength(this.prefixes[c], key));
      this.encode(c);
    }
    const codes = this.codes[c];
    codes.copyWithin(i + 1, i, chunk.length);
    codes[i] = keyCode(key, this.prefixes[c].length);
    chunk.splice(i, 0, e);
    if (i === chunk.length - 1) this.lastKeys[c] = key;
    if (chunk.length >= this.chunkSize) this.split(c);
  }

  /** Removes the entry with `e`'s key when it is `e`; returns whether it did. */
  remove(e: E): boolean {
    const c = this.chunkAtOrAfter(e.key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return false;
    const i = this.lowerBoundIn(c, e.key);
    if (chunk[i] !== e) return false;
    chunk.splice(i, 1);
    this.codes[c].copyWithin(i, i + 1, chunk.length + 1);
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.lastKeys.splice(c, 1);
      this.prefixes.splice(c, 1);
      this.codes.splice(c, 1);
    } else if (i === chunk.length) {
      this.lastKeys[c] = chunk[i - 1].key;
    }
    this.starts = undefined;
    this.count--;
    return true;
  }

  /** The entry with this key. */
  find(key: string): E | undefined {
    const c = this.chunkAtOrAfter(key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return undefined;
    const e = chunk[this.lowerBoundIn(c, key)];
    return e !== undefined && e.key === key ? e : undefined;
  }

  /** How many keys are `< key`. */
  rank(key: string): number {
    const c = this.chunkAtOrAfter(key);
    if (c === this.chunks.length) return this.count;
    this.starts ??= this.buildStarts();
    return this.starts[c] + this.lowerBoundIn(c, key);
  }

  /** The entries with keys in `[from, to)` in order (`to` undefined: to the end). */
  *range(from: string, to?: string): Generator<E, void, undefined> {
    const first = this.chunkAtOrAfter(from);
    for (let c = first; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      // A chunk that ends before `to` is yielded without comparing its keys.
      const whole = to === undefined || this.lastKeys[c] < to;
      for (let i = c === first ? this.lowerBoundIn(c, from) : 0; i < chunk.length; i++) {
        const e = chunk[i];
        if (!whole && e.key >= to) return;
        yield e;
      }
    }
  }

  /** First position in chunk `c` whose key is `>= key`: by codes where `key` has the chunk's prefix. */
  private lowerBoundIn(c: number, key: string): number {
    const chunk = this.chunks[c];
    const prefix = this.prefixes[c];
    if (!key.startsWith(prefix)) return lowerBound(chunk, key, 0, chunk.length);
    const codes = this.codes[c];
    const code = keyCode(key, prefix.length);
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (codes[mid] < code) lo = mid + 1;
      else hi = mid;
    }
    if (lo === chunk.length || codes[lo] !== code) return lo;
    // Keys with the same code: the end of their run by code, then their strings.
    let end = lo + 1;
    hi = chunk.length;
    while (end < hi) {
      const mid = (end + hi) >>> 1;
      if (codes[mid] === code) end = mid + 1;
      else hi = mid;
    }
    return lowerBound(chunk, key, lo, end);
  }

  /** Computes the codes of chunk `c` for its prefix. */
  private encode(c: number): void {
    const chunk = this.chunks[c];
    const codes = this.codes[c];
    const at = this.prefixes[c].length;
    for (let i = 0; i < chunk.length; i++) codes[i] = keyCode(chunk[i].key, at);
  }

  /** Splits a full chunk in two halves, each with the longest prefix its keys share. */
  private split(c: number): void {
    const half = this.chunkSize >> 1;
    const lower = this.chunks[c];
    const upper = lower.splice(half);
    const lowerLast = lower[lower.length - 1].key;
    const upperLast = upper[upper.length - 1].key;
    this.chunks.splice(c + 1, 0, upper);
    this.lastKeys[c] = lowerLast;
    this.lastKeys.splice(c + 1, 0, upperLast);
    const codes = this.codes[c];
    this.prefixes.splice(c + 1, 0, this.prefixes[c]);
    this.codes.splice(c + 1, 0, new Float64Array(this.chunkSize));
    this.codes[c + 1].set(codes.subarray(half, this.chunkSize));
    this.narrow(c, lower[0].key, lowerLast);
    this.narrow(c + 1, upper[0].key, upperLast);
  }

  /** Lengthens chunk `c`'s prefix to what its first and last keys share, when that is longer. */
  private narrow(c: number, first: string, last: string): void {
    const n = commonPrefixLength(first, last);
    if (n > this.prefixes[c].length) {
      this.prefixes[c] = first.slice(0, n);
      this.encode(c);
    }
  }

  /** The first chunk whose last key is `>= key` (`chunks.length` when none). */
  private chunkAtOrAfter(key: string): number {
    return lowerBoundKey(this.lastKeys, key);
  }

  private buildStarts(): number[] {
    const starts = new Array<number>(this.chunks.length);
    let n = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      starts[c] = n;
      n += this.chunks[c].length;
    }
    return starts;
  }
}

/** First index whose key is `>= key` in a sorted array of keys. */
function lowerBoundKey(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `[lo, hi)` whose key is `>= key` (else `hi`) in an array sorted by key. */
export function lowerBound(entries: readonly Keyed[], key: string, lo = 0, hi = entries.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
