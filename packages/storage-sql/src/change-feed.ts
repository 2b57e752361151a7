import { tooOldResourceVersionError, WakeList, type ChangeSource } from '@kevents/storage';
import type { SqlBackend, SqlChange } from './backend.js';

const none: readonly SqlChange[] = Object.freeze([]);

/**
 * The change log as one process reads it: a window of recent changes (`(base, head]`,
 * contiguous, at most `limit` long) that every watch of the process reads through its own
 * cursor. The feed reads the log after each of this process's write batches, on every NOTIFY
 * from another replica (PostgreSQL), and every `pollMs` in case a notification was lost. As
 * resourceVersions are taken under one lock and committed in order, reading `rv > head` never
 * skips a change. Watches behind the window read the log themselves (and learn there that
 * their changes were compacted).
 */
export class ChangeFeed {
  base = 0;
  head = 0;
  private items: (SqlChange | undefined)[] = [];
  private off = 0;
  private readonly waiters: WakeList;
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private lastSlice: { start: number; count: number; generation: number; changes: readonly SqlChange[] } = {
    start: -1,
    count: -1,
    generation: -1,
    changes: [],
  };
  private generation = 0;
  /** The last error of a read (cleared by a good one). */
  failure: unknown;

  private readonly backend: SqlBackend;
  private readonly limit: number;
  private readonly pollMs: number;

  constructor(backend: SqlBackend, limit: number, wakeIntervalMs: number, pollMs: number) {
    this.backend = backend;
    this.limit = limit;
    this.pollMs = pollMs;
    this.waiters = new WakeList(wakeIntervalMs);
  }

  /** Starts at the current resourceVersion. */
  async start(): Promise<void> {
    const { rv } = await this.backend.bounds();
    this.base = this.head = rv;
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

  /** The changes in `(after, head]` that are in the window, at most `max` (the same frozen array for the same request). */
  slice(after: number, max: number): readonly SqlChange[] {
    const start = Math.max(after, this.base);
    const count = Math.min(max, this.head - start);
    if (count <= 0) return none;
    const last = this.lastSlice;
    if (last.start === start && last.count === count && last.generation === this.generation) return last.changes;
    const from = this.off + start - this.base;
    const changes = Object.freeze(this.items.slice(from, from + count) as SqlChange[]);
    this.lastSlice = { start, count, generation: this.generation, changes };
    return changes;
  }

  onNext(fn: () => void): void {
    this.waiters.add(fn);
  }

  cancel(fn: () => void): void {
    this.waiters.delete(fn);
  }

  /** Drops changes at or below `rv` from the window. */
  compactTo(rv: number): void {
    while (this.base < Math.min(rv, this.head)) this.shift();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.waiters.wakeNow();
  }

  private append(c: SqlChange): void {
    if (c.rv <= this.head) return;
    if (c.rv !== this.head + 1) {
      // The log was compacted past the window: start over after the gap.
      this.generation++;
      this.items = [];
      this.off = 0;
      this.base = c.rv - 1;
    }
    this.items.push(c);
    this.head = c.rv;
    while (this.head - this.base > this.limit) this.shift();
  }

  private shift(): void {
    this.items[this.off++] = undefined;
    this.base++;
    if (this.off > 1024 && this.off * 2 > this.items.length) {
      this.items = this.items.slice(this.off);
      this.off = 0;
    }
  }
}

/**
 * The feed as a {@link ChangeSource} for one watch: the window while the watch is in it, the
 * log itself (500 changes at a time) when it is behind, and Expired once its changes were
 * compacted.
 */
export function sqlChangeSource(feed: ChangeFeed, backend: SqlBackend, maxBatch = 1024): ChangeSource {
  return {
    read: (cursor) => {
      if (cursor < feed.base) return fromLog(cursor);
      return cursor < feed.head ? feed.slice(cursor, maxBatch) : none;
    },
    onNext: (wake) => feed.onNext(wake),
    cancel: (wake) => feed.cancel(wake),
  };

  async function fromLog(cursor: number): Promise<SqlChange[]> {
    const changes = await backend.changes(cursor, 500);
    if (changes.length === 0 || changes[0]!.rv !== cursor + 1) {
      const { compacted } = await backend.bounds();
      if (changes.length === 0 && cursor >= compacted) return [];
      throw tooOldResourceVersionError(String(cursor), String(compacted));
    }
    const contiguous: SqlChange[] = [];
    for (const c of changes) {
      if (c.rv !== cursor + 1 + contiguous.length) break;
      contiguous.push(c);
    }
    return contiguous;
  }
}
