import type { ConfigKind } from '@kevents/api';
import { buildServer } from './app.js';
import { createLogger } from './logger.js';
import type { KeventsServer } from './app.js';
import { createStorage } from './storage-factory.js';
import { servingCert } from './tls.js';
import { startAuthentication } from './authentication.js';
import { startEgress, webhookDialFor } from './egress.js';
import { startAuthorization } from './authorization.js';
import { startTracing } from './tracing.js';
import { keventsVersion } from './version.js';
import { gracefulShutdown, ServerLifecycle, ServerMetrics, WatchHub } from '@kevents/apiserver';
import type { Socket } from 'node:net';
import { parseDuration } from '../cli/flags.js';

const loopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * Starts kevents-apiserver from parsed flags: builds the store, listens on the HTTPS and/or HTTP
 * ports, logs what listens where, and shuts down gracefully on SIGTERM/SIGINT (see
 * {@link gracefulShutdown}); a second signal exits at once with code 1, as kube-apiserver does.
 */
export async function startApiserver(
  flags: Record<string, string>,
  configs: Partial<Record<ConfigKind, { file: string }>>,
): Promise<void> {
  const log = createLogger({
    level: flags['log-level'] ?? 'info',
    format: flags['log-format'] === 'text' ? 'text' : 'json',
  });
  const host = flags['bind-address'] ?? '127.0.0.1';
  const securePort = Number(flags['secure-port']);
  const insecurePort = Number(flags['insecure-port']);
  if (insecurePort > 0 && !loopback(host)) {
    throw new Error(`--insecure-port is refused on the non-loopback address ${host}; use --secure-port`);
  }
  if (securePort === 0 && insecurePort === 0)
    throw new Error('nothing to serve: --secure-port and --insecure-port are both 0');
  const untracedStorage = await createStorage({
    storage: flags['storage'] ?? 'memory',
    historyLimit: Number(flags['watch-history']),
    caFile: flags['storage-cafile'] ?? '',
    certFile: flags['storage-certfile'] ?? '',
    keyFile: flags['storage-keyfile'] ?? '',
    log,
  });
  const watches = new WatchHub();
  const lifecycle = new ServerLifecycle();
  const metrics = new ServerMetrics(
    () => watches.counts(),
    () => watches.terminatedCounts(),
  );
  const egress = await startEgress({
    ...(configs.EgressSelectorConfiguration ? { file: configs.EgressSelectorConfiguration.file } : {}),
    ...(flags['group-domain'] ? { groupDomain: flags['group-domain'] } : {}),
    registry: metrics.registry,
    log,
  });
  const tracing = await startTracing({
    ...(configs.TracingConfiguration ? { file: configs.TracingConfiguration.file } : {}),
    ...(flags['group-domain'] ? { groupDomain: flags['group-domain'] } : {}),
    ...(egress.selector ? { egress: egress.selector } : {}),
  });
  const storage = tracing.storage(untracedStorage);
  const authz = await startAuthorization({
    flags,
    ...(configs.AuthorizationConfiguration ? { file: configs.AuthorizationConfiguration.file } : {}),
    build: { dialFor: webhookDialFor(egress.selector), wrapTransport: tracing.webhookTransport },
    metrics,
    log,
  });
  const authorizer = authz.authorizer;
  const webhookDial = webhookDialFor(egress.selector);
  const tokenReviewDial = webhookDial('delegated-authentication');
  const authn = await startAuthentication({
    flags,
    ...(tokenReviewDial ? { tokenReviewDial } : {}),
    jwt: { httpClientFor: tracing.httpClientFor(egress.httpClientFor) },
    ...(configs.AuthenticationConfiguration ? { file: configs.AuthenticationConfiguration.file } : {}),
    authorizer: authorizer.name,
    metrics,
    log,
  });
  const requestTimeoutMs = parseDuration(flags['request-timeout'] ?? '1m0s') ?? 60_000;
  const limits = {
    maxConnections: Number(flags['max-connections'] ?? 10_000),
    http2MaxStreamsPerConnection: Number(flags['http2-max-streams-per-connection'] ?? 0),
    requestTimeoutMs,
  };
  const shared = {
    limits,
    lifecycle,
    storage,
    authorizer,
    ...(authn.authenticator ? { authenticator: authn.authenticator } : {}),
    groupDomain: flags['group-domain'],
    minRequestTimeoutSeconds: Number(flags['min-request-timeout']),
    watches,
    metrics,
    logger: log.child({ listener: 'http' }),
    ...(tracing.server ? { tracing: tracing.server } : {}),
  };
  const servers: { server: KeventsServer; url: string }[] = [];
  // Every connection of every listener, so the end of the grace period can cut what is left.
  const connections = new Set<Socket>();
  const trackConnections = (server: KeventsServer): void => {
    const net = server.app.server as unknown as NodeJS.EventEmitter;
    net.on('connection', (socket: Socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
    });
  };
  if (securePort > 0) {
    const tls = await servingCert(flags['tls-cert-file'] ?? '', flags['tls-private-key-file'] ?? '', host);
    if (tls.generated) log.info('no --tls-cert-file given: generated a self-signed serving certificate');
    const server = buildServer({ ...shared, https: { cert: tls.cert, key: tls.key, ...authn.tls } });
    trackConnections(server);
    await server.app.listen({ host, port: securePort });
    servers.push({ server, url: `https://${urlHost(host)}:${(server.app.server.address() as { port: number }).port}` });
  }
  if (insecurePort > 0) {
    const server = buildServer(shared);
    trackConnections(server);
    await server.app.listen({ host, port: insecurePort });
    servers.push({ server, url: `http://${urlHost(host)}:${(server.app.server.address() as { port: number }).port}` });
  }
  const served = [...new Set(servers[0]!.server.installed.map((i) => i.scope.view.groupVersion))].join(', ');
  log.info({ version: keventsVersion, node: process.version }, `kevents-apiserver ${keventsVersion} started`);
  log.info({ storage: storage.description }, `storage: ${storage.description}`);
  log.info({}, egress.summary);
  log.info({}, tracing.summary);
  log.info({}, authn.summary);
  log.info({}, authz.summary);
  for (const { url } of servers) log.info({ url }, `serving ${served} on ${url}`);
  const streams = limits.http2MaxStreamsPerConnection || 100;
  const cap = limits.maxConnections > 0 ? `${limits.maxConnections} connections per listener` : 'no connection cap';
  log.info(
    {
      maxConnections: limits.maxConnections,
      http2MaxStreamsPerConnection: streams,
      requestTimeoutMs,
      watchBacklogLimitEvents: watches.backlogLimitEvents,
      watchBacklogLimitBytes: watches.backlogLimitBytes,
    },
    `limits: ${cap}, ${streams} HTTP/2 streams per connection, a watch ends ${watches.backlogGraceMs} ms after falling ${watches.backlogLimitEvents} events or ${Math.round(watches.backlogLimitBytes / 1024)} KiB behind`,
  );
  const first = servers[servers.length - 1]!.url;
  const insecure = first.startsWith('https') ? ' --insecure-skip-tls-verify' : '';
  log.info(`try: kubectl --server ${first}${insecure} get events.events.k8s.io -A`);

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) {
      log.warn({ signal }, 'second signal received, exiting directly');
      process.exit(1);
    }
    stopping = true;
    authz.close();
    authn.close();
    const outcome = await gracefulShutdown({
      lifecycle,
      watches,
      listeners: servers.map(({ server }) => server.app),
      connections,
      storage,
      log,
      signal,
      delayMs: parseDuration(flags['shutdown-delay-duration'] ?? '0s') ?? 0,
      requestTimeoutMs,
      watchGraceMs: parseDuration(flags['shutdown-watch-termination-grace-period'] ?? '0s') ?? 0,
      sendRetryAfter: flags['shutdown-send-retry-after'] === 'true',
    });
    await tracing.shutdown().catch((err: unknown) => log.warn({ err: String(err) }, 'tracing: flushing spans failed'));
    log.info(outcome, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
