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
import { parseDuration } from '../cli/flags.js';
import type { JwtAuthenticatorOptions, RequestHeaderConfig } from '@kevents/authn';
import type { ServerMetrics } from '@kevents/apiserver';
import { parseConfig } from '@kevents/config';
import { AuthenticationConfigReloader } from './authentication-reload.js';
import { reloadMetrics } from './config-reload.js';

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

/** A comma-separated flag as a list (pflag's string slice), blanks dropped. */
export const flagList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * The request-header settings of the `--requestheader-*` flags (k8s.io/apiserver's
 * `RequestHeaderAuthenticationOptions`); undefined without `--requestheader-client-ca-file`.
 */
export async function requestHeaderFromFlags(
  flags: Readonly<Record<string, string>>,
): Promise<RequestHeaderConfig | undefined> {
  const file = flags['requestheader-client-ca-file'] ?? '';
  if (!file) return undefined;
  return {
    clientCA: await readFile(file, 'utf8'),
    allowedNames: flagList(flags['requestheader-allowed-names']),
    usernameHeaders: flagList(flags['requestheader-username-headers'] ?? 'X-Remote-User'),
    uidHeaders: flagList(flags['requestheader-uid-headers']),
    groupHeaders: flagList(flags['requestheader-group-headers'] ?? 'X-Remote-Group'),
    extraHeaderPrefixes: flagList(flags['requestheader-extra-headers-prefix'] ?? 'X-Remote-Extra-'),
  };
}

/**
 * The delegated token authenticator of `--authentication-kubeconfig` (k8s.io/apiserver's
 * `DelegatingAuthenticationOptions`): TokenReviews POSTed to the cluster's
 * `/apis/authentication.k8s.io/v1/tokenreviews` with the kubeconfig's credentials, a 10 s client
 * timeout, answers cached for `--authentication-token-webhook-cache-ttl`.
 */
export function tokenReviewFromFlags(
  flags: Readonly<Record<string, string>>,
  dial?: WebhookDialer,
): TokenReviewAuthenticator | undefined {
  const file = flags['authentication-kubeconfig'] ?? '';
  if (!file) return undefined;
  const conn = loadWebhookConnection(file);
  const transport = webhookTransport(
    { ...conn, server: conn.server.replace(/\/+$/, '') + tokenReviewsPath },
    { timeoutMs: 10_000, ...(dial ? { dial } : {}) },
  );
  return new TokenReviewAuthenticator({
    transport: (body) => transport(body),
    cacheTtlMs: parseDuration(flags['authentication-token-webhook-cache-ttl'] ?? '10s') ?? 10_000,
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
  readonly flags: Readonly<Record<string, string>>;
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
  const { flags, log } = o;
  const caFile = flags['client-ca-file'] ?? '';
  const clientCA = caFile ? await readFile(caFile, 'utf8') : undefined;
  const requestHeader = await requestHeaderFromFlags(flags);
  const tokenReview = tokenReviewFromFlags(flags, o.tokenReviewDial);
  // k8s.io/apiserver's lookup: what the flags leave out comes from the cluster's ConfigMap.
  let extension: ExtensionAuthentication | undefined;
  const kubeconfig = flags['authentication-kubeconfig'] ?? '';
  if (kubeconfig && flags['authentication-skip-lookup'] !== 'true' && (clientCA === undefined || !requestHeader)) {
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
  let config: AuthenticationConfiguration | undefined;
  let text = '';
  if (o.file) {
    text = await readFile(o.file, 'utf8');
    const parsed = parseConfig<AuthenticationConfiguration>(text, {
      ...(flags['group-domain'] ? { groupDomain: flags['group-domain'] } : {}),
      expectedKind: 'AuthenticationConfiguration',
    });
    if (!parsed.ok) throw new Error(`${o.file}: ${parsed.errors.map(String).join('; ')}`);
    config = parsed.config;
  }
  if (!config && clientCA === undefined && !requestHeader && !tokenReview)
    return {
      tls: {},
      summary: 'authentication: none configured; every request is system:anonymous',
      close: () => undefined,
    };

  let anonymousFlag = flags['anonymous-auth'] !== 'false';
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
  let reloader: AuthenticationConfigReloader | undefined;
  if (o.file && config) {
    reloader = new AuthenticationConfigReloader(o.file, text, config, chain, {
      jwt: { ...o.jwt, metrics },
      log,
      ...(flags['group-domain'] ? { groupDomain: flags['group-domain'] } : {}),
      ...o.reload,
      metrics: reloadMetrics(
        'authentication',
        o.metrics.registry,
        o.metrics.configReloads.AuthenticationConfiguration,
        hashLabel(id),
      ),
    });
    reloader.start();
  }
  const parts = [
    config ? `${config.jwt?.length ?? 0} JWT issuer(s) from ${o.file}` : undefined,
    requestHeader
      ? `front-proxy headers (${requestHeader.usernameHeaders!.join(',')}) from clients verified by ${flags['requestheader-client-ca-file']}${requestHeader.allowedNames!.length ? ` named ${requestHeader.allowedNames!.join(',')}` : ''}`
      : undefined,
    clientCA !== undefined ? `client certificates from ${caFile}` : undefined,
    tokenReview ? `TokenReviews to the cluster of ${flags['authentication-kubeconfig']}` : undefined,
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
      reloader?.stop();
      extension?.stop();
      chain.close();
    },
  };
}
