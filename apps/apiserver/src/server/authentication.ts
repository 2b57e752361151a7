import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { AuthenticationConfiguration, Authenticator } from '@kevents/api';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import {
  ExtensionAuthentication,
  extensionAuthenticationConfigMap,
  AuthenticationChain,
  AuthenticationMetrics,
  TokenReviewAuthenticator,
  hashLabel,
  tokenReviewsPath,
} from '@kevents/authn';
import { loadWebhookConnection, webhookTransport } from '@kevents/authz';
import type { WebhookConnection, WebhookDialer } from '@kevents/authz';
import type { JwtAuthenticatorOptions, RequestHeaderConfig } from '@kevents/authn';
import type { ServerMetrics } from '@kevents/apiserver';
import { ConfigWatcher } from '@kevents/config';
import type { ApiserverOptions } from '../cli/flags.js';
import { AuthenticationConfigApplier } from './authentication-reload.js';
import { reloadMetrics, reportReloads } from './reload-metrics.js';

/** What the servers need from authentication, and how to stop it. */
export interface AuthenticationSetup {
  /** The chain; undefined when nothing is configured (every request is `system:anonymous`). */
  readonly authenticator?: Authenticator;
  /** TLS options asking clients for a certificate (with `--client-ca-file`). */
  readonly tls: { ca?: string; requestCert?: boolean };
  /** One line for the startup log. */
  readonly summary: string;
  close(): void;
}

/** kube-apiserver's identity: `apiserver-<base32 of the first 16 bytes of sha256(hostname)>`. */
export function apiserverId(host = hostname()): string {
  const digest = createHash('sha256').update(host).digest().subarray(0, 16);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `apiserver-${out}`;
}

/**
 * The request-header settings of the `--requestheader-*` flags (k8s.io/apiserver's
 * `RequestHeaderAuthenticationOptions`); undefined without `--requestheader-client-ca-file`.
 */
export async function requestHeaderFromFlags(options: ApiserverOptions): Promise<RequestHeaderConfig | undefined> {
  const file = options.requestheaderClientCaFile;
  if (!file) return undefined;
  return {
    clientCA: await readFile(file, 'utf8'),
    allowedNames: [...options.requestheaderAllowedNames],
    usernameHeaders: [...options.requestheaderUsernameHeaders],
    uidHeaders: [...options.requestheaderUidHeaders],
    groupHeaders: [...options.requestheaderGroupHeaders],
    extraHeaderPrefixes: [...options.requestheaderExtraHeadersPrefix],
  };
}

/**
 * The delegated token authenticator of `--authentication-kubeconfig` (k8s.io/apiserver's
 * `DelegatingAuthenticationOptions`): TokenReviews POSTed to the cluster's
 * `/apis/authentication.k8s.io/v1/tokenreviews` with the kubeconfig's credentials, a 10 s client
 * timeout, answers cached for `--authentication-token-webhook-cache-ttl`.
 */
export function tokenReviewFromFlags(
  options: ApiserverOptions,
  dial?: WebhookDialer,
): TokenReviewAuthenticator | undefined {
  const file = options.authenticationKubeconfig;
  if (!file) return undefined;
  const conn = loadWebhookConnection(file);
  const transport = webhookTransport(
    { ...conn, server: conn.server.replace(/\/+$/, '') + tokenReviewsPath },
    { timeoutMs: 10_000, ...(dial ? { dial } : {}) },
  );
  return new TokenReviewAuthenticator({
    transport: (body) => transport(body),
    cacheTtlMs: options.authenticationTokenWebhookCacheTtlMs,
  });
}

/** One GET to the cluster of a kubeconfig (its CA, client certificate or token), with a 10 s timeout. */
export function kubeGet(conn: WebhookConnection, path: string): Promise<{ status: number; body: string }> {
  const token = conn.token ?? (conn.tokenFile ? readFileSync(conn.tokenFile, 'utf8').trim() : undefined);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      conn.server.replace(/\/+$/, '') + path,
      {
        method: 'GET',
        agent: false,
        timeout: 10_000,
        headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(conn.ca ? { ca: conn.ca } : {}),
        ...(conn.clientCertificate ? { cert: conn.clientCertificate, key: conn.clientKey } : {}),
        ...(conn.tlsServerName ? { servername: conn.tlsServerName } : {}),
        rejectUnauthorized: !conn.insecureSkipTLSVerify,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`Get "${conn.server}${path}": timeout`)));
    req.on('error', reject);
    req.end();
  });
}

/** Options of {@link startAuthentication}. */
export interface StartAuthenticationOptions {
  /** How JWT authenticators reach their issuers (the egress seam); default direct HTTPS. */
  readonly jwt?: Omit<JwtAuthenticatorOptions, 'metrics'>;
  readonly options: ApiserverOptions;
  /** How TokenReviews reach the cluster (the egress `controlplane` dialer); default direct. */
  readonly tokenReviewDial?: WebhookDialer;
  /** `--authentication-config` (already validated by main). */
  readonly file?: string;
  /** The authorizer's name: the legacy `--anonymous-auth` is forced off with AlwaysAllow, as kube-apiserver does. */
  readonly authorizer: string;
  readonly metrics: ServerMetrics;
  readonly log: {
    info(o: object, msg: string): void;
    warn(o: object, msg: string): void;
    error(o: object, msg: string): void;
  };
  /** Reload controller timings (tests shorten them). */
  readonly reload?: { pollMs?: number; healthTimeoutMs?: number; retireAfterMs?: number };
}

/**
 * Builds kube-apiserver's authenticator from `--authentication-config`, `--client-ca-file` and
 * `--anonymous-auth`, registers the authentication metrics on the server's registry, and starts
 * the automatic reload of the config file.
 */
export async function startAuthentication(o: StartAuthenticationOptions): Promise<AuthenticationSetup> {
  const { options, log } = o;
  const caFile = options.clientCaFile;
  const clientCA = caFile ? await readFile(caFile, 'utf8') : undefined;
  const requestHeader = await requestHeaderFromFlags(options);
  const tokenReview = tokenReviewFromFlags(options, o.tokenReviewDial);
  // k8s.io/apiserver's lookup: what the flags leave out comes from the cluster's ConfigMap.
  let extension: ExtensionAuthentication | undefined;
  const kubeconfig = options.authenticationKubeconfig;
  if (kubeconfig && !options.authenticationSkipLookup && (clientCA === undefined || !requestHeader)) {
    const conn = loadWebhookConnection(kubeconfig);
    extension = new ExtensionAuthentication({
      get: () => kubeGet(conn, extensionAuthenticationConfigMap.path),
      clientCA: clientCA === undefined,
      requestHeader: !requestHeader,
      ...(o.reload?.pollMs !== undefined ? { pollMs: o.reload.pollMs } : {}),
      log,
    });
    await extension.load();
    extension.start();
  }
  // Applies a reloaded file once the chain exists (the watcher starts after it).
  let applier: AuthenticationConfigApplier | undefined;
  const watcher = o.file
    ? await ConfigWatcher.load<AuthenticationConfiguration>(o.file, {
        ...(options.groupDomain ? { groupDomain: options.groupDomain } : {}),
        expectedKind: 'AuthenticationConfiguration',
        ...(o.reload?.pollMs !== undefined ? { intervalMs: o.reload.pollMs } : {}),
        apply: (config) => applier!.apply(config),
      })
    : undefined;
  const config = watcher?.current;
  if (!config && clientCA === undefined && !requestHeader && !tokenReview)
    return {
      tls: {},
      summary: 'authentication: none configured; every request is system:anonymous',
      close: () => undefined,
    };

  let anonymousFlag = options.anonymousAuth;
  if (anonymousFlag && !config?.anonymous && o.authorizer === 'AlwaysAllow') {
    log.warn(
      {},
      'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer',
    );
    anonymousFlag = false;
  }
  const id = apiserverId();
  const metrics = new AuthenticationMetrics(o.metrics.registry, id);
  const chain = new AuthenticationChain({
    ...o.jwt,
    ...(config ? { config } : {}),
    ...(clientCA !== undefined ? { clientCA } : {}),
    ...(requestHeader ? { requestHeader } : {}),
    ...(tokenReview ? { tokenReview } : {}),
    ...(extension ? { extension } : {}),
    anonymousFlag,
    metrics,
  });
  if (watcher && config) {
    applier = new AuthenticationConfigApplier({
      chain,
      initial: config,
      jwt: { ...o.jwt, metrics },
      file: watcher.path,
      log,
      ...(o.reload?.healthTimeoutMs !== undefined ? { healthTimeoutMs: o.reload.healthTimeoutMs } : {}),
      ...(o.reload?.retireAfterMs !== undefined ? { retireAfterMs: o.reload.retireAfterMs } : {}),
    });
    const metricsOfReloads = reloadMetrics(
      'authentication',
      o.metrics.registry,
      o.metrics.configReloads.AuthenticationConfiguration,
      hashLabel(id),
    );
    reportReloads(watcher, 'authentication config', metricsOfReloads, log);
    watcher.watch();
  }
  const parts = [
    config ? `${config.jwt?.length ?? 0} JWT issuer(s) from ${o.file}` : undefined,
    requestHeader
      ? `front-proxy headers (${requestHeader.usernameHeaders!.join(',')}) from clients verified by ${options.requestheaderClientCaFile}${requestHeader.allowedNames!.length ? ` named ${requestHeader.allowedNames!.join(',')}` : ''}`
      : undefined,
    clientCA !== undefined ? `client certificates from ${caFile}` : undefined,
    tokenReview ? `TokenReviews to the cluster of ${options.authenticationKubeconfig}` : undefined,
    extension?.summary,
    chain.anonymous.enabled
      ? chain.anonymous.conditions?.length
        ? `anonymous on ${chain.anonymous.conditions.map((c) => c.path).join(', ')}`
        : 'anonymous'
      : 'no anonymous access',
  ].filter(Boolean);
  return {
    authenticator: chain,
    tls:
      clientCA !== undefined || requestHeader || extension
        ? { ca: [clientCA, requestHeader?.clientCA].filter((x) => x !== undefined).join('\n'), requestCert: true }
        : {},
    summary: `authentication: ${parts.join('; ')}`,
    close: () => {
      watcher?.close();
      applier?.stop();
      extension?.stop();
      chain.close();
    },
  };
}
