/** The live watch streams of a server, so that shutdown can end them cleanly. */
export class WatchHub {
  readonly #stops = new Set<() => void>();
  #drained: (() => void)[] = [];

  /** Registers a stream's stop function; returns the function that unregisters it (call it once the stream has ended). */
  add(stop: () => void): () => void {
    this.#stops.add(stop);
    return () => {
      this.#stops.delete(stop);
      if (this.#stops.size === 0) {
        const waiters = this.#drained;
        this.#drained = [];
        for (const w of waiters) w();
      }
    };
  }

  get size(): number {
    return this.#stops.size;
  }

  /**
   * Ends every live watch and resolves once each stream has written its last chunk (or after
   * `timeoutMs`), so clients see a clean end of stream and re-watch elsewhere.
   */
  async closeAll(timeoutMs = 5000): Promise<void> {
    if (this.#stops.size === 0) return;
    const drained = new Promise<void>((resolve) => {
      this.#drained.push(resolve);
      setTimeout(resolve, timeoutMs).unref();
    });
    for (const stop of [...this.#stops]) stop();
    await drained;
  }
}
