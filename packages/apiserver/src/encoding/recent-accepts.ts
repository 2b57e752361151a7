/**
 * The outcomes of recent `Accept` headers, by header: clients send the same few over and over,
 * and parsing one costs ~1 µs. Bounded: at most 256 headers of up to 512 characters are kept, and
 * a full memo starts over.
 */
export class RecentAccepts<T> {
  readonly #outcomes = new Map<string, T | null>();

  /** The outcome kept for `accept`, else `decide`'s (then kept); null when nothing fits. */
  get(accept: string, decide: () => T | undefined): T | null {
    let chosen = this.#outcomes.get(accept);
    if (chosen === undefined) {
      chosen = decide() ?? null;
      if (this.#outcomes.size >= recentAcceptsLimit) this.#outcomes.clear();
      if (accept.length <= recentAcceptMaxLength) this.#outcomes.set(accept, chosen);
    }
    return chosen;
  }
}

const recentAcceptsLimit = 256;
const recentAcceptMaxLength = 512;
