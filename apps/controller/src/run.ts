import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseDuration, type CoreEvent, type Event, type Lease } from '@kevents/api';
import {
  BucketRateLimiter,
  Controller,
  Informer,
  ItemExponentialFailureRateLimiter,
  Manager,
  MaxOfRateLimiter,
  ResourceClient,
  RestClient,
  RuntimeMetrics,
  objectKey,
} from '@kevents/controller-runtime';
import { flagValues, type FlagValues } from './cli/flags.js';
import { kubeConfigFromFlags } from './cli/kubeconfig.js';
import type { Log } from './log.js';
import { loadRetentionConfig, RetentionPolicy } from './retention/retention-config.js';
import { RetentionReconciler } from './retention/retention-reconciler.js';
import { MirrorMetrics } from './mirror/mirror-metrics.js';
import { isMirrored, mirrorIndex, mirrorIndexValues } from './mirror/mirror-object.js';
import { MirrorReconciler } from './mirror/mirror-reconciler.js';
import { parseMirrorSources, sourceKubeConfig } from './mirror/mirror-source.js';
import { seriesIndex, seriesKey } from './series/series-key.js';
import { SeriesReconciler } from './series/series-reconciler.js';

/** events.<domain>/v1 Events: the server's (`--group-domain`), or a source cluster's (`k8s.io`). */
const eventsRef = (domain: string) =>
  ({ group: `events.${domain}`, version: 'v1', resource: 'events', namespaced: true }) as const;
const coreEventsRef = { group: '', version: 'v1', resource: 'events', namespaced: true } as const;
/** coordination.<domain>/v1 Leases of the server (`--group-domain`). */
const leasesRef = (domain: string) =>
  ({ group: `coordination.${domain}`, version: 'v1', resource: 'leases', namespaced: true }) as const;

const ms = (d: string): number => parseDuration(d)! / 1e6;

/**
 * What the controllers keep of an event in the cache: everything but `managedFields` and the
 * note (the series controller reads the series Event itself before it writes it). Mirrored
 * events keep their note: the mirror compares a copy with its source before it writes.
 */
function slim(e: Event): Event {
  const { managedFields: _m, ...metadata } = e.metadata;
  if (isMirrored(e)) return { ...e, metadata };
  const { note: _n, ...rest } = e;
  return { ...rest, metadata };
}

/** A source event without `managedFields` (the mirror does not copy them). */
function withoutManagedFields(e: Event): Event {
  if (!e.metadata.managedFields) return e;
  const { managedFields: _m, ...metadata } = e.metadata;
  return { ...e, metadata };
}

/** Builds the manager, informer and controllers the flags ask for (not started). */
export function buildController(flags: FlagValues, log: Log): Manager {
  const kc = kubeConfigFromFlags(flags);
  const rest = new RestClient(kc, { userAgent: 'kevents-controller' });
  // The server's groups (kevents-apiserver --group-domain); mirror sources are clusters: events.k8s.io.
  const domain = flags['group-domain'] || 'k8s.io';
  const events = new ResourceClient<Event>(rest, eventsRef(domain));
  const enabled = new Set(
    flags['controllers']!.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const c of enabled)
    if (c !== 'series' && c !== 'retention') throw new Error(`unknown controller "${c}" in --controllers`);
  const sources = parseMirrorSources(flagValues(flags, 'mirror-source'));
  const metrics = new RuntimeMetrics();
  const informer = new Informer<Event>(events, {
    namespace: flags['namespace'] || undefined,
    transform: slim,
    onError: (err) => log('warn', 'events informer', { error: String((err as Error).message ?? err) }),
  });
  // Mirrored events are copies: they never join a series (their source's own series is kept).
  informer.indexer.addIndex(seriesIndex, (e) => (isMirrored(e) ? [] : [seriesKey(e)]));
  const onError = (name: string) => (key: string, err: unknown) =>
    log('warn', 'reconcile failed', { controller: name, key, error: String((err as Error).message ?? err) });
  const workers = Number(flags['workers']);

  const leaderElect = flags['leader-elect'] === 'true';
  const lease = {
    namespace: flags['leader-election-namespace']!,
    name: flags['leader-election-id']!,
    identity: flags['leader-election-identity'] || `${hostname()}_${randomUUID()}`,
    leaseDurationMs: ms(flags['leader-elect-lease-duration']!),
    renewDeadlineMs: ms(flags['leader-elect-renew-deadline']!),
    retryPeriodMs: ms(flags['leader-elect-retry-period']!),
  };
  const probe = flags['health-probe-bind-address'] === '0' ? '' : flags['health-probe-bind-address'];
  const manager = new Manager({
    probeAddress: probe,
    metrics,
    log: (msg, fields) => log('info', msg, fields),
    leaderElection: leaderElect
      ? {
          ...lease,
          // Its own connection pool: a busy events client cannot delay a renewal.
          leases: new ResourceClient<Lease>(
            new RestClient(kc, {
              timeoutMs: Math.max(1000, lease.renewDeadlineMs / 2),
              userAgent: 'kevents-controller/leader-election',
            }),
            leasesRef(domain),
          ),
          onNewLeader: (id) => log('info', 'new leader observed', { leader: id }),
          onError: (err) => log('warn', 'leader election', { error: String((err as Error).message ?? err) }),
        }
      : undefined,
  });
  manager.addInformer(informer);

  if (enabled.has('series')) {
    const reconciler = new SeriesReconciler({
      events,
      indexer: informer.indexer,
      windowMs: ms(flags['series-window']!),
    });
    const c = new Controller({
      name: 'series',
      reconciler,
      maxConcurrentReconciles: workers,
      metrics,
      onError: onError('series'),
    });
    informer.addEventHandler({
      onAdd: (e) => isMirrored(e) || c.enqueue(seriesKey(e)),
      onUpdate: (_o, e) => isMirrored(e) || c.enqueue(seriesKey(e)),
      onDelete: (e) => reconciler.observedDelete(e),
    });
    manager.addController(c);
  }
  if (enabled.has('retention')) {
    const config = flags['retention-config'] ? loadRetentionConfig(flags['retention-config']) : undefined;
    const policy = new RetentionPolicy(ms(flags['event-ttl']!), config);
    const reconciler = new RetentionReconciler({ events, indexer: informer.indexer, policy });
    const c = new Controller({
      name: 'retention',
      reconciler,
      maxConcurrentReconciles: workers,
      metrics,
      onError: onError('retention'),
    });
    const schedule = (e: Event, fromWatch: boolean): void => {
      reconciler.observe(e, fromWatch);
      c.enqueueAfter(objectKey(e), reconciler.delayFor(e));
    };
    informer.addEventHandler({
      onAdd: (e, initial) => schedule(e, !initial),
      onUpdate: (_o, e) => schedule(e, true),
      onDelete: (e) => reconciler.forget(e),
    });
    manager.addController(c);
    log('info', 'retention rules', { rules: policy.describe() });
  }
  if (sources.length > 0) {
    informer.indexer.addIndex(mirrorIndex, mirrorIndexValues);
    const mirrorMetrics = new MirrorMetrics(metrics);
    for (const source of sources) {
      const cluster = source.name;
      const srcRest = new RestClient(sourceKubeConfig(source), { userAgent: `kevents-controller/mirror-${cluster}` });
      const sourceInformer = new Informer<Event>(new ResourceClient<Event>(srcRest, eventsRef('k8s.io')), {
        transform: withoutManagedFields,
        onError: (err) => {
          mirrorMetrics.sourceUp.set({ cluster }, 0);
          log('warn', 'mirror source', { cluster, error: String((err as Error).message ?? err) });
        },
        onProgress: () => mirrorMetrics.sourceUp.set({ cluster }, 1),
      });
      mirrorMetrics.sourceUp.set({ cluster }, 0);
      // Writes of each source go through their own connection pool to kevents as well.
      const targetRest = new RestClient(kc, { userAgent: `kevents-controller/mirror-${cluster}` });
      const reconciler = new MirrorReconciler({
        cluster,
        source: sourceInformer.indexer,
        target: informer.indexer,
        events: new ResourceClient<Event>(targetRest, eventsRef(domain)),
        coreEvents: new ResourceClient<CoreEvent>(targetRest, coreEventsRef),
        metrics: mirrorMetrics,
        targetNamespace: flags['namespace'] || undefined,
      });
      const c = new Controller({
        name: `mirror-${cluster}`,
        reconciler,
        maxConcurrentReconciles: Number(flags['mirror-workers']),
        metrics,
        // client-go's per-item backoff, capped at 30 s, and an overall bucket sized for a catch-up
        // (client-go's default bucket, 10 retries/s, would take minutes after a short outage).
        rateLimiter: new MaxOfRateLimiter<string>(
          new ItemExponentialFailureRateLimiter<string>(5, 30_000),
          new BucketRateLimiter<string>(500, 1000),
        ),
        onError: onError(`mirror-${cluster}`),
      });
      const changed = (e: Event): void => {
        const key = objectKey(e);
        reconciler.sourceChanged(key);
        c.enqueue(key);
      };
      sourceInformer.addEventHandler({ onAdd: changed, onUpdate: (o, e) => o !== e && changed(e) });
      informer.addEventHandler({
        onAdd: (e) => reconciler.targetObserved(e),
        onUpdate: (_o, e) => reconciler.targetObserved(e),
      });
      manager.addInformer(sourceInformer, { waitForSync: false });
      manager.addController(c);
      log('info', 'mirror source', { cluster, server: srcRest.server, watches: sourceInformer.describe() });
      void sourceInformer.waitForSync().then(() =>
        log('info', 'mirror source synced', {
          cluster,
          server: srcRest.server,
          watches: sourceInformer.describe(),
          resourceVersion: sourceInformer.lastSyncResourceVersion,
          events: sourceInformer.indexer.size,
        }),
      );
    }
  }
  log('info', 'kevents-controller starting', {
    server: rest.server,
    watches: informer.describe(),
    controllers: [...enabled, ...sources.map((s) => `mirror-${s.name}`)],
    leaderElection: leaderElect
      ? `on: lease ${lease.namespace}/${lease.name} as ${lease.identity}`
      : 'off: this instance leads',
  });
  return manager;
}
