import type { KubeObject } from '@kevents/api';
import { ApiError, ControllerRuntimeError, isExpired } from '../errors.js';
import type { ListOptions, ResourceClient, WatchHandle } from '../client/resource-client.js';
import { Indexer, objectKey } from './indexer.js';

/** Callbacks for changes seen by an {@link Informer} (client-go's `ResourceEventHandler`). */
export interface EventHandler<T> {
  /**
   * `isInInitialList` (as client-go's `OnAdd`) is true for objects of the informer's first list,
   * and for objects already cached when the handler is added: they were written before the
   * informer started, at a time it does not know. Later adds come from a watch or a relist.
   */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called on a periodic resync with `oldObj === newObj`. */
  onUpdate?(oldObj: T, newObj: T): void;
  /** `obj` is the last state the cache knew (its deletion may have been learned from a relist). */
  onDelete?(obj: T): void;
}

/** Options of an {@link Informer}. */
export interface InformerOptions<T> {
  /** Restrict to one namespace (default: all). */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Page size of lists (default 500, as client-go). */
  readonly pageSize?: number;
  /** Re-deliver every cached object to onUpdate this often (ms); 0 (default) turns it off. */
  readonly resyncPeriodMs?: number;
  /**
   * Transforms every object before it is cached (client-go's `SetTransform`): drop what the
   * controllers do not need (for example `managedFields`) to bound memory.
   */
  readonly transform?: (obj: T) => T;
  /** Called with reflector errors (for logging). */
  readonly onError?: (err: unknown) => void;
  /**
   * Called after every successful list and with every watch line (bookmarks included): the
   * server answers. With {@link InformerOptions.onError} it tells whether the source is up.
   */
  readonly onProgress?: (resourceVersion: string) => void;
}

/** Counters an informer keeps (tests and metrics read them). */
export interface InformerStats {
  /** Full lists done (the first one included). */
  lists: number;
  /** Watches started from a known resourceVersion after the previous one ended. */
  resumes: number;
  /** Deletes learned from a relist instead of a watch event. */
  relistDeletes: number;
}

/**
 * A reflector plus an indexed cache (client-go's `SharedIndexInformer`). It lists (paged), then
 * watches from the list's resourceVersion with bookmarks. When a watch ends, it resumes from the
 * last resourceVersion seen; when that is too old (410 Expired) or unknown to the server (a
 * wiped store: "too large resource version"), it relists and diffs the list against the cache,
 * so every add, update and delete that happened meanwhile reaches the handlers exactly once.
 */
export class Informer<T extends KubeObject> {
  readonly indexer = new Indexer<T>();
  readonly stats: InformerStats = { lists: 0, resumes: 0, relistDeletes: 0 };
  private readonly client: ResourceClient<T>;
  private readonly options: InformerOptions<T>;
  private readonly handlers: EventHandler<T>[] = [];
  private lastRv = '';
  private synced = false;
  private stopped = true;
  private loop: Promise<void> | undefined;
  private handle: WatchHandle | undefined;
  private wake: (() => void) | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private readonly syncWaiters: (() => void)[] = [];

  constructor(client: ResourceClient<T>, options: InformerOptions<T> = {}) {
    this.client = client;
    this.options = options;
  }

  /** What this informer watches, for logs (`events.events.k8s.io in all namespaces`). */
  describe(): string {
    const { group, resource } = this.client.ref;
    return `${resource}${group ? `.${group}` : ''} in ${this.options.namespace ? `namespace ${this.options.namespace}` : 'all namespaces'}`;
  }

  /** Registers handlers; objects already cached are delivered to `onAdd` at once. */
  addEventHandler(h: EventHandler<T>): void {
    this.handlers.push(h);
    if (h.onAdd) for (const o of this.indexer.list()) h.onAdd(o, true);
  }

  /** True once the first list has been delivered. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves when the first list has been delivered. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((r) => this.syncWaiters.push(r));
  }

  /** The last resourceVersion the informer has seen (list, event or bookmark). */
  get lastSyncResourceVersion(): string {
    return this.lastRv;
  }

  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run();
    if (this.options.resyncPeriodMs) {
      this.resyncTimer = setInterval(() => {
        for (const o of this.indexer.list()) for (const h of this.handlers) h.onUpdate?.(o, o);
      }, this.options.resyncPeriodMs);
      this.resyncTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.resyncTimer);
    this.handle?.stop();
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    let needList = true;
    // The backoff grows with each failure and is cleared only by a watch that lasted (as client-go's
    // backoff manager, which a healthy stretch resets): a failure between quick successes (a watch
    // that delivers a line and ends) must not start again from nothing each time.
    let backoffMs = 0;
    while (!this.stopped) {
      let waitMs = 0;
      try {
        if (needList) {
          await this.relist();
          needList = false;
        } else {
          this.stats.resumes++;
        }
        const started = Date.now();
        const outcome = await this.watchOnce();
        // client-go's reflector lists again only after its backoff (800 ms to 30 s): a server that
        // answers every watch with 410 must not get a full list back at once, forever.
        if (outcome === 'relist') {
          needList = true;
          waitMs = backoffMs = nextBackoff(backoffMs);
        } else if (Date.now() - started >= shortWatchMs) backoffMs = 0;
      } catch (err) {
        if (this.stopped) break;
        this.options.onError?.(err);
        if (isExpired(err) || isTooLargeResourceVersion(err) || refusedWatch(err)) needList = true;
        waitMs = backoffMs = nextBackoff(backoffMs);
      }
      if (waitMs > 0 && !this.stopped) await this.sleep(waitMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }

  /**
   * Lists every page, then replaces the cache, delivering the difference to the handlers. A paged
   * list whose server answers a continue token it already gave, or an object it already listed,
   * would never end (or hold duplicates): it fails with `InvalidAnswer` before the next page, and
   * the informer backs off and lists again.
   */
  private async relist(): Promise<void> {
    const items: T[] = [];
    const seen = new Set<string>();
    const tokens = new Set<string>();
    let cont: string | undefined;
    let rv = '';
    let paged = true;
    for (;;) {
      if (this.stopped) throw new ControllerRuntimeError('ShutDown', `list of ${this.describe()}: informer stopped`);
      let page;
      try {
        page = await this.client.list({
          ...this.listOptions(),
          limit: paged ? (this.options.pageSize ?? 500) : undefined,
          continue: cont,
        });
      } catch (err) {
        // client-go's pager (FullListIfExpired): when the snapshot of a paged list has left the
        // server's history before the last page, list everything in one answer instead.
        if (!cont || !isExpired(err)) throw err;
        this.options.onError?.(err);
        paged = false;
        cont = undefined;
        items.length = 0;
        seen.clear();
        continue;
      }
      for (const o of page.items) {
        const t = this.options.transform ? this.options.transform(o) : o;
        const key = objectKey(t);
        if (seen.has(key)) throw this.invalidList(`listed ${key} twice`);
        seen.add(key);
        items.push(t);
      }
      rv = page.metadata.resourceVersion ?? rv;
      cont = page.metadata.continue;
      if (!cont) break;
      if (tokens.has(cont))
        throw this.invalidList('answered a continue token it gave before: the paged list would never end');
      tokens.add(cont);
    }
    this.stats.lists++;
    const initial = !this.synced;
    for (const o of items) {
      const old = this.indexer.set(o);
      if (!old) for (const h of this.handlers) h.onAdd?.(o, initial);
      else if (old.metadata.resourceVersion !== o.metadata.resourceVersion || old.metadata.uid !== o.metadata.uid)
        for (const h of this.handlers) h.onUpdate?.(old, o);
    }
    for (const key of [...this.indexer.keys()]) {
      if (seen.has(key)) continue;
      const old = this.indexer.delete(key)!;
      this.stats.relistDeletes++;
      for (const h of this.handlers) h.onDelete?.(old);
    }
    this.lastRv = rv;
    this.options.onProgress?.(rv);
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private invalidList(what: string): ControllerRuntimeError {
    return new ControllerRuntimeError('InvalidAnswer', `list of ${this.describe()}: the server ${what}`);
  }

  private listOptions(): ListOptions {
    return {
      namespace: this.options.namespace,
      labelSelector: this.options.labelSelector,
      fieldSelector: this.options.fieldSelector,
    };
  }

  /** One watch from `lastRv`; resolves 'relist' when the server says the version is gone. */
  private watchOnce(): Promise<'relist' | 'resume'> {
    return new Promise((resolve, reject) => {
      let outcome: 'relist' | 'resume' = 'resume';
      const start = Date.now();
      let events = 0;
      // client-go: a random timeout in [5m, 10m) so that watches do not all end together.
      const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
      this.client
        .watch(
          { ...this.listOptions(), resourceVersion: this.lastRv, allowWatchBookmarks: true, timeoutSeconds },
          (ev) => {
            events++;
            if (ev.type === 'ERROR') {
              const code = (ev.object as unknown as { code?: number }).code;
              const err = new ApiError(code ?? 500, ev.object as never, 'watch error');
              this.options.onError?.(err);
              // client-go's reflector lists again after any ERROR event but a 429 (410 and 504 included).
              if (code !== 429) outcome = 'relist';
              return;
            }
            const obj = ev.object;
            const rv = obj.metadata?.resourceVersion;
            if (rv) this.lastRv = rv;
            this.options.onProgress?.(this.lastRv);
            if (ev.type === 'BOOKMARK') return;
            const o = this.options.transform ? this.options.transform(obj) : obj;
            if (ev.type === 'DELETED') {
              const old = this.indexer.delete(objectKey(o));
              for (const h of this.handlers) h.onDelete?.(old ?? o);
            } else {
              const old = this.indexer.set(o);
              if (old) for (const h of this.handlers) h.onUpdate?.(old, o);
              else for (const h of this.handlers) h.onAdd?.(o, false);
            }
          },
          (err) => {
            this.handle = undefined;
            if (err) reject(err);
            else if (events === 0 && !this.stopped && Date.now() - start < shortWatchMs)
              reject(new ControllerRuntimeError('Transport', shortWatchMessage(this.describe())));
            else resolve(outcome);
          },
        )
        .then(
          (h) => {
            this.handle = h;
            if (this.stopped) h.stop();
          },
          (err: unknown) =>
            reject(
              err instanceof ControllerRuntimeError
                ? err
                : new ControllerRuntimeError('Transport', String(err), { cause: err }),
            ),
        );
    });
  }
}

/**
 * A watch that ends sooner than this without a line is an error, as client-go's reflector says
 * ("very short watch"), so the informer backs off: a server answering every watch with an empty
 * 200 was watched ~400 times a second, a full core, and one answering every watch with a 410 was
 * listed and watched ~230 times a second.
 */
const shortWatchMs = 1_000;

const shortWatchMessage = (what: string): string =>
  `very short watch: ${what}: Unexpected watch close - watch lasted less than a second and no items received`;

/**
 * A watch the server refused with an HTTP error other than 429 (a 400 for a resourceVersion it
 * cannot read, a 403, a 500): lists again, as client-go's reflector does (only connection errors and
 * 429 retry the watch). Before, the informer watched from the same resourceVersion forever: a
 * bookmark carrying one the server then refuses stopped the source for good.
 */
function refusedWatch(err: unknown): boolean {
  return err instanceof ApiError && err.httpStatus !== 429;
}

/** The informer's next wait after a failure: 100 ms, doubling, at most 5 s. */
const nextBackoff = (ms: number): number => Math.min(Math.max(ms * 2, 100), 5_000);

/** A 504 "Too large resource version" (the server's store is behind or was wiped): relist. */
function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.httpStatus !== 504) return false;
  // An answer without a readable Status keeps only the HTTP code: a 504 on a watch means this.
  if (!err.status) return true;
  const causes = err.status.details?.causes ?? [];
  return causes.some((c) => c.reason === 'ResourceVersionTooLarge') || /too large resource version/i.test(err.message);
}
