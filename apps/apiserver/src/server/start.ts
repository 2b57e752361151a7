import type { ConfigKind } from '@kevents/api';
import { buildServer } from './app.js';
import { createLogger } from './logger.js';
import type { KeventsServer } from './app.js';
import { createStorage } from './storage-factory.js';
import { servingCert } from './tls.js';
import { startAuthentication } from './authentication.js';
import { startAuthorization } from './authorization.js';
import { keventsVersion } from './version.js';
import { ServerMetrics, WatchHub } from '@kevents/apiserver';

const loopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * Starts kevents-apiserver from parsed flags: builds the store, listens on the HTTPS and/or HTTP
 * ports, logs what listens where, and shuts down cleanly on SIGTERM/SIGINT (stop accepting, end
 * watches, close the store).
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
  const storage = await createStorage({
    storage: flags['storage'] ?? 'memory',
    historyLimit: Number(flags['watch-history']),
    caFile: flags['storage-cafile'] ?? '',
    certFile: flags['storage-certfile'] ?? '',
    keyFile: flags['storage-keyfile'] ?? '',
    log,
  });
  const watches = new WatchHub();
  const metrics = new ServerMetrics(() => watches.counts());
  const authz = await startAuthorization({
    flags,
    ...(configs.AuthorizationConfiguration ? { file: configs.AuthorizationConfiguration.file } : {}),
    metrics,
    log,
  });
  const authorizer = authz.authorizer;
  const authn = await startAuthentication({
    flags,
    ...(configs.AuthenticationConfiguration ? { file: configs.AuthenticationConfiguration.file } : {}),
    authorizer: authorizer.name,
    metrics,
    log,
  });
  const shared = {
    storage,
    authorizer,
    ...(authn.authenticator ? { authenticator: authn.authenticator } : {}),
    groupDomain: flags['group-domain'],
    minRequestTimeoutSeconds: Number(flags['min-request-timeout']),
    watches,
    metrics,
    logger: log.child({ listener: 'http' }),
  };
  const servers: { server: KeventsServer; url: string }[] = [];
  if (securePort > 0) {
    const tls = await servingCert(flags['tls-cert-file'] ?? '', flags['tls-private-key-file'] ?? '', host);
    if (tls.generated) log.info('no --tls-cert-file given: generated a self-signed serving certificate');
    const server = buildServer({ ...shared, https: { cert: tls.cert, key: tls.key, ...authn.tls } });
    await server.app.listen({ host, port: securePort });
    servers.push({ server, url: `https://${urlHost(host)}:${(server.app.server.address() as { port: number }).port}` });
  }
  if (insecurePort > 0) {
    const server = buildServer(shared);
    await server.app.listen({ host, port: insecurePort });
    servers.push({ server, url: `http://${urlHost(host)}:${(server.app.server.address() as { port: number }).port}` });
  }
  const served = [...new Set(servers[0]!.server.installed.map((i) => i.scope.view.groupVersion))].join(', ');
  log.info({ version: keventsVersion, node: process.version }, `kevents-apiserver ${keventsVersion} started`);
  log.info({ storage: storage.description }, `storage: ${storage.description}`);
  for (const [kind, c] of Object.entries(configs))
    if (kind !== 'AuthenticationConfiguration' && kind !== 'AuthorizationConfiguration')
      log.info({ kind, file: c.file }, `config: ${kind} from ${c.file} (validated; enforcement is not built yet)`);
  log.info({}, authn.summary);
  log.info({}, authz.summary);
  for (const { url } of servers) log.info({ url }, `serving ${served} on ${url}`);
  const first = servers[servers.length - 1]!.url;
  const insecure = first.startsWith('https') ? ' --insecure-skip-tls-verify' : '';
  log.info(`try: kubectl --server ${first}${insecure} get events.events.k8s.io -A`);

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new requests, ending watches');
    authz.close();
    authn.close();
    await shared.watches.closeAll();
    await Promise.all(servers.map(({ server }) => server.app.close()));
    await storage.close();
    log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
