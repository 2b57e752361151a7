import { timeToMillis, type Event } from '@kevents/api';
import {
  isConflict,
  isNotFound,
  splitKey,
  type Indexer,
  type Reconciler,
  type ResourceClient,
  type Result,
} from '@kevents/controller-runtime';
import { lastObservation } from '../event-time.js';
import type { RetentionPolicy } from './retention-config.js';

/** Options of the {@link RetentionReconciler}. */
export interface RetentionReconcilerOptions {
  readonly events: ResourceClient<Event>;
  readonly indexer: Indexer<Event>;
  readonly policy: RetentionPolicy;
  /** The clock (ms since the epoch); tests may shift it. */
  readonly now?: () => number;
}

/**
 * When `e` was last written, as well as a client can tell (kevents, like kube-apiserver, does not
 * publish it): the moment this controller saw the write (`seenAt`) when its watch delivered it;
 * for an event it found in its first list, a lower bound: the later of its
 * `creationTimestamp` (the server's time of the create) and its last observation (series,
 * `lastTimestamp`, `eventTime`: a client writes an observation after making it), the latter
 * capped at `seenAt` so that a time in the future cannot keep an event forever.
 */
export function lastWrite(e: Event, seenAt: number, fromWatch: boolean): number {
  if (fromWatch) return seenAt;
  const created = timeToMillis(e.metadata.creationTimestamp);
  return Math.max(Number.isNaN(created) ? 0 : created, Math.min(lastObservation(e), seenAt));
}

/**
 * Deletes events whose last write is older than their TTL (kube-apiserver's `--event-ttl`
 * semantics: every write restarts the TTL; an event written now with an old `eventTime` lives
 * its full TTL). The reconcile key is
 * `namespace/name`; handlers enqueue each event with a delay until its expiry
 * ({@link RetentionReconciler.delayFor}), so the work queue's delay heap is the time-ordered
 * queue and nothing scans all events. The delete carries the cached uid and resourceVersion as
 * preconditions: an event refreshed meanwhile (a series heartbeat) answers 409, survives, and is
 * rescheduled from its new last write. The informer's handlers report every add and update to
 * {@link RetentionReconciler.observe}, which keeps one time per cached event.
 */
export class RetentionReconciler implements Reconciler {
  private readonly o: RetentionReconcilerOptions;
  private readonly now: () => number;
  /** The last write of each cached event: its resourceVersion and the time. */
  private readonly writes = new Map<string, { rv: string | undefined; at: number }>();

  constructor(options: RetentionReconcilerOptions) {
    this.o = options;
    this.now = options.now ?? Date.now;
  }

  /**
   * The informer delivered `e`: `fromWatch` is false for the objects of its first list (written
   * at a time it does not know), true for the rest (a watch event, or a change a relist found).
   */
  observe(e: Event, fromWatch: boolean): void {
    const key = `${e.metadata.namespace}/${e.metadata.name}`;
    const cur = this.writes.get(key);
    if (cur && cur.rv === e.metadata.resourceVersion) return;
    this.writes.set(key, { rv: e.metadata.resourceVersion, at: lastWrite(e, this.now(), fromWatch) });
  }

  /** The informer saw `e` deleted. */
  forget(e: Event): void {
    this.writes.delete(`${e.metadata.namespace}/${e.metadata.name}`);
  }

  /** When `e` was last written (ms since the epoch). */
  lastWriteOf(e: Event): number {
    const w = this.writes.get(`${e.metadata.namespace}/${e.metadata.name}`);
    return w && w.rv === e.metadata.resourceVersion ? w.at : lastWrite(e, this.now(), false);
  }

  /** Milliseconds until `e` expires (≤ 0 when it has). */
  delayFor(e: Event): number {
    return this.lastWriteOf(e) + this.o.policy.ttlFor(e) - this.now();
  }

  async reconcile(key: string): Promise<Result> {
    const e = this.o.indexer.get(key);
    if (!e) return {};
    const wait = this.delayFor(e);
    if (wait > 0) return { requeueAfterMs: wait };
    const { namespace, name } = splitKey(key);
    try {
      await this.o.events.delete(namespace, name, { uid: e.metadata.uid, resourceVersion: e.metadata.resourceVersion });
    } catch (err) {
      if (isNotFound(err)) return {};
      // Refreshed (or replaced) since the cache saw it: the update will reschedule it.
      if (isConflict(err)) return {};
      throw err;
    }
    return {};
  }
}
