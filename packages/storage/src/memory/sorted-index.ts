/** Anything ordered by a string key. */
export interface Keyed {
  readonly key: string;
}

/** Chunks are split in two when they reach this size. */
const maxChunk = 512;

/**
 * Keys in byte order, as a list of sorted chunks of at most {@link maxChunk} (a one-level B+
 * tree): inserting or removing a key costs a binary search and a splice of one chunk, finding a
 * key's position a binary search over the chunks, and reading a range costs what it returns. A
 * list after a write therefore pays nothing for the rest of the table.
 */
export class SortedIndex<E extends Keyed> {
  private chunks: E[][] = [];
  /** The last key of each chunk: the binary search over chunks reads one flat array. */
  private lastKeys: string[] = [];
  /** `starts[c]`: how many entries precede chunk `c`; rebuilt lazily after a change. */
  private starts: number[] | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds an entry whose key is not in the index yet. */
  insert(e: E): void {
    this.starts = undefined;
    this.count++;
    if (this.chunks.length === 0) {
      this.chunks.push([e]);
      this.lastKeys.push(e.key);
      return;
    }
    const c = Math.min(this.chunkAtOrAfter(e.key), this.chunks.length - 1);
    const chunk = this.chunks[c];
    const i = lowerBound(chunk, e.key);
    // A loop, not `splice`: splice allocates the array of removed entries and takes a generic path.
    for (let j = chunk.length; j > i; j--) chunk[j] = chunk[j - 1];
    chunk[i] = e;
    if (i === chunk.length - 1) this.lastKeys[c] = e.key;
    if (chunk.length >= maxChunk) {
      const upper = chunk.splice(maxChunk >> 1);
      this.chunks.splice(c + 1, 0, upper);
      this.lastKeys[c] = chunk[chunk.length - 1].key;
      this.lastKeys.splice(c + 1, 0, upper[upper.length - 1].key);
    }
  }

  /** Removes the entry with `e`'s key when it is `e`; returns whether it did. */
  remove(e: E): boolean {
    const c = this.chunkAtOrAfter(e.key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return false;
    const i = lowerBound(chunk, e.key);
    if (chunk[i] !== e) return false;
    chunk.splice(i, 1);
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.lastKeys.splice(c, 1);
    } else if (i === chunk.length) {
      this.lastKeys[c] = chunk[i - 1].key;
    }
    this.starts = undefined;
    this.count--;
    return true;
  }

  /** The entry with this key. */
  find(key: string): E | undefined {
    const chunk = this.chunks[this.chunkAtOrAfter(key)];
    if (chunk === undefined) return undefined;
    const e = chunk[lowerBound(chunk, key)];
    return e !== undefined && e.key === key ? e : undefined;
  }

  /** How many keys are `< key`. */
  rank(key: string): number {
    const c = this.chunkAtOrAfter(key);
    if (c === this.chunks.length) return this.count;
    this.starts ??= this.buildStarts();
    return this.starts[c] + lowerBound(this.chunks[c], key);
  }

  /** The entries with keys in `[from, to)` in order (`to` undefined: to the end). */
  *range(from: string, to?: string): Generator<E, void, undefined> {
    const first = this.chunkAtOrAfter(from);
    for (let c = first; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      for (let i = c === first ? lowerBound(chunk, from) : 0; i < chunk.length; i++) {
        const e = chunk[i];
        if (to !== undefined && e.key >= to) return;
        yield e;
      }
    }
  }

  /** The first chunk whose last key is `>= key` (`chunks.length` when none). */
  private chunkAtOrAfter(key: string): number {
    let lo = 0;
    const lastKeys = this.lastKeys;
    let hi = lastKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lastKeys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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
