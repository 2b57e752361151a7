import { coreToEvent, type CoreEvent, type Event } from '@kevents/api';
import {
  ApiError,
  isConflict,
  isNotFound,
  type Indexer,
  type Reconciler,
  type ResourceClient,
  type Result,
  TerminalError,
} from '@kevents/controller-runtime';
import { lastObservation } from '../event-time.js';
import type { MirrorMetrics } from './mirror-metrics.js';
import {
  candidateNames,
  clusterLabel,
  compareResourceVersions,
  isLegacy,
  mirrorIndex,
  mirrorOf,
  mirroredContent,
  sourceRvAnnotation,
  sourceUidAnnotation,
  toCoreV1,
} from './mirror-object.js';

/** Options of a {@link MirrorReconciler} (one per source cluster). */
export interface MirrorReconcilerOptions {
  /** The source's name: the `kevents.io/cluster` label value. */
  readonly cluster: string;
  /** The source cluster's events (its informer's cache), by `namespace/name`. */
  readonly source: Indexer<Event>;
  /** kevents' events (the controller's shared cache), indexed by {@link mirrorIndex}. */
  readonly target: Indexer<Event>;
  /** kevents' events.k8s.io/v1 Events (events.<domain>/v1 with a `--group-domain`: copies take its group version). */
  readonly events: ResourceClient<Event>;
  /** kevents' core v1 Events (for kubelet-style events). */
  readonly coreEvents: ResourceClient<CoreEvent>;
  readonly metrics: MirrorMetrics;
  /** The one namespace the shared cache watches (`--namespace`); copies elsewhere are found by name. */
  readonly targetNamespace?: string;
  /** The clock (ms since the epoch). */
  readonly now?: () => number;
}

type Outcome = 'created' | 'updated' | 'unchanged';

/**
 * Brings the kevents copy of one source event (key `namespace/name` in the source) up to date:
 * creates it when kevents has none, replaces it when the source's content differs and its
 * resourceVersion is not older than the copy's, and writes nothing otherwise. Source deletes are
 * not mirrored: a key whose event has left the source cache is done.
 *
 * The copy is found by its source uid (index {@link mirrorIndex} of the shared cache, plus the
 * answers of this process's own writes until the cache has caught up with them), so a restarted
 * or newly elected mirror that lists everything again writes nothing that is already current.
 * A create that meets an existing name reads it: the mirror's own copy (made by an earlier
 * process) is updated; anybody else's is left alone and the copy takes the second name of
 * {@link candidateNames}.
 */
export class MirrorReconciler implements Reconciler {
  private readonly o: MirrorReconcilerOptions;
  private readonly now: () => number;
  /** Copies this process wrote that the cache may not show yet, by source uid. */
  private readonly written = new Map<string, Event>();
  /** When the source informer delivered the version of each key waiting to be mirrored. */
  private readonly seenAt = new Map<string, number>();

  constructor(options: MirrorReconcilerOptions) {
    this.o = options;
    this.now = options.now ?? Date.now;
  }

  /** The source informer delivered (a new version of) `key`. */
  sourceChanged(key: string): void {
    if (!this.seenAt.has(key)) this.seenAt.set(key, this.now());
  }

  /** kevents' cache shows `e`: forget a written copy it has caught up with. */
  targetObserved(e: Event): void {
    if (e.metadata.labels?.[clusterLabel] !== this.o.cluster) return;
    const uid = e.metadata.annotations?.[sourceUidAnnotation];
    const w = uid && this.written.get(uid);
    if (w && compareResourceVersions(w.metadata.resourceVersion, e.metadata.resourceVersion) <= 0)
      this.written.delete(uid);
  }

  /** Copies written and not yet seen in the cache (tests, memory accounting). */
  pendingWrites(): number {
    return this.written.size;
  }

  async reconcile(key: string): Promise<Result> {
    const src = this.o.source.get(key);
    if (!src) {
      this.seenAt.delete(key);
      return {};
    }
    const label = { cluster: this.o.cluster };
    let outcome: Outcome;
    try {
      outcome = await this.mirror(src);
    } catch (err) {
      this.o.metrics.events.inc({ ...label, result: 'failed' });
      throw err;
    }
    this.o.metrics.events.inc({ ...label, result: outcome });
    const seen = this.seenAt.get(key);
    this.seenAt.delete(key);
    if (outcome !== 'unchanged') {
      const now = this.now();
      const t = sourceWriteTime(src, seen ?? now);
      this.o.metrics.lag.observe(label, Math.max(0, now - t) / 1000);
    }
    return {};
  }

  private async mirror(src: Event): Promise<Outcome> {
    const uid = src.metadata.uid!;
    let copy = this.findCopy(uid);
    if (!copy) {
      const made = await this.createCopy(src);
      if (made === 'created') return 'created';
      copy = made;
    }
    for (let attempt = 0; ; attempt++) {
      // Newest source resourceVersion wins: a copy made from a later version stays.
      if (compareResourceVersions(copy.metadata.annotations?.[sourceRvAnnotation], src.metadata.resourceVersion) > 0)
        return 'unchanged';
      const desired = mirrorOf(src, this.o.cluster, copy.metadata.name);
      if (mirroredContent(desired) === mirroredContent(copy)) return 'unchanged';
      desired.metadata.resourceVersion = copy.metadata.resourceVersion;
      try {
        this.remember(await this.write(desired, 'update'));
        return 'updated';
      } catch (err) {
        if (!isConflict(err) || attempt >= 2) throw err;
      }
      // Changed since the cache saw it: read it and decide again.
      copy = await this.o.events.get(copy.metadata.namespace, copy.metadata.name!);
      if (copy.metadata.annotations?.[sourceUidAnnotation] !== uid) throw new Error('copy replaced meanwhile');
    }
  }

  /** The newest copy of source event `uid` this process knows (cache or own writes). */
  private findCopy(uid: string): Event | undefined {
    let best: Event | undefined = this.written.get(uid);
    for (const e of this.o.target.byIndex(mirrorIndex, `${this.o.cluster}/${uid}`))
      if (!best || compareResourceVersions(e.metadata.resourceVersion, best.metadata.resourceVersion) > 0) best = e;
    return best;
  }

  /** Creates the copy under the first free candidate name, or returns the copy an earlier process made. */
  private async createCopy(src: Event): Promise<'created' | Event> {
    const uid = src.metadata.uid!;
    for (const name of candidateNames(this.o.cluster, src.metadata.name!, uid)) {
      try {
        this.remember(await this.write(mirrorOf(src, this.o.cluster, name), 'create'));
        return 'created';
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
      let existing: Event;
      try {
        existing = await this.o.events.get(src.metadata.namespace, name);
      } catch (err) {
        if (isNotFound(err)) throw new Error(`${name} was deleted while it was being created: retrying`);
        throw err;
      }
      if (
        existing.metadata.labels?.[clusterLabel] === this.o.cluster &&
        existing.metadata.annotations?.[sourceUidAnnotation] === uid
      )
        return existing;
    }
    throw new Error(`both names of ${src.metadata.namespace}/${src.metadata.name} are taken by other events`);
  }

  private remember(e: Event): void {
    // A copy the cache never shows would never be forgotten.
    if (this.o.targetNamespace && e.metadata.namespace !== this.o.targetNamespace) return;
    this.written.set(e.metadata.annotations![sourceUidAnnotation]!, e);
  }

  /**
   * Writes a copy through the API its kind needs: kubelet-style events through core v1; the
   * others through events.k8s.io/v1, and through core v1 when that refuses them (422: a change
   * that only the legacy API allows, such as a new note, or a type the strict API refuses).
   */
  private async write(e: Event, verb: 'create' | 'update'): Promise<Event> {
    try {
      return await this.writeThrough(e, verb);
    } catch (err) {
      // kevents stores at most maxObjectValues values in an object; a retry cannot change that.
      if (!(err instanceof ApiError) || err.httpStatus !== 413) throw err;
      const { namespace, annotations } = e.metadata;
      throw new TerminalError(
        `the event ${namespace}/${annotations?.[sourceUidAnnotation] ?? ''} of ${this.o.cluster} cannot be mirrored: ${err.message}`,
        { cause: err },
      );
    }
  }

  private async writeThrough(e: Event, verb: 'create' | 'update'): Promise<Event> {
    if (!isLegacy(e)) {
      const { group, version } = this.o.events.ref;
      const typed = { ...e, apiVersion: `${group}/${version}` };
      try {
        return verb === 'create' ? await this.o.events.create(typed) : await this.o.events.update(typed);
      } catch (err) {
        if (!(err instanceof ApiError) || err.httpStatus !== 422) throw err;
      }
    }
    const c = toCoreV1(e);
    const w = verb === 'create' ? await this.o.coreEvents.create(c) : await this.o.coreEvents.update(c);
    return coreToEvent(w);
  }
}

/**
 * When the source last wrote `src`, as well as the mirror can tell: its newest own time
 * (creation, series, last timestamp, event time), or the moment its informer delivered it when
 * that is less than a second later (creation and the legacy timestamps have only seconds).
 */
export function sourceWriteTime(src: Event, seenAt: number): number {
  const created = Date.parse(src.metadata.creationTimestamp ?? '') || 0;
  const t = Math.max(created, lastObservation(src));
  return seenAt - t < 1000 ? seenAt : t;
}
