/**
 * `text` as one flat string. Texts built by `+=` (the serializers') are ropes of ~100 pieces,
 * each piece an object: one that is kept costs several times its characters until it is
 * flattened, and every later read walks the rope again. Converting a string to a number makes
 * V8 flatten it in place (the trick of the `flatstr` package).
 */
export function flatten(text: string): string {
  void Number(text);
  return text;
}

/** How many characters of JSON text (or bytes) an {@link EncodedItems} keeps at most (2 MiB of one-byte text). */
export const encodedItemsMaxChars = 2 * 1024 * 1024;

/**
 * The JSON texts of stored objects as one view encodes them (list items: without kind and
 * apiVersion), keyed by resourceVersion: a store that offers revision reads never gives a
 * resourceVersion to two states, so a text is valid as long as the store lives. Gets, pages and
 * repeated lists of recent objects reuse them instead of decoding and encoding again.
 *
 * Bounded by size in two generations of half the size each: when the newer one is full it
 * becomes the older one and the older one is dropped whole, so a miss costs one `Map.set` however
 * many texts come and go (evicting one entry at a time from the front of a `Map` makes every
 * eviction walk the holes the earlier ones left, which made paging through a large store slower).
 * The same holds for encoded watch lines (`Buffer`s, sized in bytes).
 */
export class EncodedItems<V extends string | Buffer = string> {
  #newer = new Map<number, V>();
  #older = new Map<number, V>();
  #newerChars = 0;
  readonly #max: number;
  readonly #half: number;

  constructor(maxChars = encodedItemsMaxChars) {
    this.#max = maxChars;
    this.#half = Math.floor(maxChars / 2);
  }

  /**
   * The text of resourceVersion `rv`, or `encode()`: then kept, unless `listed` texts of its size
   * would not fit (the text is one of a list of `listed` items). Such a list, read page by page
   * (a walk through a large store), pushes every text out before one is read again, so keeping
   * them only costs the young generation: each text kept is copied by one or two scavenges and
   * then promoted to die in old space. A text not kept is returned as it was encoded (a rope,
   * which its one reader, a join, flattens anyway).
   */
  get(rv: number, encode: () => V, listed = 1): V {
    const kept = this.#newer.get(rv) ?? this.#older.get(rv);
    if (kept !== undefined) return kept;
    const encoded = encode();
    if (listed > 1 && encoded.length * listed > this.#max) return encoded;
    const text = typeof encoded === 'string' ? (flatten(encoded) as V) : encoded;
    if (text.length > this.#half) return text;
    if (this.#newerChars + text.length > this.#half) {
      this.#older = this.#newer;
      this.#newer = new Map();
      this.#newerChars = 0;
    }
    this.#newer.set(rv, text);
    this.#newerChars += text.length;
    return text;
  }
}
