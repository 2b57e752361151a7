import type { KubeObject } from '@kevents/api';
import { tooOldResourceVersionError } from '../errors.js';
import type { KeyPrefix, Predicate, StorageWatchEvent, Watcher } from '../interface.js';
import { fromBody } from '../body.js';
import { watchEventFor } from '../watch-event.js';
import type { Change, ChangeLog } from './change-log.js';

/** Where a memory watch starts and what it sends. */
export interface MemoryWatchStart<T extends KubeObject> {
  readonly prefix: KeyPrefix;
  /** Changes strictly after this resourceVersion are delivered. */
  readonly from: number;
  /** Synthetic ADDED events first: bodies and resourceVersions of the state at `from`. */
  readonly initial: readonly { body: string; rv: number }[];
  readonly initialEventsEndBookmark: boolean;
  readonly bookmarkIntervalMs: number | undefined;
  readonly predicate: Predicate<T> | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onStop: () => void;
}

/**
 * A watch that reads the shared change log through a cursor: it holds no queue of its own, so a
 * slow consumer costs no memory. One that falls behind the retained history ends with Expired
 * (`too old resource version: <cursor> (<compacted>)`) and must relist, as a Kubernetes watch does.
 */
export class MemoryWatcher<T extends KubeObject> implements Watcher<T> {
  private readonly log: ChangeLog;
  private readonly start: MemoryWatchStart<T>;
  private cursor: number;
  private stopped = false;
  private bookmarkDue = false;
  private wake: (() => void) | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private iterator: AsyncGenerator<StorageWatchEvent<T>> | undefined;
  private readonly abort = (): void => this.stop();

  constructor(log: ChangeLog, start: MemoryWatchStart<T>) {
    this.log = log;
    this.start = start;
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

  /** Resumes a waiting iteration. */
  private poke(): void {
    const wake = this.wake;
    if (wake === undefined) return;
    this.wake = undefined;
    this.log.cancel(wake);
    wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent<T>> {
    this.iterator ??= this.run();
    return this.iterator;
  }

  private async *run(): AsyncGenerator<StorageWatchEvent<T>> {
    try {
      const { initial, predicate } = this.start;
      for (const { body, rv } of initial) {
        if (this.stopped) return;
        const object = fromBody<T>(body, rv);
        if (predicate === undefined || predicate(object)) yield { type: 'ADDED', object, resourceVersion: String(rv) };
      }
      if (this.start.initialEventsEndBookmark && !this.stopped) {
        yield { type: 'BOOKMARK', resourceVersion: String(this.cursor), initialEventsEnd: true };
      }
      for (;;) {
        if (this.stopped) return;
        const log = this.log;
        if (this.cursor < log.compacted) throw tooOldResourceVersionError(String(this.cursor), String(log.compacted));
        const change = this.cursor < log.rv ? log.at(this.cursor + 1) : undefined;
        if (change !== undefined) {
          this.cursor = change.rv;
          const event = this.convert(change);
          if (event !== undefined) yield event;
        } else if (this.bookmarkDue) {
          this.bookmarkDue = false;
          yield { type: 'BOOKMARK', resourceVersion: String(this.cursor) };
        } else {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
            log.onNext(resolve);
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
