import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { AuthenticationConfiguration, Authenticator } from '@kevents/api';
import { AuthenticationChain, AuthenticationMetrics, hashLabel } from '@kevents/authn';
import type { JwtAuthenticatorOptions } from '@kevents/authn';
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

/** Options of {@link startAuthentication}. */
export interface StartAuthenticationOptions {
  /** How JWT authenticators reach their issuers (the egress seam); default direct HTTPS. */
  readonly jwt?: Omit<JwtAuthenticatorOptions, 'metrics'>;
  readonly flags: Readonly<Record<string, string>>;
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
  if (!config && clientCA === undefined)
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
    clientCA !== undefined ? `client certificates from ${caFile}` : undefined,
    chain.anonymous.enabled
      ? chain.anonymous.conditions?.length
        ? `anonymous on ${chain.anonymous.conditions.map((c) => c.path).join(', ')}`
        : 'anonymous'
      : 'no anonymous access',
  ].filter(Boolean);
  return {
    authenticator: chain,
    tls: clientCA !== undefined ? { ca: clientCA, requestCert: true } : {},
    summary: `authentication: ${parts.join('; ')}`,
    close: () => {
      reloader?.stop();
      chain.close();
    },
  };
}
