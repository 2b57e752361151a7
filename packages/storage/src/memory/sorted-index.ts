import { commonPrefixLength, keyCode, lowerBoundCode, upperBoundCode } from './key-code.js';
import { Fences } from './fences.js';

/** Anything ordered by a string key. */
export interface Keyed {
  readonly key: string;
}

/** The default size at which a chunk is split in two. */
const defaultChunkSize = 512;
/** The room for keys a new chunk has at least. */
const minCapacity = 16;
/** How many units longer than a chunk's prefix the shared prefix of its keys must be to become it. */
const narrowing = 3;
/** A {@link Slot} is `chunk * slotBase + position`. */
const slotBase = 1024;

/**
 * Where a key is, or would be inserted, in a {@link SortedIndex}: valid until the index changes.
 */
export type Slot = number;

/**
 * One sorted run of keys. Its entries stay where they were appended: `order` lists their indexes in
 * key order, so an insert moves two typed arrays (no pointers, no write barriers) and appends one
 * pointer. `codes[i]` is the {@link keyCode} of the `i`-th key in order after `prefix`, which every
 * key of the chunk has. The two typed arrays hold as many keys as the chunk has (a half after a
 * split) and double, up to the chunk size, when an insert needs room: where keys arrive in
 * ascending runs (an Event's name ends in a time), the lower half of a split gets no more inserts
 * and stays half full.
 */
interface Chunk<E extends Keyed> {
  readonly entries: E[];
  order: Uint16Array;
  codes: Float64Array;
  prefix: string;
}

/**
 * Keys in byte order, as a list of sorted chunks of at most `chunkSize` keys (a one-level B+
 * tree): inserting or removing a key costs a binary search and a shift within one chunk, finding
 * a key's position a binary search over the chunks, and reading a range costs what it returns. A
 * list after a write therefore pays nothing for the rest of the table.
 *
 * In a large index nearly every comparison of a search is a cache miss (each key is a string of
 * its own somewhere in the heap), and they are what a search costs. Each chunk therefore keeps
 * the prefix all its keys share and, in one typed array, a {@link keyCode} of the code units
 * after it for each key: a search within a chunk compares numbers in a few contiguous cache lines
 * and reads a key's string only where codes are equal. Moving pointers in a large array costs V8
 * a write barrier per pointer, so a chunk keeps its entries in arrival order and their key order
 * in a typed array of indexes.
 */
export class SortedIndex<E extends Keyed> {
  private chunks: Chunk<E>[] = [];
  /** The last key of each chunk. */
  private readonly fences = new Fences();
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
    return c * slotBase + (this.chunks[c] === undefined ? 0 : this.lowerBoundIn(this.chunks[c], key));
  }

  /** The entry at a slot when it has `key`. */
  at(slot: Slot, key: string): E | undefined {
    const chunk = this.chunks[Math.floor(slot / slotBase)];
    const i = slot % slotBase;
    if (chunk === undefined || i >= chunk.entries.length) return undefined;
    // A different code settles it without reading the entry at the slot (every key of the chunk
    // has its prefix: a key without it differs anyway).
    if (chunk.codes[i] !== keyCode(key, chunk.prefix.length)) return undefined;
    const e = chunk.entries[chunk.order[i]];
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
      const chunk = this.newChunk([e], key);
      chunk.codes[0] = keyCode(key, key.length);
      this.chunks.push(chunk);
      this.fences.insert(0, key);
      return;
    }
    const c = Math.floor(slot / slotBase);
    const i = slot % slotBase;
    const chunk = this.chunks[c];
    if (!key.startsWith(chunk.prefix)) {
      chunk.prefix = chunk.prefix.slice(0, commonPrefixLength(chunk.prefix, key));
      encode(chunk);
    }
    const n = chunk.entries.length;
    if (n === chunk.codes.length) this.grow(chunk);
    chunk.codes.copyWithin(i + 1, i, n);
    chunk.codes[i] = keyCode(key, chunk.prefix.length);
    chunk.order.copyWithin(i + 1, i, n);
    chunk.order[i] = n;
    chunk.entries.push(e);
    if (i === n) this.fences.set(c, key);
    if (n + 1 >= this.chunkSize) this.split(c);
  }

  /** Removes the entry with `e`'s key when it is `e`; returns whether it did. */
  remove(e: E): boolean {
    const c = this.chunkAtOrAfter(e.key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return false;
    const i = this.lowerBoundIn(chunk, e.key);
    const { entries, order, codes } = chunk;
    const n = entries.length;
    if (i === n || entries[order[i]] !== e) return false;
    const at = order[i];
    order.copyWithin(i, i + 1, n);
    codes.copyWithin(i, i + 1, n);
    // The last-appended entry fills the hole.
    const moved = entries.pop() as E;
    if (at < n - 1) {
      entries[at] = moved;
      order[order.indexOf(n - 1)] = at;
    }
    if (n === 1) {
      this.chunks.splice(c, 1);
      this.fences.remove(c);
    } else if (i === n - 1) {
      this.fences.set(c, entries[order[i - 1]].key);
    }
    this.starts = undefined;
    this.count--;
    return true;
  }

  /** The entry with this key. */
  find(key: string): E | undefined {
    const chunk = this.chunks[this.chunkAtOrAfter(key)];
    if (chunk === undefined) return undefined;
    const i = this.lowerBoundIn(chunk, key);
    const e = i < chunk.entries.length ? chunk.entries[chunk.order[i]] : undefined;
    return e !== undefined && e.key === key ? e : undefined;
  }

  /** How many keys are `< key`. */
  rank(key: string): number {
    const c = this.chunkAtOrAfter(key);
    if (c === this.chunks.length) return this.count;
    this.starts ??= this.buildStarts();
    return this.starts[c] + this.lowerBoundIn(this.chunks[c], key);
  }

  /** The entries with keys in `[from, to)` in order (`to` undefined: to the end). */
  *range(from: string, to?: string): Generator<E, void, undefined> {
    const first = this.chunkAtOrAfter(from);
    for (let c = first; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      const { entries, order } = chunk;
      // A chunk that ends before `to` is yielded without comparing its keys.
      const whole = to === undefined || this.fences.key(c) < to;
      for (let i = c === first ? this.lowerBoundIn(chunk, from) : 0; i < entries.length; i++) {
        const e = entries[order[i]];
        if (!whole && e.key >= to) return;
        yield e;
      }
    }
  }

  /** First position in `chunk`'s order whose key is `>= key`: by codes where `key` has the chunk's prefix. */
  private lowerBoundIn(chunk: Chunk<E>, key: string): number {
    const { entries, codes, prefix } = chunk;
    const n = entries.length;
    if (!key.startsWith(prefix)) return lowerBoundOrdered(chunk, key, 0, n);
    const code = keyCode(key, prefix.length);
    const lo = lowerBoundCode(codes, code, 0, n);
    if (lo === n || codes[lo] !== code) return lo;
    // Keys with the same code: their strings decide.
    return lowerBoundOrdered(chunk, key, lo, upperBoundCode(codes, code, lo + 1, n));
  }

  /** A chunk of `entries` (already in key order) sharing `prefix`; its codes are left to the caller. */
  private newChunk(entries: E[], prefix: string): Chunk<E> {
    const capacity = Math.max(entries.length, minCapacity);
    const order = new Uint16Array(capacity);
    for (let i = 0; i < entries.length; i++) order[i] = i;
    return { entries, order, codes: new Float64Array(capacity), prefix };
  }

  /** Doubles a full chunk's room for keys, up to the chunk size. */
  private grow(chunk: Chunk<E>): void {
    const capacity = Math.min(this.chunkSize, chunk.codes.length * 2);
    const order = new Uint16Array(capacity);
    order.set(chunk.order);
    const codes = new Float64Array(capacity);
    codes.set(chunk.codes);
    chunk.order = order;
    chunk.codes = codes;
  }

  /** Splits a full chunk in two halves, each with the longest prefix its keys share. */
  private split(c: number): void {
    const half = this.chunkSize >> 1;
    const { entries, order, codes, prefix } = this.chunks[c];
    const n = entries.length;
    const lowerEntries = new Array<E>(half);
    const upperEntries = new Array<E>(n - half);
    for (let i = 0; i < half; i++) lowerEntries[i] = entries[order[i]];
    for (let i = half; i < n; i++) upperEntries[i - half] = entries[order[i]];
    const lower = this.newChunk(lowerEntries, prefix);
    const upper = this.newChunk(upperEntries, prefix);
    lower.codes.set(codes.subarray(0, half));
    upper.codes.set(codes.subarray(half, n));
    const lowerLast = lowerEntries[half - 1].key;
    this.chunks.splice(c, 1, lower, upper);
    this.fences.insert(c, lowerLast);
    narrow(lower);
    narrow(upper);
  }

  /** The first chunk whose last key is `>= key` (`chunks.length` when none). */
  private chunkAtOrAfter(key: string): number {
    return this.fences.atOrAfter(key);
  }

  private buildStarts(): number[] {
    const starts = new Array<number>(this.chunks.length);
    let n = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      starts[c] = n;
      n += this.chunks[c].entries.length;
    }
    return starts;
  }
}

/** Computes a chunk's codes for its prefix. */
function encode<E extends Keyed>(chunk: Chunk<E>): void {
  const { entries, order, codes } = chunk;
  const at = chunk.prefix.length;
  for (let i = 0; i < entries.length; i++) codes[i] = keyCode(entries[order[i]].key, at);
}

/**
 * Lengthens a chunk's prefix to what its first and last keys share, when that is at least
 * {@link narrowing} units longer. Recoding reads every key of the chunk (a cache miss each in a
 * large heap); a prefix a unit or two short leaves the codes more than four units past the
 * shared part, which still tell nearly all keys apart.
 */
function narrow<E extends Keyed>(chunk: Chunk<E>): void {
  const { entries, order } = chunk;
  const first = entries[order[0]].key;
  const n = commonPrefixLength(first, entries[order[entries.length - 1]].key);
  if (n >= chunk.prefix.length + narrowing) {
    chunk.prefix = first.slice(0, n);
    encode(chunk);
  }
}

/** First position in `[lo, hi)` of a chunk's order whose key is `>= key` (else `hi`). */
function lowerBoundOrdered<E extends Keyed>(chunk: Chunk<E>, key: string, lo: number, hi: number): number {
  const { entries, order } = chunk;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[order[mid]].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
