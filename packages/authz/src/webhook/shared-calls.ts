/** One call in flight and the callers waiting for it. */
interface Flight<V> {
  readonly promise: Promise<V>;
  readonly controller: AbortController;
  waiters: number;
}

/**
 * Calls in flight by key, each shared by the callers that ask for its key while it runs (Go's
 * `singleflight`, which kube-apiserver's token cache uses for the same purpose): N identical
 * requests that miss the cache at once make one call, not N. Every caller keeps its own signal:
 * one whose signal aborts stops waiting at once and gets `gone(reason)`, and the call itself is
 * aborted only when its last caller has gone, so no caller loses the call another still waits for.
 */
export class SharedCalls<V> {
  readonly #flights = new Map<string, Flight<V>>();

  /** Calls in flight (for tests and metrics). */
  get size(): number {
    return this.#flights.size;
  }

  /**
   * The answer of the call for `key`: the one in flight, or a new one `start` makes with a signal
   * aborted when every caller has gone. A caller without a signal waits for the answer whatever
   * happens; one whose signal is already aborted gets `gone` at once and starts nothing.
   */
  join(
    key: string,
    signal: AbortSignal | undefined,
    start: (signal: AbortSignal) => Promise<V>,
    gone: (reason: unknown) => V,
  ): Promise<V> {
    if (signal?.aborted) return Promise.resolve(gone(signal.reason));
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      const controller = new AbortController();
      const promise = start(controller.signal);
      const f: Flight<V> = { promise, controller, waiters: 0 };
      this.#flights.set(key, f);
      const settled = (): void => {
        if (this.#flights.get(key) === f) this.#flights.delete(key);
      };
      promise.then(settled, settled);
      flight = f;
    }
    flight.waiters++;
    if (signal === undefined) return flight.promise;
    const f = flight;
    return new Promise<V>((resolve, reject) => {
      const onAbort = (): void => {
        resolve(gone(signal.reason));
        if (--f.waiters > 0) return;
        if (this.#flights.get(key) === f) this.#flights.delete(key);
        f.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      f.promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }
}
