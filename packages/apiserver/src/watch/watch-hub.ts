/** What a live watch is counted under (`apiserver_longrunning_requests` labels). */
export interface WatchLabels {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly scope: string;
}

/**
 * The most a watch may hold of output its client has not read yet (bytes buffered in the server
 * for its connection) once it has caught up with the store. A watch that passes it is ended, as
 * kube-apiserver's watch cache terminates a watcher whose buffer stays full; the client watches
 * again (or relists). While a watch sends its initial events or catches up with older changes
 * it waits for its client instead (that output costs no memory: the store keeps it).
 */
export const watchBacklogLimitBytes = 8 * 1024 * 1024;

/** Options of a {@link WatchHub}. */
export interface WatchHubOptions {
  /** See {@link watchBacklogLimitBytes} (the default). */
  readonly backlogLimitBytes?: number;
}

/** The live watch streams of a server, so that shutdown can end them cleanly and metrics can count them. */
export class WatchHub {
  readonly #stops = new Map<() => void, WatchLabels | undefined>();
  #drained: (() => void)[] = [];
  readonly #terminated = new Map<string, { group: string; resource: string; count: number }>();
  /** The backlog limit of every watch of this server, in bytes. */
  readonly backlogLimitBytes: number;

  constructor(options: WatchHubOptions = {}) {
    this.backlogLimitBytes = options.backlogLimitBytes ?? watchBacklogLimitBytes;
  }

  /** Counts a watch ended because its client did not keep up (`apiserver_terminated_watchers_total`). */
  recordTerminated(group: string, resource: string): void {
    const key = `${group}/${resource}`;
    const c = this.#terminated.get(key);
    if (c) c.count++;
    else this.#terminated.set(key, { group, resource, count: 1 });
  }

  /** How many watches were ended for not keeping up, by group and resource. */
  terminatedCounts(): readonly { group: string; resource: string; count: number }[] {
    return [...this.#terminated.values()];
  }

  /** Registers a stream's stop function; returns the function that unregisters it (call it once the stream has ended). */
  add(stop: () => void, labels?: WatchLabels): () => void {
    this.#stops.set(stop, labels);
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

  /** How many watches are live, by their labels. */
  counts(): { labels: WatchLabels; count: number }[] {
    const out = new Map<string, { labels: WatchLabels; count: number }>();
    for (const l of this.#stops.values()) {
      if (!l) continue;
      const key = `${l.group}/${l.version}/${l.resource}/${l.scope}`;
      const c = out.get(key);
      if (c) c.count++;
      else out.set(key, { labels: l, count: 1 });
    }
    return [...out.values()];
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
    for (const stop of [...this.#stops.keys()]) stop();
    await drained;
  }
}
