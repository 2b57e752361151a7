import type { LoggedChange } from '../watch-event.js';
import { WakeList } from '../wake-list.js';
import type { KeyEntry, Version } from './resource-table.js';
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
 * A change as the memory store gives it out: the bodies packed (see `packBody`) and shared with
 * the key's revisions; `body` and `prev` unpack them for the watch code that reads them.
 */
export class PackedChange implements Change {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly entry: KeyEntry;
  /** The packed state after the change (for DELETED: the last state). */
  readonly packed: string;
  /** The packed state a MODIFIED or DELETED replaced. */
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
    return this.entry.scope.resource;
  }

  get namespace(): string {
    return this.entry.scope.namespace;
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

/** How many changes {@link ChangeLog.at} keeps as objects (a power of two). */
const recentChanges = 1024;

/**
 * The change a key's revisions record at `rv`. Its revision at `rv` and the one before it are
 * kept while the change is retained (see `forgetBefore`): the state written, the state it
 * replaced, and so the type (a state after no state or a tombstone was ADDED).
 */
function changeOf(entry: KeyEntry, rv: number, time: number): PackedChange {
  let at: Version = entry;
  let before: Version | undefined;
  if (entry.rv !== rv) {
    const vs = entry.older!;
    let i = vs.length - 1;
    while (vs[i].rv !== rv) i--;
    at = vs[i];
    before = vs[i - 1];
  } else {
    before = entry.older?.[entry.older.length - 1];
  }
  const prev = before?.body;
  if (at.body === undefined) return new PackedChange(rv, 'DELETED', entry, prev!, prev, time);
  if (prev === undefined) return new PackedChange(rv, 'ADDED', entry, at.body, undefined, time);
  return new PackedChange(rv, 'MODIFIED', entry, at.body, prev, time);
}

/**
 * The global resourceVersion counter and the retained changes: exactly one change per
 * resourceVersion in `(compacted, rv]`, so a resourceVersion is also an index. A change is
 * logged as its key's entry alone (8 bytes, where an object per change cost ~80): the entry's
 * revisions hold what it wrote and what it replaced, and {@link at} builds the change from
 * them (the last {@link recentChanges} are kept, so that watches woken together share one
 * object per change). Waiters are woken after writes, at most once per `wakeIntervalMs` (see
 * {@link WakeList}).
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
  private entries: (KeyEntry | undefined)[] = [];
  /** The time of each change (beside `entries`), when the log is timed. */
  private times: number[] = [];
  private head = 0;
  private readonly recent: (PackedChange | undefined)[] = new Array<PackedChange | undefined>(recentChanges);
  private readonly waiters: WakeList;
  private readonly timed: boolean;

  /**
   * @param wakeIntervalMs - the shortest time between two wake-ups of the waiters.
   * @param timed - whether changes keep their time (for age-based compaction); else it is 0.
   */
  constructor(wakeIntervalMs: number, timed = false) {
    this.waiters = new WakeList(wakeIntervalMs);
    this.timed = timed;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** The change at `rv`, when retained. */
  at(rv: number): Change | undefined {
    const entry = this.entryAt(rv);
    if (entry === undefined) return undefined;
    const slot = rv & (recentChanges - 1);
    const known = this.recent[slot];
    if (known !== undefined && known.rv === rv) return known;
    const c = changeOf(entry, rv, this.timeAt(rv));
    this.recent[slot] = c;
    return c;
  }

  /** The key entry the change at `rv` wrote, when retained. */
  entryAt(rv: number): KeyEntry | undefined {
    return rv > this.compacted && rv <= this.rv ? this.entries[this.head + rv - this.compacted - 1] : undefined;
  }

  /** The resourceVersion of the oldest retained change; undefined when there is none. */
  oldestRv(): number | undefined {
    return this.size > 0 ? this.compacted + 1 : undefined;
  }

  /** The time of the oldest retained change; undefined when there is none. */
  oldestTime(): number | undefined {
    return this.size > 0 ? this.timeAt(this.compacted + 1) : undefined;
  }

  /** Logs the next change (resourceVersion `rv` + 1), a write of `entry`'s newest revision, at `time`. */
  append(entry: KeyEntry, time: number): void {
    this.entries.push(entry);
    if (this.timed) this.times.push(time);
    this.rv++;
  }

  /** Removes the oldest change and returns its entry (its resourceVersion is then {@link compacted}). */
  shift(): KeyEntry | undefined {
    const e = this.entries[this.head];
    if (e === undefined) return undefined;
    this.entries[this.head++] = undefined;
    this.compacted++;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      if (this.timed) this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return e;
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

  private timeAt(rv: number): number {
    return this.timed ? this.times[this.head + rv - this.compacted - 1] : 0;
  }
}
