import type { KubeObject } from '@kevents/api';
import { tooOldResourceVersionError, unavailableError, watchEventFor, type KeyPrefix, type Predicate, type StorageWatchEvent, type Watcher } from '@kevents/storage';
import type { ChangeFeed } from './change-feed.js';
import type { Change } from './codec.js';

/** Reads changes after `rv` straight from the Stream (for a watch behind the feed's window). */
export type HistoryReader = (after: number, count: number) => Promise<{ changes: Change[]; compacted: number }>;

/** Where a Redis watch starts and what it sends. */
export interface RedisWatchStart<T extends KubeObject> {
  readonly prefix: KeyPrefix;
  readonly from: number;
  readonly initial: readonly T[];
  readonly initialEventsEndBookmark: boolean;
  readonly bookmarkIntervalMs: number | undefined;
  readonly predicate: Predicate<T> | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onStop: () => void;
}

/**
 * A watch over the process's change feed through a cursor (no queue of its own). Behind the
 * feed's window it reads the Stream itself; past the retained history it ends with Expired,
 * and when the feed lost its connection it ends with Unavailable, so the client relists.
 */
export class RedisWatcher<T extends KubeObject> implements Watcher<T> {
  private readonly feed: ChangeFeed;
  private readonly history: HistoryReader;
  private readonly start: RedisWatchStart<T>;
  private readonly epoch: number;
  private cursor: number;
  private stopped = false;
  private bookmarkDue = false;
  private wake: (() => void) | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private iterator: AsyncGenerator<StorageWatchEvent<T>> | undefined;
  private readonly abort = (): void => this.stop();

  constructor(feed: ChangeFeed, history: HistoryReader, start: RedisWatchStart<T>) {
    this.feed = feed;
    this.history = history;
    this.start = start;
    this.epoch = feed.epoch;
    this.cursor = start.from;
    if (start.bookmarkIntervalMs !== undefined) {
      this.timer = setInterval(() => {
        this.bookmarkDue = true;
        this.poke();
      }, start.bookmarkIntervalMs);
      this.timer.unref();
    }
    if (start.signal?.aborted) this.stop();
    else start.signal?.addEventListener('abort', this.abort, { once: true });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.start.signal?.removeEventListener('abort', this.abort);
    this.poke();
    this.start.onStop();
  }

  private poke(): void {
    const wake = this.wake;
    if (wake === undefined) return;
    this.wake = undefined;
    this.feed.cancel(wake);
    wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent<T>> {
    this.iterator ??= this.run();
    return this.iterator;
  }

  private async *run(): AsyncGenerator<StorageWatchEvent<T>> {
    try {
      const { initial, predicate } = this.start;
      for (const object of initial) {
        if (this.stopped) return;
        if (predicate === undefined || predicate(object)) yield { type: 'ADDED', object, resourceVersion: object.metadata.resourceVersion! };
      }
      if (this.start.initialEventsEndBookmark && !this.stopped) {
        yield { type: 'BOOKMARK', resourceVersion: String(this.cursor), initialEventsEnd: true };
      }
      const feed = this.feed;
      for (;;) {
        if (this.stopped) return;
        if (feed.epoch !== this.epoch) throw unavailableError('watch ended: the connection to Redis was lost; relist');
        if (this.cursor < feed.base) {
          const { changes, compacted } = await this.history(this.cursor, 500);
          if (this.stopped) return;
          if (changes.length === 0 || changes[0].rv !== this.cursor + 1) {
            throw tooOldResourceVersionError(String(this.cursor), String(compacted));
          }
          for (const c of changes) {
            if (this.stopped) return;
            if (c.rv !== this.cursor + 1) break;
            this.cursor = c.rv;
            const event = this.convert(c);
            if (event !== undefined) yield event;
          }
        } else if (this.cursor < feed.head) {
          const event = this.convert(feed.at(++this.cursor)!);
          if (event !== undefined) yield event;
        } else if (this.bookmarkDue) {
          this.bookmarkDue = false;
          yield { type: 'BOOKMARK', resourceVersion: String(this.cursor) };
        } else {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
            feed.onNext(resolve);
          });
          this.wake = undefined;
        }
      }
    } finally {
      this.stop();
    }
  }

  /** The event a change means for this watch, with Kubernetes predicate transitions. */
  private convert(c: Change): StorageWatchEvent<T> | undefined {
    return watchEventFor<T>(c, this.start.prefix, this.start.predicate);
  }

}
