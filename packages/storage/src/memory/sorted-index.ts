/** Anything ordered by a string key. */
export interface Keyed {
  readonly key: string;
}

/** Chunks are split in two when they reach this size. */
const maxChunk = 128;
/** A {@link Slot} is `chunk * slotBase + position`. */
const slotBase = 1024;

/**
 * Where a key is, or would be inserted, in a {@link SortedIndex}: valid until the index changes.
 */
export type Slot = number;

/**
 * Keys in byte order, as a list of sorted chunks of at most {@link maxChunk} (a one-level B+
 * tree): inserting or removing a key costs a binary search and a shift within one chunk, finding
 * a key's position a binary search over the chunks, and reading a range costs what it returns. A
 * list after a write therefore pays nothing for the rest of the table.
 *
 * Each chunk keeps its keys in a flat array beside its entries: a search compares keys without
 * reading the entries, which halves the memory it touches (in a large index nearly every
 * comparison is a cache miss, and they are what a search costs).
 */
export class SortedIndex<E extends Keyed> {
  private chunks: E[][] = [];
  /** `keys[c][i]` is `chunks[c][i].key`. */
  private keys: string[][] = [];
  /** The last key of each chunk: the binary search over chunks reads one flat array. */
  private lastKeys: string[] = [];
  /** `starts[c]`: how many entries precede chunk `c`; rebuilt lazily after a change. */
  private starts: number[] | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Where `key` is or would go (one search for a lookup followed by an insert). */
  locate(key: string): Slot {
    const c = Math.min(this.chunkAtOrAfter(key), Math.max(0, this.chunks.length - 1));
    const keys = this.keys[c];
    return c * slotBase + (keys === undefined ? 0 : lowerBoundKey(keys, key));
  }

  /** The entry at a slot when it has `key`. */
  at(slot: Slot, key: string): E | undefined {
    const chunk = this.chunks[Math.floor(slot / slotBase)];
    const e = chunk === undefined ? undefined : chunk[slot % slotBase];
    return e !== undefined && e.key === key ? e : undefined;
  }

  /** Adds an entry whose key is not in the index yet. */
  insert(e: E): void {
    this.insertAt(this.locate(e.key), e);
  }

  /** Adds an entry, not in the index yet, at the slot {@link locate} gave for its key (no change since). */
  insertAt(slot: Slot, e: E): void {
    this.starts = undefined;
    this.count++;
    if (this.chunks.length === 0) {
      this.chunks.push([e]);
      this.keys.push([e.key]);
      this.lastKeys.push(e.key);
      return;
    }
    const c = Math.floor(slot / slotBase);
    const i = slot % slotBase;
    const chunk = this.chunks[c];
    const keys = this.keys[c];
    // A loop, not `splice`: splice allocates the array of removed entries and takes a generic path.
    for (let j = chunk.length; j > i; j--) {
      chunk[j] = chunk[j - 1];
      keys[j] = keys[j - 1];
    }
    chunk[i] = e;
    keys[i] = e.key;
    if (i === chunk.length - 1) this.lastKeys[c] = e.key;
    if (chunk.length >= maxChunk) {
      const upper = chunk.splice(maxChunk >> 1);
      const upperKeys = keys.splice(maxChunk >> 1);
      this.chunks.splice(c + 1, 0, upper);
      this.keys.splice(c + 1, 0, upperKeys);
      this.lastKeys[c] = keys[keys.length - 1];
      this.lastKeys.splice(c + 1, 0, upperKeys[upperKeys.length - 1]);
    }
  }

  /** Removes the entry with `e`'s key when it is `e`; returns whether it did. */
  remove(e: E): boolean {
    const c = this.chunkAtOrAfter(e.key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return false;
    const keys = this.keys[c];
    const i = lowerBoundKey(keys, e.key);
    if (chunk[i] !== e) return false;
    chunk.splice(i, 1);
    keys.splice(i, 1);
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.keys.splice(c, 1);
      this.lastKeys.splice(c, 1);
    } else if (i === chunk.length) {
      this.lastKeys[c] = keys[i - 1];
    }
    this.starts = undefined;
    this.count--;
    return true;
  }

  /** The entry with this key. */
  find(key: string): E | undefined {
    const c = this.chunkAtOrAfter(key);
    const keys = this.keys[c];
    if (keys === undefined) return undefined;
    const i = lowerBoundKey(keys, key);
    return keys[i] === key ? this.chunks[c][i] : undefined;
  }

  /** How many keys are `< key`. */
  rank(key: string): number {
    const c = this.chunkAtOrAfter(key);
    if (c === this.chunks.length) return this.count;
    this.starts ??= this.buildStarts();
    return this.starts[c] + lowerBoundKey(this.keys[c], key);
  }

  /** The entries with keys in `[from, to)` in order (`to` undefined: to the end). */
  *range(from: string, to?: string): Generator<E, void, undefined> {
    const first = this.chunkAtOrAfter(from);
    for (let c = first; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      const keys = this.keys[c];
      // A chunk that ends before `to` is yielded without comparing its keys.
      const whole = to === undefined || this.lastKeys[c] < to;
      for (let i = c === first ? lowerBoundKey(keys, from) : 0; i < chunk.length; i++) {
        if (!whole && keys[i] >= to) return;
        yield chunk[i];
      }
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

/** First index whose key is `>= key` in an array sorted by key. */
export function lowerBound(entries: readonly Keyed[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
