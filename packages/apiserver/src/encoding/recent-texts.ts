/**
 * The texts of the last few stored states, by resourceVersion: a direct-mapped table of `size`
 * slots (slot `rv % size`), so a text lives only until a later write takes its slot. It lets the
 * answer to a write and the watch lines of the same change share one encoding without keeping
 * every text long enough to outlive a young-generation collection (texts kept longer are copied
 * to the old generation and become garbage there, which costs the memory store RSS per event).
 */
export class RecentTexts {
  readonly #rvs: number[];
  readonly #texts: (string | undefined)[];

  /** @param size - how many slots (a resourceVersion maps to one) */
  constructor(size = 256) {
    this.#rvs = new Array<number>(size).fill(0);
    this.#texts = new Array<string | undefined>(size).fill(undefined);
  }

  /** The text kept for `rv`, if its slot still holds it. */
  peek(rv: number): string | undefined {
    const slot = rv % this.#rvs.length;
    return this.#rvs[slot] === rv ? this.#texts[slot] : undefined;
  }

  /** The text kept for `rv`, or `encode()` (then kept in `rv`'s slot). */
  get(rv: number, encode: () => string): string {
    const kept = this.peek(rv);
    if (kept !== undefined) return kept;
    const text = encode();
    const slot = rv % this.#rvs.length;
    this.#rvs[slot] = rv;
    this.#texts[slot] = text;
    return text;
  }
}
