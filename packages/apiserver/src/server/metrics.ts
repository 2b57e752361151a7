import { Counter, Registry, collectDefaultMetrics, Gauge } from 'prom-client';
import { ResultMetrics } from '@kevents/metrics';
import type { WatchLabels } from '../watch/watch-hub.js';

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

const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

interface Series {
  readonly labels: string;
  count: number;
  sum: number;
  readonly bucketCounts: number[];
}

const escape = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(n));

/**
 * The server's metrics. `apiserver_request_total` and `apiserver_request_duration_seconds`
 * (labelled like Kubernetes') are kept in plain counters on the hot path — one map lookup per
 * request — and written in the Prometheus text format at scrape time, after prom-client's
 * registry (the number of live watches and Node's process metrics). One instance per server.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly watches: Gauge<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  /** Automatic reloads of `--authentication-config` / `--authorization-config`, by outcome (Kubernetes' names). */
  readonly configReloads: Record<'AuthenticationConfiguration' | 'AuthorizationConfiguration', Counter<'status'>>;
  /**
   * `apiserver_authorization_attempts_total{result}` (allowed, denied, no-opinion, error) and
   * `apiserver_authorization_duration_seconds{result}`.
   */
  readonly authorization: ResultMetrics;
  readonly #requests = new Map<string, { labels: string; value: number }>();
  readonly #durations = new Map<string, Series>();

  /** Watches ended because their client did not keep up (Kubernetes' cacher metric). */
  readonly terminatedWatchers: Counter<'group' | 'resource'>;

  /**
   * @param liveWatches how many watch streams are open right now (read at scrape time).
   * @param terminatedWatches how many watches were ended for not keeping up, so far (read at scrape time).
   */
  constructor(
    liveWatches: () => readonly { labels: WatchLabels; count: number }[] = () => [],
    terminatedWatches: () => readonly { group: string; resource: string; count: number }[] = () => [],
  ) {
    this.watches = new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { labels, count } of liveWatches()) {
          const { group, resource, scope, version } = labels;
          this.set({ component: 'apiserver', group, resource, scope, subresource: '', verb: 'WATCH', version }, count);
        }
      },
    });
    this.terminatedWatchers = new Counter({
      name: 'apiserver_terminated_watchers_total',
      help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
      labelNames: ['group', 'resource'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { group, resource, count } of terminatedWatches()) this.inc({ group, resource }, count);
      },
    });
    const reloads = (kind: string, what: string): Counter<'status'> =>
      new Counter({
        name: `apiserver_${kind}_config_controller_automatic_reloads_total`,
        help: `Total number of automatic reloads of ${what} configuration split by status.`,
        labelNames: ['status'],
        registers: [this.registry],
      });
    this.configReloads = {
      AuthenticationConfiguration: reloads('authentication', 'authentication'),
      AuthorizationConfiguration: reloads('authorization', 'authorization'),
    };
    this.authorization = new ResultMetrics(
      this.registry,
      {
        name: 'apiserver_authorization_attempts_total',
        help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
      },
      {
        name: 'apiserver_authorization_duration_seconds',
        help: 'Authorization duration in seconds broken out by result.',
        buckets: Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i),
      },
    );
    collectDefaultMetrics({ register: this.registry });
  }

  readonly #bases = new WeakMap<
    RequestLabels,
    { base: string; codes: Map<number, { labels: string; value: number }>; durations: Series | undefined }
  >();

  /** Records one finished request. Pass the same labels object for the same labels: it is the cache key. */
  observe(l: RequestLabels, code: number, seconds: number): void {
    let b = this.#bases.get(l);
    if (!b) {
      const base = `component="${l.component}",dry_run="${l.dry_run}",group="${escape(l.group)}",resource="${escape(l.resource)}",scope="${l.scope}",subresource="${l.subresource}",verb="${l.verb}",version="${escape(l.version)}"`;
      b = { base, codes: new Map(), durations: undefined };
      this.#bases.set(l, b);
    }
    const base = b.base;
    let c = b.codes.get(code);
    if (!c) {
      const ckey = `${code}|${base}`;
      c = this.#requests.get(ckey) ?? { labels: `code="${code}",${base}`, value: 0 };
      this.#requests.set(ckey, c);
      b.codes.set(code, c);
    }
    c.value++;
    if (l.verb === 'WATCH') return;
    let h = b.durations;
    if (!h) {
      h = this.#durations.get(base);
      if (!h) {
        h = { labels: base, count: 0, sum: 0, bucketCounts: buckets.map(() => 0) };
        this.#durations.set(base, h);
      }
      b.durations = h;
    }
    h.count++;
    h.sum += seconds;
    for (let i = 0; i < buckets.length; i++) {
      if (seconds <= buckets[i]!) {
        h.bucketCounts[i]!++;
        break;
      }
    }
  }

  /** The Content-Type of {@link text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in the Prometheus text exposition format. */
  async text(): Promise<string> {
    const out: string[] = [
      '# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      '# TYPE apiserver_request_total counter',
    ];
    for (const c of this.#requests.values()) out.push(`apiserver_request_total{${c.labels}} ${c.value}`);
    out.push(
      '# HELP apiserver_request_duration_seconds Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      '# TYPE apiserver_request_duration_seconds histogram',
    );
    for (const h of this.#durations.values()) {
      let cumulative = 0;
      buckets.forEach((b, i) => {
        cumulative += h.bucketCounts[i]!;
        out.push(`apiserver_request_duration_seconds_bucket{le="${b}",${h.labels}} ${cumulative}`);
      });
      out.push(`apiserver_request_duration_seconds_bucket{le="+Inf",${h.labels}} ${h.count}`);
      out.push(`apiserver_request_duration_seconds_sum{${h.labels}} ${fmt(h.sum)}`);
      out.push(`apiserver_request_duration_seconds_count{${h.labels}} ${h.count}`);
    }
    return `${out.join('\n')}\n${await this.registry.metrics()}`;
  }
}
