import { formatMicroTime, type Event } from '@kevents/api';
import {
  isConflict,
  isNotFound,
  type Indexer,
  type Reconciler,
  type ResourceClient,
  type Result,
} from '@kevents/controller-runtime';
import { firstObservation, lastObservation, occurrences } from '../event-time.js';
import { reached } from '../fault.js';
import { foldedAnnotation, readFoldRecord, writeFoldRecord } from './fold-record.js';
import { seriesIndex } from './series-key.js';

/** Options of the {@link SeriesReconciler}. */
export interface SeriesReconcilerOptions {
  readonly events: ResourceClient<Event>;
  /** The shared events cache, indexed by {@link seriesIndex}. */
  readonly indexer: Indexer<Event>;
  /** A member within this window of the series' last observation joins it (default 6 min). */
  readonly windowMs: number;
  /** Members folded per write (bounds the fold record annotation); default 200. */
  readonly batchSize?: number;
  /** Parallel deletes (default 16). */
  readonly deleteConcurrency?: number;
}

interface Fold {
  readonly member: Event;
  /** Occurrences to add: the member's count, or its growth since it was recorded. */
  readonly amount: number;
}

/**
 * Folds the events of one series (the reconcile key is a series key) into one Event:
 * `series.count` grows by what each member carries, `series.lastObservedTime` moves forward, the
 * members are deleted. Crash-safe by construction (docs/operations.md, "Crash safety of the
 * series fold"):
 * 1. a fold is one PUT of the series Event, with its resourceVersion as precondition, that adds
 *    the members' occurrences AND records their uids (with what was counted) in an annotation;
 * 2. only then are the members deleted, each with a uid + resourceVersion precondition;
 * 3. before a new fold replaces the record, every member still in it is deleted (or its growth
 *    is folded), so a recorded member is never counted twice; an unrecorded one was never counted.
 * A restarted controller (fresh cache from a list) therefore only finishes the deletes.
 */
export class SeriesReconciler implements Reconciler {
  private readonly o: Required<SeriesReconcilerOptions>;
  /** uids this process deleted that the cache may still show (client-go's "expectations"). */
  private readonly deletedUids = new Set<string>();

  constructor(options: SeriesReconcilerOptions) {
    this.o = { batchSize: 200, deleteConcurrency: 16, ...options };
  }

  /** Remembers a delete until the informer reports it (only if the cache still shows the object). */
  private expectDelete(m: Event): void {
    if (this.o.indexer.get(`${m.metadata.namespace}/${m.metadata.name}`)?.metadata.uid === m.metadata.uid)
      this.deletedUids.add(m.metadata.uid!);
  }

  /** The informer saw `e` deleted: the cache no longer shows it. */
  observedDelete(e: Event): void {
    if (e.metadata.uid) this.deletedUids.delete(e.metadata.uid);
  }

  async reconcile(key: string): Promise<Result> {
    const members = this.o.indexer.byIndex(seriesIndex, key).filter((e) => !this.deletedUids.has(e.metadata.uid!));
    if (members.length < 2) return {};
    for (const group of this.groups(members)) {
      const r = await this.foldGroup(group.head, group.rest);
      if (r.requeue) return r;
    }
    return {};
  }

  /**
   * Splits a series into runs: sorted by first observation, a member joins the current head
   * when it was first observed within the window of the head's last observation (as it would
   * be after folding what came before); otherwise it starts a new series Event.
   */
  private groups(members: Event[]): { head: Event; rest: Event[] }[] {
    const sorted = [...members].sort(
      (a, b) => firstObservation(a) - firstObservation(b) || (a.metadata.name! < b.metadata.name! ? -1 : 1),
    );
    const out: { head: Event; rest: Event[]; last: number }[] = [];
    for (const e of sorted) {
      const cur = out[out.length - 1];
      if (cur && firstObservation(e) - cur.last <= this.o.windowMs) {
        cur.rest.push(e);
        cur.last = Math.max(cur.last, lastObservation(e));
      } else {
        out.push({ head: e, rest: [], last: lastObservation(e) });
      }
    }
    return out.filter((g) => g.rest.length > 0 || readFoldRecord(g.head).size > 0);
  }

  private async foldGroup(cachedHead: Event, rest: Event[]): Promise<Result> {
    const ns = cachedHead.metadata.namespace!;
    let head: Event;
    try {
      // The cache may lag our own last write: read the series Event itself.
      head = await this.o.events.get(ns, cachedHead.metadata.name!);
    } catch (err) {
      if (isNotFound(err)) return { requeue: true };
      throw err;
    }
    if (head.metadata.uid !== cachedHead.metadata.uid) return { requeue: true };
    // uids deleted by this call: `rest` is a snapshot, and the informer may clear the
    // expectation of a delete (observedDelete) while this loop still holds the old object.
    const gone = new Set<string>();
    // A member that was a series Event itself (an out-of-order older event became the head)
    // may carry a fold record too: its recorded members are counted in it. Read it live.
    const others = new Map<string, number>();
    for (const m of rest) {
      if (!m.metadata.annotations?.[foldedAnnotation]) continue;
      try {
        const live = await this.o.events.get(m.metadata.namespace, m.metadata.name!);
        if (live.metadata.uid === m.metadata.uid) mergeRecord(others, readFoldRecord(live));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    for (;;) {
      const record = mergeRecord(new Map(others), readFoldRecord(head));
      const toDelete: Event[] = [];
      const folds: Fold[] = [];
      for (const m of rest) {
        if (gone.has(m.metadata.uid!) || this.deletedUids.has(m.metadata.uid!)) continue;
        const counted = record.get(m.metadata.uid!);
        if (counted === undefined) folds.push({ member: m, amount: occurrences(m) });
        else if (occurrences(m) > counted) folds.push({ member: m, amount: occurrences(m) - counted });
        else toDelete.push(m);
      }
      // Finish the previous fold before its record is replaced.
      if (!(await this.deleteAll(toDelete, gone))) return { requeue: true };
      if (folds.length === 0) return {};
      const batch = folds.slice(0, this.o.batchSize);
      const next = this.folded(head, batch);
      reached('fold:before-write');
      try {
        head = await this.o.events.update(next);
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) return { requeue: true };
        throw err;
      }
      reached('fold:after-write');
      if (
        !(await this.deleteAll(
          batch.map((f) => f.member),
          gone,
          () => reached('fold:after-first-delete'),
        ))
      )
        return { requeue: true };
      reached('fold:after-deletes');
      rest = rest.filter((m) => !gone.has(m.metadata.uid!));
      if (folds.length <= batch.length) return {};
    }
  }

  /** The series Event after folding `batch` into it: count, last observation, fold record. */
  private folded(head: Event, batch: readonly Fold[]): Event {
    let count = occurrences(head);
    let last = lastObservation(head);
    for (const f of batch) {
      count += f.amount;
      last = Math.max(last, lastObservation(f.member));
    }
    const record = new Map(batch.map((f) => [f.member.metadata.uid!, occurrences(f.member)]));
    return {
      ...head,
      metadata: {
        ...head.metadata,
        annotations: { ...(head.metadata.annotations ?? {}), [foldedAnnotation]: writeFoldRecord(record) },
      },
      series: {
        count,
        lastObservedTime: microTime(last),
      },
    };
  }

  /**
   * Deletes members with uid + resourceVersion preconditions. A member already gone counts as
   * deleted; a member changed meanwhile (409) makes the whole call report false (the caller
   * requeues; its growth is folded next time).
   */
  private async deleteAll(members: readonly Event[], gone: Set<string>, afterFirst?: () => void): Promise<boolean> {
    let ok = true;
    let first = true;
    let i = 0;
    const worker = async (): Promise<void> => {
      while (i < members.length) {
        const m = members[i++]!;
        try {
          await this.o.events.delete(m.metadata.namespace, m.metadata.name!, {
            uid: m.metadata.uid,
            resourceVersion: m.metadata.resourceVersion,
          });
          this.expectDelete(m);
          gone.add(m.metadata.uid!);
        } catch (err) {
          if (isNotFound(err)) {
            this.expectDelete(m);
            gone.add(m.metadata.uid!);
          } else if (isConflict(err)) ok = false;
          else throw err;
        }
        if (first) {
          first = false;
          afterFirst?.();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.deleteConcurrency, members.length) }, worker));
    return ok;
  }
}

/** `metav1.MicroTime` of a time in ms since the epoch (fractions of a ms kept to the microsecond). */
function microTime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return formatMicroTime({ seconds, micros: Math.min(999_999, Math.round((ms - seconds * 1000) * 1000)) });
}

/** Adds `from` to `into`, keeping the larger count per uid; returns `into`. */
function mergeRecord(into: Map<string, number>, from: ReadonlyMap<string, number>): Map<string, number> {
  for (const [uid, n] of from) into.set(uid, Math.max(n, into.get(uid) ?? 0));
  return into;
}
