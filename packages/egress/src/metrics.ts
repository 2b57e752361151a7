import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

/** The `protocol` label of the egress dialer metrics. */
export type EgressMetricProtocol = 'http_connect' | 'grpc';
/** The `transport` label of the egress dialer metrics. */
export type EgressMetricTransport = 'tcp' | 'uds';

/**
 * kube-apiserver's egress dialer metrics (`k8s.io/apiserver/pkg/server/egressselector/metrics`,
 * ALPHA): starts, latency of successful dials, and failures by stage. Direct dials are not metered.
 */
export class EgressDialerMetrics {
  readonly starts: Counter<'protocol' | 'transport'>;
  readonly latencies: Histogram<'protocol' | 'transport'>;
  readonly failures: Counter<'protocol' | 'transport' | 'stage'>;

  constructor(registry?: Registry) {
    const registers = registry ? [registry] : [];
    this.starts = new Counter({
      name: 'apiserver_egress_dialer_dial_start_total',
      help: 'Dial starts, labeled by the protocol (http-connect or grpc) and transport (tcp or uds).',
      labelNames: ['protocol', 'transport'],
      registers,
    });
    this.latencies = new Histogram({
      name: 'apiserver_egress_dialer_dial_duration_seconds',
      help: 'Dial latency histogram in seconds, labeled by the protocol (http-connect or grpc), transport (tcp or uds)',
      labelNames: ['protocol', 'transport'],
      buckets: [0.005, 0.025, 0.1, 0.5, 2.5, 12.5],
      registers,
    });
    this.failures = new Counter({
      name: 'apiserver_egress_dialer_dial_failure_count',
      help: 'Dial failure count, labeled by the protocol (http-connect or grpc), transport (tcp or uds), and stage (connect or proxy). The stage indicates at which stage the dial failed',
      labelNames: ['protocol', 'transport', 'stage'],
      registers,
    });
  }
}

/** The `reason` label of `konnectivity_network_proxy_client_dial_failure_total`. */
export type KonnectivityDialFailureReason =
  'unknown' | 'timeout' | 'context' | 'endpoint' | 'dialclosed' | 'tunnelclosed' | 'tunnelstarted';

/** The `status` label of `konnectivity_network_proxy_client_client_connections`. */
export type KonnectivityConnectionStatus = 'created' | 'dialing' | 'ok' | 'closing';

/**
 * The konnectivity client metrics that kube-apiserver registers
 * (`konnectivity-client/pkg/client/metrics`, namespace `konnectivity_network_proxy`, subsystem `client`).
 */
export class KonnectivityClientMetrics {
  readonly dialFailures: Counter<'reason'>;
  readonly connections: Gauge<'status'>;
  readonly packets: Counter<'segment' | 'packet_type'>;
  readonly streamErrors: Counter<'segment' | 'code' | 'packet_type'>;

  constructor(registry?: Registry) {
    const registers = registry ? [registry] : [];
    this.dialFailures = new Counter({
      name: 'konnectivity_network_proxy_client_dial_failure_total',
      help: 'Number of dial failures observed, by reason (example: remote endpoint error)',
      labelNames: ['reason'],
      registers,
    });
    this.connections = new Gauge({
      name: 'konnectivity_network_proxy_client_client_connections',
      help: 'Number of open client connections, by status (Example: dialing)',
      labelNames: ['status'],
      registers,
    });
    this.packets = new Counter({
      name: 'konnectivity_network_proxy_client_stream_packets_total',
      help: 'Count of packets processed, by segment and packet type (example: from_client, DIAL_REQ)',
      labelNames: ['segment', 'packet_type'],
      registers,
    });
    this.streamErrors = new Counter({
      name: 'konnectivity_network_proxy_client_stream_errors_total',
      help: 'Count of gRPC stream errors, by segment, grpc Code, packet type. (example: from_agent, Code.Unavailable, DIAL_RSP)',
      labelNames: ['segment', 'code', 'packet_type'],
      registers,
    });
  }
}
