import { Counter, Histogram, Registry, collectDefaultMetrics, Gauge } from 'prom-client';

/** Labels of one request, named as kube-apiserver names them. */
export interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
  dry_run: string;
}

/**
 * The server's Prometheus registry: `apiserver_request_total` and
 * `apiserver_request_duration_seconds` labelled like Kubernetes', the number of live watches,
 * and Node's process metrics. One registry per server, so several servers share a process.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<keyof RequestLabels | 'code'>;
  readonly duration: Histogram<keyof RequestLabels>;
  readonly watches: Gauge<'group' | 'version' | 'kind'>;

  constructor() {
    this.requests = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: ['component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
      registers: [this.registry],
    });
    this.watches = new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.',
      labelNames: ['group', 'version', 'kind'],
      registers: [this.registry],
    });
    collectDefaultMetrics({ register: this.registry });
  }

  observe(labels: RequestLabels, code: number, seconds: number): void {
    const { component, dry_run, group, resource, scope, subresource, verb, version } = labels;
    const ordered = { component, dry_run, group, resource, scope, subresource, verb, version };
    this.requests.inc({ code: String(code), ...ordered });
    if (verb !== 'WATCH') this.duration.observe(ordered, seconds);
  }
}
