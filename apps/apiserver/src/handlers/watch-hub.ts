/** The live watch streams of a server, so that shutdown can end them cleanly. */
export class WatchHub {
  readonly #stops = new Set<() => void>();

  /** Registers a stream's stop function; returns the function that unregisters it. */
  add(stop: () => void): () => void {
    this.#stops.add(stop);
    return () => this.#stops.delete(stop);
  }

  get size(): number {
    return this.#stops.size;
  }

  /** Ends every live watch (their clients see the stream close and re-watch elsewhere). */
  closeAll(): void {
    for (const stop of [...this.#stops]) stop();
    this.#stops.clear();
  }
}
