import type { ConfigKind, OpenAPIVerb } from '@kevents/api';
import { buildServer } from './app.js';
import { createLogger, youngGenerationSummary } from '@kevents/cli';
import type { KeventsServer } from './app.js';
import { createStorage } from './storage-factory.js';
import { heapSettingsForStorage } from '../cli/young-generation.js';
import { servingCert } from './tls.js';
import { startAuthentication } from './authentication.js';
import { startEgress, webhookDialFor } from './egress.js';
import { startAuthorization } from './authorization.js';
import { startTracing } from './tracing.js';
import { keventsVersion } from './version.js';
import { webViewSummary } from './ui.js';
import { gracefulShutdown, ServerLifecycle, ServerMetrics, WatchHub } from '@kevents/apiserver';
import type { Socket } from 'node:net';
import type { ApiserverOptions } from '../cli/flags.js';

const loopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/** Listens on `host:port`; an address in use or not allowed is one error line that names `flag`. */
async function listenOn(server: KeventsServer, host: string, port: number, flag: string): Promise<void> {
  try {
    await server.app.listen({ host, port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(
        `${flag}=${port}: ${urlHost(host)}:${port} is in use already; stop what listens there or pick another port`,
      );
    if (code === 'EACCES')
      throw new Error(
        `${flag}=${port}: not allowed to listen on ${urlHost(host)}:${port} (ports below 1024 need privileges)`,
      );
    throw err;
  }
}

/**
 * Starts kevents-apiserver from its options (the parsed flags): builds the store, listens on the HTTPS and/or HTTP
 * ports, logs what listens where, and shuts down gracefully on SIGTERM/SIGINT (see
 * {@link gracefulShutdown}); a second signal exits at once with code 1, as kube-apiserver does.
 */
export async function startApiserver(
  options: ApiserverOptions,
  configs: Partial<Record<ConfigKind, { file: string }>>,
): Promise<void> {
  const log = createLogger({ component: 'kevents-apiserver', level: options.logLevel, format: options.logFormat });
  const host = options.bindAddress;
  const { securePort, insecurePort } = options;
  if (insecurePort > 0 && !loopback(host)) {
    throw new Error(`--insecure-port is refused on the non-loopback address ${host}; use --secure-port`);
  }
  if (securePort === 0 && insecurePort === 0)
    throw new Error('nothing to serve: --secure-port and --insecure-port are both 0');
  const untracedStorage = await createStorage({
    storage: options.storage,
    historyLimit: options.watchHistory,
    caFile: options.storageCafile,
    certFile: options.storageCertfile,
    keyFile: options.storageKeyfile,
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
    ...(options.groupDomain ? { groupDomain: options.groupDomain } : {}),
    registry: metrics.registry,
    log,
  });
  const tracing = await startTracing({
    ...(configs.TracingConfiguration ? { file: configs.TracingConfiguration.file } : {}),
    ...(options.groupDomain ? { groupDomain: options.groupDomain } : {}),
    ...(egress.selector ? { egress: egress.selector } : {}),
  });
  const storage = tracing.storage(untracedStorage);
  const authz = await startAuthorization({
    options,
    ...(configs.AuthorizationConfiguration ? { file: configs.AuthorizationConfiguration.file } : {}),
    build: { dialFor: webhookDialFor(egress.selector), wrapTransport: tracing.webhookTransport },
    metrics,
    log,
  });
  const authorizer = authz.authorizer;
  const webhookDial = webhookDialFor(egress.selector);
  const tokenReviewDial = webhookDial('delegated-authentication');
  const authn = await startAuthentication({
    options,
    ...(tokenReviewDial ? { tokenReviewDial } : {}),
    jwt: { httpClientFor: tracing.httpClientFor(egress.httpClientFor) },
    ...(configs.AuthenticationConfiguration ? { file: configs.AuthenticationConfiguration.file } : {}),
    authorizer: authorizer.name,
    metrics,
    log,
  });
  const { requestTimeoutMs } = options;
  const limits = {
    maxConnections: options.maxConnections,
    http2MaxStreamsPerConnection: options.http2MaxStreamsPerConnection,
    requestTimeoutMs,
  };
  const shared = {
    limits,
    lifecycle,
    storage,
    authorizer,
    ...(authn.authenticator ? { authenticator: authn.authenticator } : {}),
    groupDomain: options.groupDomain,
    discoveryOmittedVerbs: options.discoveryOmitVerbs as readonly OpenAPIVerb[],
    minRequestTimeoutSeconds: options.minRequestTimeout,
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
    const tls = await servingCert(options.tlsCertFile, options.tlsPrivateKeyFile, host);
    if (tls.generated) log.info('no --tls-cert-file given: generated a self-signed serving certificate');
    const server = buildServer({
      ...shared,
      logger: log.child({ listener: 'https' }),
      https: { cert: tls.cert, key: tls.key, ...authn.tls },
    });
    trackConnections(server);
    await listenOn(server, host, securePort, '--secure-port');
    servers.push({ server, url: `https://${urlHost(host)}:${(server.app.server.address() as { port: number }).port}` });
  }
  if (insecurePort > 0) {
    const server = buildServer(shared);
    trackConnections(server);
    await listenOn(server, host, insecurePort, '--insecure-port');
    servers.push({ server, url: `http://${urlHost(host)}:${(server.app.server.address() as { port: number }).port}` });
  }
  const served = [...new Set(servers[0]!.server.installed.map((i) => i.scope.view.groupVersion))].join(', ');
  log.info({ version: keventsVersion, node: process.version }, `kevents-apiserver ${keventsVersion} started`);
  log.info({ storage: storage.description }, `storage: ${storage.description}`);
  log.info({}, youngGenerationSummary(heapSettingsForStorage(options.storage)));
  log.info({}, egress.summary);
  log.info({}, tracing.summary);
  log.info({}, authn.summary);
  log.info({}, authz.summary);
  if (options.discoveryOmitVerbs.length > 0) {
    const verbs = options.discoveryOmitVerbs.join(',');
    log.info({ verbs }, `discovery leaves out the verbs ${verbs} (still served)`);
  }
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
  // Over HTTPS kubectl asks for a username when it has no credentials at all; with no
  // authentication configured any bearer token is anonymous (as an unauthenticated request is).
  const https = first.startsWith('https');
  const flags = https ? ` --insecure-skip-tls-verify${authn.authenticator ? '' : ' --token=none'}` : '';
  log.info(`try: kubectl --server ${first}${flags} get events.events.k8s.io -A`);
  log.info({ url: `${first}/ui/` }, webViewSummary(first));

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
      delayMs: options.shutdownDelayDurationMs,
      requestTimeoutMs,
      watchGraceMs: options.shutdownWatchTerminationGracePeriodMs,
      sendRetryAfter: options.shutdownSendRetryAfter,
    });
    await tracing.shutdown().catch((err: unknown) => log.warn({ err: String(err) }, 'tracing: flushing spans failed'));
    log.info(outcome, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
