import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseDuration, type Event, type Lease } from '@kevents/api';
import {
  Controller,
  Informer,
  Manager,
  ResourceClient,
  RestClient,
  RuntimeMetrics,
  objectKey,
} from '@kevents/controller-runtime';
import type { FlagValues } from './cli/flags.js';
import { kubeConfigFromFlags } from './cli/kubeconfig.js';
import type { Log } from './log.js';
import { loadRetentionConfig, RetentionPolicy } from './retention/retention-config.js';
import { RetentionReconciler } from './retention/retention-reconciler.js';
import { seriesIndex, seriesKey } from './series/series-key.js';
import { SeriesReconciler } from './series/series-reconciler.js';

const eventsRef = { group: 'events.k8s.io', version: 'v1', resource: 'events', namespaced: true } as const;
const leasesRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespaced: true } as const;

const ms = (d: string): number => parseDuration(d)! / 1e6;

/**
 * What the controllers keep of an event in the cache: everything but `managedFields` and the
 * note (the series controller reads the series Event itself before it writes it).
 */
function slim(e: Event): Event {
  const { managedFields: _m, ...metadata } = e.metadata;
  const { note: _n, ...rest } = e;
  return { ...rest, metadata };
}

/** Builds the manager, informer and controllers the flags ask for (not started). */
export function buildController(flags: FlagValues, log: Log): Manager {
  const kc = kubeConfigFromFlags(flags);
  const rest = new RestClient(kc, { userAgent: 'kevents-controller' });
  const events = new ResourceClient<Event>(rest, eventsRef);
  const enabled = new Set(
    flags['controllers']!.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const c of enabled)
    if (c !== 'series' && c !== 'retention') throw new Error(`unknown controller "${c}" in --controllers`);
  const metrics = new RuntimeMetrics();
  const informer = new Informer<Event>(events, {
    namespace: flags['namespace'] || undefined,
    transform: slim,
    onError: (err) => log('warn', 'events informer', { error: String((err as Error).message ?? err) }),
  });
  informer.indexer.addIndex(seriesIndex, (e) => [seriesKey(e)]);
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
            leasesRef,
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
      onAdd: (e) => c.enqueue(seriesKey(e)),
      onUpdate: (_o, e) => c.enqueue(seriesKey(e)),
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
    const schedule = (e: Event): void => c.enqueueAfter(objectKey(e), reconciler.delayFor(e));
    informer.addEventHandler({ onAdd: schedule, onUpdate: (_o, e) => schedule(e) });
    manager.addController(c);
    log('info', 'retention rules', { rules: policy.describe() });
  }
  log('info', 'kevents-controller starting', {
    server: rest.server,
    watches: informer.describe(),
    controllers: [...enabled],
    leaderElection: leaderElect
      ? `on: lease ${lease.namespace}/${lease.name} as ${lease.identity}`
      : 'off: this instance leads',
  });
  return manager;
}
