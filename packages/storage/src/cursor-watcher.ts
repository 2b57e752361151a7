import type { KubeObject } from '@kevents/api';
import type { KeyPrefix, Predicate, StorageWatchEvent, Watcher, WatchOptions, WatchSink } from './interface.js';
import { initialTurns } from './initial-turns.js';
import type { InitialTurns } from './initial-turns.js';
import type { InitialPages } from './initial-pages.js';
import { pullBatches } from './pull-batches.js';
import { watchEventFor } from './watch-event.js';
import type { LoggedChange } from './watch-event.js';

/** Initial events (sendInitialEvents), and older changes a watch catches up with, go out in batches of at most this many. */
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

/** A batch made for one prefix and predicate (see {@link sharedBatch}). */
interface MadeBatch {
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly predicate: Predicate<never> | undefined;
  readonly batch: readonly StorageWatchEvent[];
}

/** How many batches (prefixes and predicates) are kept for the changes read last. */
const keptBatches = 8;
/** The changes read last and the batches made of them. */
let lastChanges: readonly LoggedChange[] = [];
let made: MadeBatch[] = [];
let nextSlot = 0;

/**
 * The events `changes` mean for a watch of `prefix` through `predicate`. The watches woken
 * together read the same changes (a source gives the same array to the same cursor), so the
 * batches made of the last changes are kept (a few, for the prefixes and predicates seen) and
 * given again, frozen, to the next watch that reads the same array with the same prefix and
 * predicate: a fan-out builds a batch once, and the HTTP layer can encode and frame it once.
 */
function sharedBatch<T extends KubeObject>(
  changes: readonly LoggedChange[],
  prefix: KeyPrefix,
  predicate: Predicate<T> | undefined,
): readonly StorageWatchEvent<T>[] {
  if (changes !== lastChanges) {
    lastChanges = changes;
    made = [];
    nextSlot = 0;
  }
  for (const m of made)
    if (m.resource === prefix.resource && m.namespace === prefix.namespace && m.predicate === predicate)
      return m.batch as readonly StorageWatchEvent<T>[];
  const batch: StorageWatchEvent<T>[] = [];
  for (const c of changes) {
    const event = watchEventFor<T>(c, prefix, predicate);
    if (event !== undefined) batch.push(event);
  }
  Object.freeze(batch);
  const m: MadeBatch = {
    resource: prefix.resource,
    namespace: prefix.namespace,
    predicate: predicate as Predicate<never> | undefined,
    batch,
  };
  if (made.length < keptBatches) made.push(m);
  else {
    made[nextSlot] = m;
    nextSlot = (nextSlot + 1) % keptBatches;
  }
  return batch;
}

const isPages = <T extends KubeObject>(initial: Iterable<T> | InitialPages<T>): initial is InitialPages<T> =>
  typeof (initial as Partial<Iterable<T>>)[Symbol.iterator] !== 'function';

/** Where a cursor watch starts and what it sends. */
export interface CursorWatchStart<T extends KubeObject> {
  readonly prefix: KeyPrefix;
  /** Changes strictly after this resourceVersion are delivered. */
  readonly from: number;
  /**
   * Synthetic ADDED events first: the state at `from`, as objects decoded one at a time (an empty
   * array: none) or as pages read from the store.
   */
  readonly initial: Iterable<T> | InitialPages<T>;
  readonly initialEventsEndBookmark: boolean;
  readonly bookmarkIntervalMs: number | undefined;
  readonly predicate: Predicate<T> | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onStop: () => void;
  /** Where each batch of initial events takes its turn ({@link initialTurns} unless a test gives its own). */
  readonly turns: InitialTurns;
}

/**
 * A watch that reads a store's change log through a cursor: it holds no queue of its own, so a
 * slow consumer costs no memory. One that falls behind the retained history ends with Expired
 * (`too old resource version: <cursor> (<compacted>)`) and must relist, as a Kubernetes watch
 * does. Both stores build their watches on it; they differ only in their {@link ChangeSource}.
 *
 * Delivery is pushed: when the source wakes the watcher it reads everything after its cursor
 * and hands it to the consumer's sink in the same turn, with no promise per event or per batch
 * unless a read goes to the store's history or the sink asks to wait.
 */
export class CursorWatcher<T extends KubeObject> implements Watcher<T> {
  readonly #source: ChangeSource;
  readonly #start: CursorWatchStart<T>;
  #cursor: number;
  #stopped = false;
  #bookmarkDue = false;
  /** Initial events still to send: objects decoded one at a time, or pages read from the store. */
  #initial: { readonly objects: Iterator<T> } | { readonly pages: InitialPages<T> } | undefined;
  #endBookmark: boolean;
  #sink: WatchSink<T> | undefined;
  #settle: { resolve: () => void; reject: (err: unknown) => void } | undefined;
  /** Inside a delivery, or waiting for an asynchronous read or for the sink. */
  #busy = false;
  #waiting = false;
  /**
   * Whether the next read of changes is the first after a wake-up from the source: those are the
   * changes the watches woken together share, read in the turn that woke them. Any other read (a
   * watch that starts behind, or one still behind after a batch) is catching up, and takes a turn
   * from {@link CursorWatchStart.turns} first, as initial events do.
   */
  #woken = false;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #abort = (): void => this.stop();

  constructor(source: ChangeSource, start: CursorWatchStart<T>) {
    this.#source = source;
    this.#start = start;
    this.#cursor = start.from;
    const { initial } = start;
    if (isPages(initial)) this.#initial = { pages: initial };
    else if (!(Array.isArray(initial) && initial.length === 0)) this.#initial = { objects: initial[Symbol.iterator]() };
    this.#endBookmark = start.initialEventsEndBookmark;
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
    if (this.#waiting) {
      this.#waiting = false;
      this.#source.cancel(this.#wake);
    }
    this.#start.onStop();
    if (!this.#busy) this.#settleWith(undefined);
  }

  consume(sink: WatchSink<T>): Promise<void> {
    if (this.#sink !== undefined) return Promise.reject(new Error('a watcher is consumed once'));
    this.#sink = sink;
    return new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
      if (this.#stopped) this.#settleWith(undefined);
      else this.#deliver();
    });
  }

  batches(): AsyncIterable<readonly StorageWatchEvent<T>[]> {
    return pullBatches<T>(this, (sink) => this.consume(sink));
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent<T>> {
    return this.#events();
  }

  async *#events(): AsyncGenerator<StorageWatchEvent<T>> {
    for await (const batch of this.batches()) {
      for (const event of batch) {
        if (this.#stopped) return;
        yield event;
      }
    }
  }

  readonly #wake = (): void => {
    this.#waiting = false;
    this.#woken = true;
    this.#deliver();
  };

  /** Resumes a watcher waiting for the next change (a due bookmark). */
  #poke(): void {
    if (!this.#waiting) return;
    this.#waiting = false;
    this.#source.cancel(this.#wake);
    this.#woken = true;
    this.#deliver();
  }

  /** Hands the sink every batch available now; then waits for the source, a read or the sink. */
  #deliver(): void {
    if (this.#busy || this.#sink === undefined) return;
    this.#busy = true;
    for (;;) {
      if (this.#stopped) return this.#idle();
      let next: readonly StorageWatchEvent<T>[] | Promise<readonly StorageWatchEvent<T>[] | null> | null;
      try {
        next = this.#next();
      } catch (err) {
        return this.#fail(err);
      }
      if (next === null) return this.#awaitSource();
      if (next instanceof Promise) {
        next.then(
          (batch) => this.#hand(batch),
          (err: unknown) => this.#fail(err),
        );
        return;
      }
      if (!this.#give(next)) return;
    }
  }

  /** Gives the result of an asynchronous read to the sink, then delivers on (or waits, when it was empty). */
  #hand(batch: readonly StorageWatchEvent<T>[] | null): void {
    if (this.#stopped) return this.#idle();
    if (batch === null) return this.#awaitSource();
    if (!this.#give(batch)) return;
    this.#idle();
    this.#deliver();
  }

  /** Calls the sink; true when it took the batch at once, false when it asked to wait (or failed). */
  #give(batch: readonly StorageWatchEvent<T>[]): boolean {
    if (batch.length === 0) return true;
    let wait: void | Promise<void>;
    try {
      wait = this.#sink!(batch);
    } catch (err) {
      this.#fail(err);
      return false;
    }
    if (!(wait instanceof Promise)) return true;
    wait.then(
      () => {
        this.#idle();
        this.#deliver();
      },
      (err: unknown) => this.#fail(err),
    );
    return false;
  }

  /** Caught up: waits for the source's next wake-up. */
  #awaitSource(): void {
    this.#idle();
    this.#waiting = true;
    this.#source.onNext(this.#wake);
  }

  /** The next batch: initial events, the initial-events-end bookmark, changes, a due bookmark; null when caught up. */
  #next(): readonly StorageWatchEvent<T>[] | Promise<readonly StorageWatchEvent<T>[] | null> | null {
    if (this.#initial !== undefined) return this.#start.turns.take().then(() => this.#initialBatch());
    return this.#afterInitial();
  }

  /**
   * Up to {@link initialBatch} initial events, from reading at most that many objects (a
   * predicate that matches few makes a short or empty batch, and the rest waits for a later turn).
   */
  #initialBatch(): readonly StorageWatchEvent<T>[] | Promise<readonly StorageWatchEvent<T>[] | null> | null {
    const initial = this.#initial;
    if (initial === undefined || this.#stopped) return [];
    if ('pages' in initial) return initial.pages.next().then((page) => this.#initialPage(page));
    const { objects } = initial;
    const { predicate } = this.#start;
    const batch: StorageWatchEvent<T>[] = [];
    for (let read = 0; read < initialBatch; read++) {
      const r = objects.next();
      if (r.done === true) {
        this.#initial = undefined;
        return batch.length > 0 ? batch : this.#afterInitial();
      }
      const object = r.value;
      if (predicate === undefined || predicate(object))
        batch.push({ type: 'ADDED', object, resourceVersion: object.metadata.resourceVersion! });
    }
    return batch;
  }

  /** A page of initial events read from the store (undefined after the last). */
  #initialPage(
    page: readonly T[] | undefined,
  ): readonly StorageWatchEvent<T>[] | Promise<readonly StorageWatchEvent<T>[] | null> | null {
    if (page === undefined) {
      this.#initial = undefined;
      return this.#afterInitial();
    }
    const { predicate } = this.#start;
    const batch: StorageWatchEvent<T>[] = [];
    for (const object of page)
      if (predicate === undefined || predicate(object))
        batch.push({ type: 'ADDED', object, resourceVersion: object.metadata.resourceVersion! });
    return batch;
  }

  #afterInitial(): readonly StorageWatchEvent<T>[] | Promise<readonly StorageWatchEvent<T>[] | null> | null {
    if (this.#endBookmark) {
      this.#endBookmark = false;
      return [{ type: 'BOOKMARK', resourceVersion: String(this.#cursor), initialEventsEnd: true }];
    }
    const woken = this.#woken;
    this.#woken = false;
    const changes = this.#source.read(this.#cursor);
    if (changes instanceof Promise) return changes.then((cs) => (cs.length > 0 ? this.#toBatch(cs) : null));
    if (changes.length > 0) {
      if (woken) return this.#toBatch(changes);
      // Catching up: one batch per turn granted, however far behind the watch starts (a watch of
      // 50,000 retained changes read them all in one turn, 1.4 s, and longer through a predicate).
      // At most {@link initialBatch} changes per turn, as for initial events.
      const some = changes.length > initialBatch ? changes.slice(0, initialBatch) : changes;
      return this.#start.turns.take().then(() => (this.#stopped ? [] : this.#toBatch(some)));
    }
    if (this.#bookmarkDue) {
      this.#bookmarkDue = false;
      return [{ type: 'BOOKMARK', resourceVersion: String(this.#cursor) }];
    }
    return null;
  }

  #toBatch(changes: readonly LoggedChange[]): readonly StorageWatchEvent<T>[] {
    const { prefix, predicate } = this.#start;
    const batch = sharedBatch(changes, prefix, predicate);
    this.#cursor = changes[changes.length - 1]!.rv;
    return batch;
  }

  #idle(): void {
    this.#busy = false;
    if (this.#stopped) this.#settleWith(undefined);
  }

  #fail(err: unknown): void {
    this.#busy = false;
    this.#settleWith(err);
    this.stop();
  }

  #settleWith(err: unknown): void {
    const settle = this.#settle;
    if (settle === undefined) return;
    this.#settle = undefined;
    if (err === undefined) settle.resolve();
    else settle.reject(err);
  }
}

/**
 * Opens a {@link CursorWatcher} for a store's `watch`: applies the caller's options and keeps the
 * watcher in `live` (the store's set of open watches, which `close()` stops) until it stops.
 */
export function openCursorWatch<T extends KubeObject>(
  source: ChangeSource,
  live: Set<Watcher>,
  at: { prefix: KeyPrefix; from: number; initial: Iterable<T> | InitialPages<T>; bookmarkIntervalMs: number },
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
    turns: initialTurns,
  });
  if (options.signal?.aborted !== true) live.add(watcher);
  return watcher;
}
