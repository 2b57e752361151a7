import { readFile } from 'node:fs/promises';
import type { ConnectionOptions } from 'node:tls';
import type { EgressSelectorConfiguration } from '@kevents/api';
import type { Registry } from 'prom-client';
import type { EgressDialer } from './dialer.js';
import { DirectDialer } from './direct.js';
import { EgressDialError } from './errors.js';
import { GrpcDialer } from './grpc.js';
import { HttpConnectDialer } from './http-connect.js';
import type { HttpConnectTransport } from './http-connect.js';
import type { KonnectivityTimeouts } from './konnectivity/tunnel.js';
import { EgressDialerMetrics, KonnectivityClientMetrics } from './metrics.js';

/** The three egress selections kube-apiserver knows. */
export type EgressSelectionName = 'controlplane' | 'cluster' | 'etcd';

/** Options of {@link EgressSelector.fromConfiguration}. */
export interface EgressSelectorOptions {
  /** Where the egress dialer and konnectivity client metrics are registered (none: not exported). */
  readonly registry?: Registry;
  readonly log?: { warn(o: object, msg: string): void };
  /** Shorter konnectivity timeouts (tests). */
  readonly konnectivityTimeouts?: KonnectivityTimeouts;
}

/**
 * kube-apiserver's `EgressSelector`: one dialer per configured selection. {@link lookup} of a
 * selection that is not configured returns undefined, and the consumer uses its default dialer.
 */
export class EgressSelector {
  readonly #dialers: ReadonlyMap<EgressSelectionName, EgressDialer>;
  readonly metrics: EgressDialerMetrics;
  readonly konnectivityMetrics: KonnectivityClientMetrics;

  private constructor(
    dialers: ReadonlyMap<EgressSelectionName, EgressDialer>,
    metrics: EgressDialerMetrics,
    konnectivity: KonnectivityClientMetrics,
  ) {
    this.#dialers = dialers;
    this.metrics = metrics;
    this.konnectivityMetrics = konnectivity;
  }

  /**
   * Builds the dialers of a decoded, validated configuration (TLS files are read here).
   * `master` is taken as `controlplane`, with a deprecation warning.
   * @throws EgressDialError (`InvalidConfiguration`) `failed to create dialer for egressSelection "<name>": ...`
   *   or `unrecognized service name <name>`.
   */
  static async fromConfiguration(
    config: EgressSelectorConfiguration,
    options: EgressSelectorOptions = {},
  ): Promise<EgressSelector> {
    const metrics = new EgressDialerMetrics(options.registry);
    const konnectivity = new KonnectivityClientMetrics(options.registry);
    const dialers = new Map<EgressSelectionName, EgressDialer>();
    for (const s of config.egressSelections ?? []) {
      const name = selectionName(s.name ?? '', options.log);
      const c = s.connection ?? {};
      const invalid = (why: string): EgressDialError =>
        new EgressDialError(
          'InvalidConfiguration',
          `failed to create dialer for egressSelection ${JSON.stringify(name)}: ${why}`,
          {
            selection: name,
            proxy: c.transport?.tcp?.url ?? c.transport?.uds?.udsName ?? '',
            stage: 'connect',
          },
        );
      let dialer: EgressDialer;
      switch (c.proxyProtocol) {
        case 'Direct':
          dialer = new DirectDialer(name);
          break;
        case 'HTTPConnect':
          if (c.transport?.uds)
            dialer = new HttpConnectDialer(name, { kind: 'uds', path: c.transport.uds.udsName ?? '' }, metrics);
          else if (c.transport?.tcp)
            dialer = new HttpConnectDialer(name, await tcpTransport(c.transport.tcp, invalid), metrics);
          else throw invalid('Either a TCP or UDS transport must be specified');
          break;
        case 'GRPC':
          if (!c.transport?.uds) throw invalid('UDS transport must be specified for GRPC');
          dialer = new GrpcDialer(name, c.transport.uds.udsName ?? '', {
            metrics,
            konnectivity,
            ...(options.konnectivityTimeouts ? { timeouts: options.konnectivityTimeouts } : {}),
          });
          break;
        default:
          throw invalid(`unrecognized service connection protocol ${JSON.stringify(c.proxyProtocol ?? '')}`);
      }
      dialers.set(name, dialer);
    }
    return new EgressSelector(dialers, metrics, konnectivity);
  }

  /** The dialer of a selection, or undefined when it is not configured (use the default). */
  lookup(name: string): EgressDialer | undefined {
    const n = name.toLowerCase() === 'master' ? 'controlplane' : name.toLowerCase();
    return this.#dialers.get(n as EgressSelectionName);
  }

  /** The configured selections and how each dials, for the startup log. */
  describe(): string {
    return [...this.#dialers.values()]
      .map((d) => (d.proxy ? `${d.selection} via ${d.protocol} ${d.proxy}` : `${d.selection} ${d.protocol}`))
      .join('; ');
  }
}

function selectionName(raw: string, log?: { warn(o: object, msg: string): void }): EgressSelectionName {
  const n = raw.toLowerCase();
  if (n === 'master') {
    log?.warn({ name: raw }, "EgressSelection name 'master' is deprecated, use 'controlplane' instead");
    return 'controlplane';
  }
  if (n === 'controlplane' || n === 'cluster' || n === 'etcd') return n;
  throw new EgressDialError('InvalidConfiguration', `unrecognized service name ${raw}`, {
    selection: raw,
    proxy: '',
    stage: 'connect',
  });
}

async function tcpTransport(
  tcp: {
    url?: string;
    tlsConfig?: { caBundle?: string; clientCert?: string; clientKey?: string; tlsServerName?: string };
  },
  invalid: (why: string) => EgressDialError,
): Promise<HttpConnectTransport> {
  let u: URL;
  try {
    u = new URL(tcp.url ?? '');
  } catch (e) {
    throw invalid(`invalid proxy server url ${JSON.stringify(tcp.url ?? '')}: ${(e as Error).message}`);
  }
  if (!u.port) throw invalid(`invalid proxy server url ${JSON.stringify(tcp.url)}: missing port in address`);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(u.port);
  // kevents: a plain `http://` proxy is a CONNECT over TCP without TLS (kube-apiserver dereferences a nil TLS config).
  if (u.protocol === 'http:') return { kind: 'tcp', host, port };
  const t = tcp.tlsConfig ?? {};
  let cert: string;
  let key: string;
  try {
    [cert, key] = await Promise.all([readFile(t.clientCert ?? '', 'utf8'), readFile(t.clientKey ?? '', 'utf8')]);
  } catch (e) {
    throw invalid(`failed to read key pair ${t.clientCert ?? ''} & ${t.clientKey ?? ''}, got ${(e as Error).message}`);
  }
  let ca: string | undefined;
  if (t.caBundle) {
    try {
      ca = await readFile(t.caBundle, 'utf8');
    } catch (e) {
      throw invalid(`failed to read cert file ${t.caBundle}, got ${(e as Error).message}`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw invalid('failed to append CA cert to the cert pool');
  }
  const tls: ConnectionOptions = {
    cert,
    key,
    ...(ca !== undefined ? { ca } : {}),
    ...(t.tlsServerName ? { servername: t.tlsServerName } : {}),
  };
  return { kind: 'tcp', host, port, tls };
}
