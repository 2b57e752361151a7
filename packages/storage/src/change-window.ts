import type { ChangeSource } from './cursor-watcher.js';
import { WakeList } from './wake-list.js';
import type { LoggedChange } from './watch-event.js';

const none: readonly never[] = Object.freeze([]);

/**
 * The recent changes of a store as one process holds them for its watches (the Redis and SQL
 * stores' change feeds): a window `(base, head]`, contiguous and at most `limit` long, that every
 * watch of the process reads through its own cursor, and the callbacks waiting for its next
 * change. A change that does not follow the head (the log was trimmed past the window) starts
 * the window over after the gap.
 */
export class ChangeWindow<C extends LoggedChange> {
  /** Every change at or below this is not in the window. */
  base = 0;
  /** The newest change in the window. */
  head = 0;
  private items: (C | undefined)[] = [];
  private off = 0;
  /** Rises whenever the window starts over, so that a kept slice is never given for other changes. */
  private generation = 0;
  private lastSlice: { start: number; count: number; generation: number; changes: readonly C[] } = {
    start: -1,
    count: -1,
    generation: -1,
    changes: none,
  };
  /** How many changes the window holds at most. */
  protected readonly limit: number;
  protected readonly waiters: WakeList;

  /** @param wakeIntervalMs - the shortest time between two wake-ups of the waiting watches ({@link WakeList}) */
  constructor(limit: number, wakeIntervalMs: number) {
    this.limit = limit;
    this.waiters = new WakeList(wakeIntervalMs);
  }

  /**
   * The changes in `(after, head]` that are in the window, at most `max` of them. The watches
   * woken together read from the same point, so the last answer is kept and given again (the
   * same frozen array) until the window changes under it, which lets them share one batch.
   */
  slice(after: number, max: number): readonly C[] {
    const start = Math.max(after, this.base);
    const count = Math.min(max, this.head - start);
    if (count <= 0) return none;
    const last = this.lastSlice;
    if (last.start === start && last.count === count && last.generation === this.generation) return last.changes;
    const from = this.off + start - this.base;
    const changes = Object.freeze(this.items.slice(from, from + count) as C[]);
    this.lastSlice = { start, count, generation: this.generation, changes };
    return changes;
  }

  /** Calls `fn` once after the next change (woken at most once per wake interval), or when the feed ends. */
  onNext(fn: () => void): void {
    this.waiters.add(fn);
  }

  cancel(fn: () => void): void {
    this.waiters.delete(fn);
  }

  /** Drops changes at or below `rv` from the window (after a compaction by this process). */
  compactTo(rv: number): void {
    while (this.base < Math.min(rv, this.head)) this.shift();
  }

  /** Empties the window and starts it at `rv`. */
  protected reset(rv: number): void {
    this.generation++;
    this.items = [];
    this.off = 0;
    this.base = rv;
    this.head = rv;
  }

  /** Adds a change after the head (one at or below it is ignored); the caller then wakes the waiters. */
  protected append(c: C): void {
    if (c.rv <= this.head) return;
    if (c.rv !== this.head + 1) this.reset(c.rv - 1);
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
 * A {@link ChangeWindow} as the {@link ChangeSource} of one watch: the window while the watch is
 * in it, `behind(cursor)` (the store's own log, read a batch at a time) when the watch has fallen
 * behind it. `check` runs before every read and may throw to end the watch.
 */
export function windowChangeSource<C extends LoggedChange>(
  window: ChangeWindow<C>,
  behind: (cursor: number) => Promise<readonly C[]>,
  maxBatch: number,
  check?: () => void,
): ChangeSource {
  return {
    read: (cursor) => {
      check?.();
      if (cursor < window.base) return behind(cursor);
      return cursor < window.head ? window.slice(cursor, maxBatch) : none;
    },
    onNext: (wake) => window.onNext(wake),
    cancel: (wake) => window.cancel(wake),
  };
}

/** The changes of `changes` (in order) that follow `cursor` without a gap: rv `cursor + 1`, `cursor + 2`, … */
export function contiguousAfter<C extends LoggedChange>(cursor: number, changes: readonly C[]): C[] {
  const out: C[] = [];
  for (const c of changes) {
    if (c.rv !== cursor + 1 + out.length) break;
    out.push(c);
  }
  return out;
}
