/** What a live watch is counted under (`apiserver_longrunning_requests` labels). */
export interface WatchLabels {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly scope: string;
}

/**
 * The most encoded output a live watch may hold that its client has not read yet (bytes
 * buffered in the server for its connection or HTTP/2 stream, past what the kernel and the
 * client's flow-control window took), once it has caught up with the store. See
 * {@link watchBacklogLimitEvents}: a watch that stays past either limit for
 * {@link watchBacklogGraceMs} is ended.
 */
export const watchBacklogLimitBytes = 1024 * 1024;

/**
 * The most events a live watch may hold that its client has not read yet: kube-apiserver's
 * watch cache gives a watcher of a resource without a trigger index an input channel and a
 * result channel of at most 100 events each (`maxWatchChanSizeWithoutIndex`,
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go and cache_watcher.go), so a
 * watcher is at most 200 events behind before the cacher blocks on it.
 */
export const watchBacklogLimitEvents = 200;

/**
 * How long a live watch past its backlog limits waits for its client to get back under them
 * before it is ended: kube-apiserver's cacher blocks on a full watcher for at most its dispatch
 * time budget (`maxBudget`, 100 ms, staging/src/k8s.io/apiserver/pkg/storage/cacher/
 * time_budget.go), then terminates it ("Forcing ... watcher close due to unresponsiveness").
 * While it waits it reads nothing more from the store (the store keeps the changes; nothing is
 * buffered for it). A watch that is ended has its connection (HTTP/1.1) or stream (HTTP/2)
 * closed at once, without a final chunk, and its buffer freed; the client watches again (or
 * relists), as after kube-apiserver terminates a watcher. While a watch sends its initial
 * events or catches up with older changes it waits for its client instead, with no limit (that
 * output costs no memory: the store keeps it).
 */
export const watchBacklogGraceMs = 100;

/** Options of a {@link WatchHub}. */
export interface WatchHubOptions {
  /** See {@link watchBacklogLimitBytes} (the default). */
  readonly backlogLimitBytes?: number;
  /** See {@link watchBacklogLimitEvents} (the default). */
  readonly backlogLimitEvents?: number;
  /** See {@link watchBacklogGraceMs} (the default). */
  readonly backlogGraceMs?: number;
}

/** The live watch streams of a server, so that shutdown can end them cleanly and metrics can count them. */
export class WatchHub {
  readonly #stops = new Map<() => void, WatchLabels | undefined>();
  #drained: (() => void)[] = [];
  readonly #terminated = new Map<string, { group: string; resource: string; count: number }>();
  /** The backlog limit of every watch of this server, in bytes. */
  readonly backlogLimitBytes: number;
  /** The backlog limit of every watch of this server, in events. */
  readonly backlogLimitEvents: number;
  /** How long a watch past a backlog limit waits for its client before it is ended, in milliseconds. */
  readonly backlogGraceMs: number;

  constructor(options: WatchHubOptions = {}) {
    this.backlogLimitBytes = options.backlogLimitBytes ?? watchBacklogLimitBytes;
    this.backlogLimitEvents = options.backlogLimitEvents ?? watchBacklogLimitEvents;
    this.backlogGraceMs = options.backlogGraceMs ?? watchBacklogGraceMs;
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
