import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CoreEvent, Event, Lease } from '@kevents/api';
import { keventsVersion, type Logger } from '@kevents/cli';
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
import type { ControllerOptions } from './cli/flags.js';
import { kubeConfigFromFlags } from './cli/kubeconfig.js';
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

const message = (err: unknown): string => String((err as Error).message ?? err);

/** Builds the manager, informer and controllers the options ask for (not started), and logs what it built. */
export function buildController(options: ControllerOptions, log: Logger): Manager {
  const kc = kubeConfigFromFlags(options);
  const rest = new RestClient(kc, { userAgent: 'kevents-controller' });
  // The server's groups (kevents-apiserver --group-domain); mirror sources are clusters: events.k8s.io.
  const domain = options.groupDomain || 'k8s.io';
  const events = new ResourceClient<Event>(rest, eventsRef(domain));
  const enabled = new Set(options.controllers);
  for (const c of enabled)
    if (c !== 'series' && c !== 'retention') throw new Error(`unknown controller "${c}" in --controllers`);
  const sources = parseMirrorSources(options.mirrorSource);
  const metrics = new RuntimeMetrics();
  const informer = new Informer<Event>(events, {
    namespace: options.namespace || undefined,
    transform: slim,
    onError: (err) => log.warn({ error: message(err) }, 'events informer'),
  });
  // Mirrored events are copies: they never join a series (their source's own series is kept).
  informer.indexer.addIndex(seriesIndex, (e) => (isMirrored(e) ? [] : [seriesKey(e)]));
  const onError = (name: string) => (key: string, err: unknown) =>
    log.warn({ controller: name, key, error: message(err) }, 'reconcile failed');
  const { workers, leaderElect } = options;
  const lease = {
    namespace: options.leaderElectionNamespace,
    name: options.leaderElectionId,
    identity: options.leaderElectionIdentity || `${hostname()}_${randomUUID()}`,
    leaseDurationMs: options.leaderElectLeaseDurationMs,
    renewDeadlineMs: options.leaderElectRenewDeadlineMs,
    retryPeriodMs: options.leaderElectRetryPeriodMs,
  };
  const probe = options.healthProbeBindAddress === '0' ? '' : options.healthProbeBindAddress;
  const manager = new Manager({
    probeAddress: probe,
    metrics,
    log: (msg, fields) => log.info(fields ?? {}, msg),
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
          onNewLeader: (id) => log.info({ leader: id }, 'new leader observed'),
          onError: (err) => log.warn({ error: message(err) }, 'leader election'),
        }
      : undefined,
  });
  manager.addInformer(informer);

  if (enabled.has('series')) {
    const reconciler = new SeriesReconciler({
      events,
      indexer: informer.indexer,
      windowMs: options.seriesWindowMs,
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
    const config = options.retentionConfig ? loadRetentionConfig(options.retentionConfig) : undefined;
    const policy = new RetentionPolicy(options.eventTtlMs, config);
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
    log.info(
      { ...(options.retentionConfig ? { file: options.retentionConfig } : {}), rules: policy.describe() },
      options.retentionConfig ? `retention rules from ${options.retentionConfig}` : 'retention rules',
    );
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
          log.warn({ cluster, error: message(err) }, 'mirror source');
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
        targetNamespace: options.namespace || undefined,
      });
      const c = new Controller({
        name: `mirror-${cluster}`,
        reconciler,
        maxConcurrentReconciles: options.mirrorWorkers,
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
      log.info(
        { cluster, server: srcRest.server, watches: sourceInformer.describe() },
        `mirror source ${cluster}: ${srcRest.server}`,
      );
      void sourceInformer.waitForSync().then(() =>
        log.info(
          {
            cluster,
            server: srcRest.server,
            watches: sourceInformer.describe(),
            resourceVersion: sourceInformer.lastSyncResourceVersion,
            events: sourceInformer.indexer.size,
          },
          'mirror source synced',
        ),
      );
    }
  }
  log.info(
    {
      version: keventsVersion,
      node: process.version,
      server: rest.server,
      watches: informer.describe(),
      controllers: [...enabled, ...sources.map((s) => `mirror-${s.name}`)],
      leaderElection: leaderElect
        ? `on: lease ${lease.namespace}/${lease.name} as ${lease.identity}`
        : 'off: this instance leads',
    },
    `kevents-controller ${keventsVersion} starting against ${rest.server}`,
  );
  return manager;
}
