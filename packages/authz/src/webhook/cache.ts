/** The size of kube-apiserver's webhook authorizer cache (8192, as in webhook.go). */
export const webhookCacheSize = 8192;

/**
 * An LRU of answers with an expiry per entry (k8s.io/utils `cache.NewLRUExpireCache`): the least
 * recently used entry goes when the cache is full; an entry is served only until its expiry.
 */
export class ExpiringLRU<V> {
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { value: V; expires: number }>();
  /** The entry at the newest end of {@link #entries} (the most recently used). */
  #newest: { value: V; expires: number } | undefined;

  constructor(max = webhookCacheSize, now: () => number = Date.now) {
    this.#max = max;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (this.#now() > e.expires) {
      this.#entries.delete(key);
      return undefined;
    }
    // Move it to the newest end, unless it is there already (the common case of one hot key:
    // a delete and set per hit cost more than the lookup).
    if (e !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, e);
      this.#newest = e;
    }
    return e.value;
  }

  /** Keeps `value` for `ttlMs`; a TTL of 0 or less keeps nothing. */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    const e = { value, expires: this.#now() + ttlMs };
    this.#entries.set(key, e);
    this.#newest = e;
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
