import {
  ChangeWindow,
  contiguousAfter,
  tooOldResourceVersionError,
  windowChangeSource,
  type ChangeSource,
} from '@kevents/storage';
import type { SqlBackend, SqlChange } from './backend.js';

/**
 * The change log as one process reads it: a {@link ChangeWindow} of recent changes that every
 * watch of the process reads through its own cursor. The feed reads the log after each of this process's write batches, on every NOTIFY
 * from another replica (PostgreSQL), and every `pollMs` in case a notification was lost. As
 * resourceVersions are taken under one lock and committed in order, reading `rv > head` never
 * skips a change. Watches behind the window read the log themselves (and learn there that
 * their changes were compacted).
 */
export class ChangeFeed extends ChangeWindow<SqlChange> {
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /** The last error of a read (cleared by a good one). */
  failure: unknown;

  private readonly backend: SqlBackend;
  private readonly pollMs: number;

  constructor(backend: SqlBackend, limit: number, wakeIntervalMs: number, pollMs: number) {
    super(limit, wakeIntervalMs);
    this.backend = backend;
    this.pollMs = pollMs;
  }

  /** Starts at the current resourceVersion. */
  async start(): Promise<void> {
    const { rv } = await this.backend.bounds();
    this.reset(rv);
    if (this.pollMs > 0) {
      this.timer = setInterval(() => this.poke(), this.pollMs);
      this.timer.unref();
    }
  }

  /** Reads what is new in the log (now, or once the read under way ends). */
  poke(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.reading !== undefined) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readAll().finally(() => {
      this.reading = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        void this.poke();
      }
    });
    return this.reading;
  }

  private async readAll(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.backend.changes(this.head, 1024);
        for (const c of batch) this.append(c);
        if (batch.length > 0) this.waiters.notify();
        if (batch.length < 1024 || this.closed) break;
      }
      this.failure = undefined;
    } catch (err) {
      this.failure = err;
    }
  }

  /**
   * Takes the changes of this process's write batch, contiguous and in order, without reading
   * the log, when they come right after the window's head (or were read already); returns false
   * (read the log instead) when another write came between.
   */
  appendOwn(changes: readonly SqlChange[]): boolean {
    if (this.closed || changes.length === 0 || changes[0]!.rv > this.head + 1) return false;
    const head = this.head;
    for (const c of changes) this.append(c);
    if (this.head > head) this.waiters.notify();
    return true;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.waiters.wakeNow();
  }
}

/**
 * The feed as a {@link ChangeSource} for one watch: the window while the watch is in it, the
 * log itself (500 changes at a time) when it is behind, and Expired once its changes were
 * compacted.
 */
export function sqlChangeSource(feed: ChangeFeed, backend: SqlBackend, maxBatch = 1024): ChangeSource {
  return windowChangeSource(feed, fromLog, maxBatch);

  async function fromLog(cursor: number): Promise<SqlChange[]> {
    const changes = await backend.changes(cursor, 500);
    if (changes.length === 0 || changes[0]!.rv !== cursor + 1) {
      const { compacted } = await backend.bounds();
      if (changes.length === 0 && cursor >= compacted) return [];
      throw tooOldResourceVersionError(String(cursor), String(compacted));
    }
    return contiguousAfter(cursor, changes);
  }
}
