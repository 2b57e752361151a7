import type { KubeObject } from '@kevents/api';
import type { KeyPrefix, Predicate, StorageWatchEvent, Watcher, WatchOptions } from './interface.js';
import { watchEventFor } from './watch-event.js';
import type { LoggedChange } from './watch-event.js';

/** Initial events (sendInitialEvents) go out in batches of at most this many. */
const initialBatch = 256;

/**
 * Where a {@link CursorWatcher} reads changes: a store's change log, seen through a cursor.
 */
export interface ChangeSource {
  /**
   * The changes right after `cursor` that are available now, in order and contiguous from
   * `cursor + 1` (empty when the watcher is caught up). Throws a StorageError (Expired,
   * Unavailable) to end the watch.
   */
  read(cursor: number): readonly LoggedChange[] | Promise<readonly LoggedChange[]>;
  /** Calls `wake` once, after the next write. */
  onNext(wake: () => void): void;
  /** Withdraws a `wake` registered with {@link onNext}. */
  cancel(wake: () => void): void;
}

/** Where a cursor watch starts and what it sends. */
export interface CursorWatchStart<T extends KubeObject> {
  readonly prefix: KeyPrefix;
  /** Changes strictly after this resourceVersion are delivered. */
  readonly from: number;
  /** Synthetic ADDED events first: the state at `from`. */
  readonly initial: Iterable<T>;
  readonly initialEventsEndBookmark: boolean;
  readonly bookmarkIntervalMs: number | undefined;
  readonly predicate: Predicate<T> | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onStop: () => void;
}

/**
 * A watch that reads a store's change log through a cursor: it holds no queue of its own, so a
 * slow consumer costs no memory. One that falls behind the retained history ends with Expired
 * (`too old resource version: <cursor> (<compacted>)`) and must relist, as a Kubernetes watch
 * does. Both stores build their watches on it; they differ only in their {@link ChangeSource}.
 */
export class CursorWatcher<T extends KubeObject> implements Watcher<T> {
  readonly #source: ChangeSource;
  readonly #start: CursorWatchStart<T>;
  #cursor: number;
  #stopped = false;
  #bookmarkDue = false;
  #wake: (() => void) | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  #batches: AsyncGenerator<readonly StorageWatchEvent<T>[]> | undefined;
  readonly #abort = (): void => this.stop();

  constructor(source: ChangeSource, start: CursorWatchStart<T>) {
    this.#source = source;
    this.#start = start;
    this.#cursor = start.from;
    if (start.bookmarkIntervalMs !== undefined) {
      this.#timer = setInterval(() => {
        this.#bookmarkDue = true;
        this.#poke();
      }, start.bookmarkIntervalMs);
      this.#timer.unref();
    }
    if (start.signal?.aborted) this.stop();
    else start.signal?.addEventListener('abort', this.#abort, { once: true });
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#start.signal?.removeEventListener('abort', this.#abort);
    this.#poke();
    this.#start.onStop();
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent<T>> {
    return this.#events();
  }

  batches(): AsyncIterable<readonly StorageWatchEvent<T>[]> {
    this.#batches ??= this.#run();
    return this.#batches;
  }

  /** Resumes a waiting iteration. */
  #poke(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    this.#source.cancel(wake);
    wake();
  }

  async *#events(): AsyncGenerator<StorageWatchEvent<T>> {
    for await (const batch of this.batches()) {
      for (const event of batch) {
        if (this.#stopped) return;
        yield event;
      }
    }
  }

  async *#run(): AsyncGenerator<readonly StorageWatchEvent<T>[]> {
    try {
      const { prefix, predicate } = this.#start;
      let initial: StorageWatchEvent<T>[] = [];
      for (const object of this.#start.initial) {
        if (this.#stopped) return;
        if (predicate === undefined || predicate(object)) initial.push({ type: 'ADDED', object, resourceVersion: object.metadata.resourceVersion! });
        if (initial.length === initialBatch) {
          yield initial;
          initial = [];
        }
      }
      if (this.#start.initialEventsEndBookmark) initial.push({ type: 'BOOKMARK', resourceVersion: String(this.#cursor), initialEventsEnd: true });
      if (initial.length > 0 && !this.#stopped) yield initial;
      for (;;) {
        if (this.#stopped) return;
        const changes = await this.#source.read(this.#cursor);
        if (changes.length > 0) {
          const batch: StorageWatchEvent<T>[] = [];
          for (const c of changes) {
            this.#cursor = c.rv;
            const event = watchEventFor<T>(c, prefix, predicate);
            if (event !== undefined) batch.push(event);
          }
          if (batch.length > 0 && !this.#stopped) yield batch;
        } else if (this.#bookmarkDue) {
          this.#bookmarkDue = false;
          yield [{ type: 'BOOKMARK', resourceVersion: String(this.#cursor) }];
        } else if (!this.#stopped) {
          await new Promise<void>((resolve) => {
            this.#wake = resolve;
            this.#source.onNext(resolve);
          });
          this.#wake = undefined;
        }
      }
    } finally {
      this.stop();
    }
  }
}

/**
 * Opens a {@link CursorWatcher} for a store's `watch`: applies the caller's options and keeps the
 * watcher in `live` (the store's set of open watches, which `close()` stops) until it stops.
 */
export function openCursorWatch<T extends KubeObject>(
  source: ChangeSource,
  live: Set<Watcher>,
  at: { prefix: KeyPrefix; from: number; initial: Iterable<T>; bookmarkIntervalMs: number },
  options: WatchOptions<T>,
): CursorWatcher<T> {
  let watcher: CursorWatcher<T> | undefined = undefined;
  watcher = new CursorWatcher<T>(source, {
    prefix: at.prefix,
    from: at.from,
    initial: at.initial,
    initialEventsEndBookmark: options.initialEventsEndBookmark === true,
    bookmarkIntervalMs: options.allowBookmarks === true ? at.bookmarkIntervalMs : undefined,
    predicate: options.predicate,
    signal: options.signal,
    onStop: () => watcher !== undefined && live.delete(watcher),
  });
  if (options.signal?.aborted !== true) live.add(watcher);
  return watcher;
}
