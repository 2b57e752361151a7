import type { LoggedChange } from '../watch-event.js';
import { WakeList } from '../wake-list.js';
import type { KeyEntry } from './resource-table.js';

/** One write. For DELETED, `body` is the last state; `prev` is the state a MODIFIED replaced. */
export interface Change extends LoggedChange {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly entry: KeyEntry;
  readonly body: string;
  readonly prev: string | undefined;
  readonly time: number;
}

/**
 * The global resourceVersion counter and the retained changes: exactly one change per
 * resourceVersion in `(compacted, rv]`, so a resourceVersion is also an index. Waiters are woken
 * after writes, at most once per `wakeIntervalMs` (see {@link WakeList}).
 */
export class ChangeLog {
  /** The newest resourceVersion. */
  rv = 0;
  /** Every change at or below this resourceVersion is gone. */
  compacted = 0;
  private items: (Change | undefined)[] = [];
  private head = 0;
  private readonly waiters: WakeList;

  constructor(wakeIntervalMs: number) {
    this.waiters = new WakeList(wakeIntervalMs);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /** The change at `rv`, when retained. */
  at(rv: number): Change | undefined {
    return rv > this.compacted && rv <= this.rv ? this.items[this.head + rv - this.compacted - 1] : undefined;
  }

  oldest(): Change | undefined {
    return this.items[this.head];
  }

  append(change: Change): void {
    this.items.push(change);
    this.rv = change.rv;
  }

  /** Removes and returns the oldest change. */
  shift(): Change | undefined {
    const c = this.items[this.head];
    if (c === undefined) return undefined;
    this.items[this.head++] = undefined;
    this.compacted = c.rv;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return c;
  }

  /** Marks everything up to `rv` compacted once no change is left below it. */
  compactTo(rv: number): void {
    if (rv > this.compacted && this.size === 0) this.compacted = Math.min(rv, this.rv);
  }

  /** Calls `fn` once, after the next write (or {@link wakeAll}). */
  onNext(fn: () => void): void {
    this.waiters.add(fn);
  }

  cancel(fn: () => void): void {
    this.waiters.delete(fn);
  }

  /** A write happened: wakes the waiters (paced). */
  notify(): void {
    this.waiters.notify();
  }

  /** Wakes the waiters now (the store closed). */
  wakeAll(): void {
    this.waiters.wakeNow();
  }
}
