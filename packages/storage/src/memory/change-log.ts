import type { LoggedChange } from '../watch-event.js';
import { WakeList } from '../wake-list.js';
import type { KeyEntry } from './resource-table.js';
import { unpackBody } from './packed-body.js';

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
 * A change as the memory store logs it: the bodies packed (see `packBody`) and shared with the
 * key's revisions; `body` and `prev` unpack them for the watch code that reads them.
 */
export class PackedChange implements Change {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly entry: KeyEntry;
  /** The packed state after the change (for DELETED: the last state). */
  readonly packed: string;
  /** The packed state a MODIFIED replaced. */
  readonly packedPrev: string | undefined;
  readonly time: number;

  constructor(
    rv: number,
    type: 'ADDED' | 'MODIFIED' | 'DELETED',
    entry: KeyEntry,
    packed: string,
    packedPrev: string | undefined,
    time: number,
  ) {
    this.rv = rv;
    this.type = type;
    this.entry = entry;
    this.packed = packed;
    this.packedPrev = packedPrev;
    this.time = time;
  }

  get resource(): string {
    return this.entry.resource;
  }

  get namespace(): string {
    return this.entry.namespace;
  }

  get body(): string {
    return unpackBody(this.packed);
  }

  get prev(): string | undefined {
    return this.packedPrev === undefined ? undefined : unpackBody(this.packedPrev);
  }
}

/** The resourceVersion of a store that has never been written (etcd's first revision). */
export const initialResourceVersion = 1;

/**
 * The global resourceVersion counter and the retained changes: exactly one change per
 * resourceVersion in `(compacted, rv]`, so a resourceVersion is also an index. Waiters are woken
 * after writes, at most once per `wakeIntervalMs` (see {@link WakeList}).
 */
export class ChangeLog {
  /**
   * The newest resourceVersion. An empty store is at {@link initialResourceVersion}, as etcd
   * starts at revision 1: the first write is 2, so a list of an empty store returns "1", never
   * "0" (which a watch reads as "any"), and a watch from it sees every write in order.
   */
  rv = initialResourceVersion;
  /** Every change at or below this resourceVersion is gone. */
  compacted = initialResourceVersion;
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
