import type { Duplex } from 'node:stream';
import { dialDeadline, joinHostPort } from './dialer.js';
import type { DialAddress, DialOptions, EgressDialer } from './dialer.js';
import { EgressDialError } from './errors.js';
import type { EgressDialerMetrics, KonnectivityClientMetrics } from './metrics.js';
import { dialKonnectivity } from './konnectivity/tunnel.js';
import type { KonnectivityTimeouts } from './konnectivity/tunnel.js';

/**
 * `GRPC` over a Unix socket: every dial opens a new single-use konnectivity tunnel (see
 * `konnectivity/tunnel.ts`) and returns its connection.
 */
export class GrpcDialer implements EgressDialer {
  readonly selection: string;
  readonly protocol = 'GRPC' as const;
  readonly proxy: string;
  readonly #metrics: EgressDialerMetrics | undefined;
  readonly #konnectivity: KonnectivityClientMetrics | undefined;
  readonly #timeouts: KonnectivityTimeouts | undefined;

  constructor(
    selection: string,
    udsName: string,
    o: {
      metrics?: EgressDialerMetrics;
      konnectivity?: KonnectivityClientMetrics;
      timeouts?: KonnectivityTimeouts;
    } = {},
  ) {
    this.selection = selection;
    this.proxy = udsName;
    this.#metrics = o.metrics;
    this.#konnectivity = o.konnectivity;
    this.#timeouts = o.timeouts;
  }

  async dial(address: DialAddress, options?: DialOptions): Promise<Duplex> {
    const labels = { protocol: 'grpc', transport: 'uds' } as const;
    const start = performance.now();
    this.#metrics?.starts.inc(labels);
    // The tunnel has its own 30 s limits; the caller's signal (and timeoutMs when given) end it sooner.
    const deadline = dialDeadline(options, 2 ** 31 - 1);
    try {
      const conn = await dialKonnectivity(
        {
          selection: this.selection,
          udsName: this.proxy,
          signal: deadline.signal,
          ...(this.#konnectivity ? { metrics: this.#konnectivity } : {}),
          ...(this.#timeouts ? { timeouts: this.#timeouts } : {}),
        },
        joinHostPort(address.host, address.port),
      );
      this.#metrics?.latencies.observe(labels, (performance.now() - start) / 1000);
      return conn;
    } catch (e) {
      const stage = e instanceof EgressDialError ? e.stage : 'connect';
      this.#metrics?.failures.inc({ ...labels, stage });
      throw e;
    } finally {
      deadline.done();
    }
  }
}
