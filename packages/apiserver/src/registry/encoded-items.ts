/** How many characters of JSON text an {@link EncodedItems} keeps at most (2 MiB of one-byte text). */
export const encodedItemsMaxChars = 2 * 1024 * 1024;

/**
 * The JSON texts of stored objects as one view encodes them (list items: without kind and
 * apiVersion), keyed by resourceVersion: a store that offers revision reads never gives a
 * resourceVersion to two states, so a text is valid as long as the store lives. Gets, pages and
 * repeated lists of recent objects reuse them instead of decoding and encoding again. Bounded by
 * size; the oldest entries go first.
 */
export class EncodedItems {
  readonly #texts = new Map<number, string>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars = encodedItemsMaxChars) {
    this.#maxChars = maxChars;
  }

  /** The text of resourceVersion `rv`, or `encode()` (then kept). */
  get(rv: number, encode: () => string): string {
    let text = this.#texts.get(rv);
    if (text !== undefined) return text;
    text = encode();
    if (text.length > this.#maxChars) return text;
    this.#texts.set(rv, text);
    this.#chars += text.length;
    while (this.#chars > this.#maxChars) {
      const [oldest, t] = this.#texts.entries().next().value!;
      this.#texts.delete(oldest);
      this.#chars -= t.length;
    }
    return text;
  }
}
