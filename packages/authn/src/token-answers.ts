import { hash } from 'node:crypto';

/** Options of {@link TokenAnswers}. */
export interface TokenAnswersOptions {
  /** Most tokens kept; the oldest go first. Default 4096. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/**
 * The answers of one token verifier, keyed by a SHA-256 of the token (the token itself is not
 * held): an answer is reused until the expiry its verifier gave it, concurrent checks of one token
 * share one verification, and a verification that throws is not kept. What the token cache and
 * the TokenReview authenticator share.
 */
export class TokenAnswers<V> {
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { answer: V; expires: number }>();
  readonly #inflight = new Map<string, Promise<V>>();

  constructor(options: TokenAnswersOptions = {}) {
    this.#max = options.maxEntries ?? 4096;
    this.#now = options.now ?? Date.now;
  }

  /** The kept answer for `token` while it is fresh; never verifies. */
  peek(token: string): V | undefined {
    const hit = this.#entries.get(hash('sha256', token, 'base64'));
    return hit && hit.expires > this.#now() ? hit.answer : undefined;
  }

  /**
   * The kept answer for `token`, or the one `verify` gives (shared with concurrent callers), kept
   * while `keepUntil(answer, now)` (a time in milliseconds) is later than now; undefined keeps nothing.
   */
  answer(
    token: string,
    verify: () => Promise<V>,
    keepUntil: (answer: V, now: number) => number | undefined,
  ): Promise<V> {
    const key = hash('sha256', token, 'base64');
    const hit = this.#entries.get(key);
    if (hit) {
      if (hit.expires > this.#now()) return Promise.resolve(hit.answer);
      this.#entries.delete(key);
    }
    let p = this.#inflight.get(key);
    if (!p) {
      p = verify().then((answer) => {
        const now = this.#now();
        const expires = keepUntil(answer, now);
        if (expires !== undefined && expires > now) {
          if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
          this.#entries.set(key, { answer, expires });
        }
        return answer;
      });
      const q = p.finally(() => this.#inflight.delete(key));
      q.catch(() => undefined);
      this.#inflight.set(key, p);
    }
    return p;
  }

  /** Forgets every kept answer. */
  clear(): void {
    this.#entries.clear();
  }
}
