import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** prom-client's metric kinds, for controllers that add their own metrics to {@link RuntimeMetrics.registry}. */
export { Counter, Gauge, Histogram };

/** Buckets of controller-runtime's work queue histograms (10 µs .. ~10 s, exponential by 10). */
const queueBuckets = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10];

/**
 * The metrics of controller-runtime, with the names controller-runtime and client-go export
 * (`workqueue_*` labelled by `name`, `controller_runtime_reconcile_*` by `controller`,
 * `leader_election_master_status` by `name`). One set per registry.
 */
export class RuntimeMetrics {
  readonly registry: Registry;
  readonly workqueueDepth: Gauge<'name'>;
  readonly workqueueAdds: Counter<'name'>;
  readonly workqueueRetries: Counter<'name'>;
  readonly workqueueQueueDuration: Histogram<'name'>;
  readonly workqueueWorkDuration: Histogram<'name'>;
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly leaderStatus: Gauge<'name'>;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const r = [registry];
    this.workqueueDepth = new Gauge({
      name: 'workqueue_depth',
      help: 'Current depth of workqueue',
      labelNames: ['name'],
      registers: r,
    });
    this.workqueueAdds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: ['name'],
      registers: r,
    });
    this.workqueueRetries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: ['name'],
      registers: r,
    });
    this.workqueueQueueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: ['name'],
      buckets: queueBuckets,
      registers: r,
    });
    this.workqueueWorkDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes',
      labelNames: ['name'],
      buckets: queueBuckets,
      registers: r,
    });
    this.reconcileTotal = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers: r,
    });
    this.reconcileErrors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers: r,
    });
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      registers: r,
    });
    this.leaderStatus = new Gauge({
      name: 'leader_election_master_status',
      help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.',
      labelNames: ['name'],
      registers: r,
    });
  }
}

let shared: RuntimeMetrics | undefined;

/**
 * The process-wide metrics (one prom-client Registry), used by queues, controllers, leader
 * electors and managers that are not given their own: as controller-runtime registers its
 * metrics in one global registry that the manager serves.
 */
export function defaultRuntimeMetrics(): RuntimeMetrics {
  return (shared ??= new RuntimeMetrics());
}
