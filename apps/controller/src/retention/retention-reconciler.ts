import type { Event } from '@kevents/api';
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
 * Deletes events whose last observation is older than their TTL. The reconcile key is
 * `namespace/name`; handlers enqueue each event with a delay until its expiry
 * ({@link RetentionReconciler.delayFor}), so the work queue's delay heap is the time-ordered
 * queue and nothing scans all events. The delete carries the cached uid and resourceVersion as
 * preconditions: an event refreshed meanwhile (a series heartbeat) answers 409, survives, and is
 * rescheduled from its new last observation.
 */
export class RetentionReconciler implements Reconciler {
  private readonly o: RetentionReconcilerOptions;
  private readonly now: () => number;

  constructor(options: RetentionReconcilerOptions) {
    this.o = options;
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds until `e` expires (≤ 0 when it has). */
  delayFor(e: Event): number {
    return lastObservation(e) + this.o.policy.ttlFor(e) - this.now();
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
