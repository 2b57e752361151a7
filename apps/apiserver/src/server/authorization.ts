import { readFile } from 'node:fs/promises';
import type { AuthorizationConfiguration, Authorizer } from '@kevents/api';
import {
  AuthorizationMetrics,
  authorizerForModes,
  buildAuthorizer,
  delegatingAuthorizer,
  loadWebhookConnection,
} from '@kevents/authz';
import type { BuildAuthorizerOptions } from '@kevents/authz';
import { hashLabel } from '@kevents/authn';
import type { ServerMetrics } from '@kevents/apiserver';
import { parseConfig } from '@kevents/config';
import { apiserverId, flagList } from './authentication.js';
import { parseDuration } from '../cli/flags.js';
import { AuthorizationConfigReloader, ReloadableAuthorizer } from './authorization-reload.js';
import { reloadMetrics } from './config-reload.js';

/** What the servers need from authorization, and how to stop it. */
export interface AuthorizationSetup {
  readonly authorizer: Authorizer;
  /** One line for the startup log. */
  readonly summary: string;
  close(): void;
}

/** Options of {@link startAuthorization}. */
export interface StartAuthorizationOptions {
  readonly flags: Readonly<Record<string, string>>;
  /** `--authorization-config` (already validated by main); `--authorization-mode` is used only without it. */
  readonly file?: string;
  readonly metrics: ServerMetrics;
  readonly log: { info(o: object, msg: string): void; error(o: object, msg: string): void };
  /** The webhooks' network seam (the egress selector fills it) and retry schedule. */
  readonly build?: Omit<BuildAuthorizerOptions, 'metrics'>;
  /** Reload poll interval (tests shorten it). */
  readonly reload?: { pollMs?: number };
}

/**
 * Builds kube-apiserver's authorizer: the chain of `--authorization-config` (with its automatic
 * reload) or, without the file, the legacy `--authorization-mode`; registers the authorization
 * metrics on the server's registry.
 */
export async function startAuthorization(o: StartAuthorizationOptions): Promise<AuthorizationSetup> {
  const registry = o.metrics.registry;
  const metrics = new AuthorizationMetrics(registry);
  const build: BuildAuthorizerOptions = { ...o.build, metrics };
  const kubeconfig = o.flags['authorization-kubeconfig'] ?? '';
  // With --authorization-kubeconfig (an aggregated API server): k8s.io/apiserver's delegating
  // authorizer first, then the --authorization-config chain when given.
  const delegate = (rest: Authorizer[]): Authorizer => {
    const dial = build.dialFor?.('delegated');
    const ttl = (name: string): number => parseDuration(o.flags[name] ?? '10s') ?? 10_000;
    return delegatingAuthorizer(
      {
        connection: loadWebhookConnection(kubeconfig),
        alwaysAllowPaths: flagList(o.flags['authorization-always-allow-paths'] ?? '/healthz,/readyz,/livez'),
        alwaysAllowGroups: flagList(o.flags['authorization-always-allow-groups'] ?? 'system:masters'),
        authorizedTTLMs: ttl('authorization-webhook-cache-authorized-ttl'),
        unauthorizedTTLMs: ttl('authorization-webhook-cache-unauthorized-ttl'),
        metrics,
        ...(dial ? { dial } : {}),
        ...(build.retryBackoff ? { retryBackoff: build.retryBackoff } : {}),
        ...(build.wrapTransport ? { wrapTransport: build.wrapTransport } : {}),
      },
      rest,
    );
  };
  const delegatedSummary = kubeconfig ? `SubjectAccessReviews to the cluster of ${kubeconfig}` : '';
  if (kubeconfig && !o.file)
    return { authorizer: delegate([]), summary: `authorization: ${delegatedSummary}`, close: () => undefined };
  if (!o.file) {
    const mode = o.flags['authorization-mode'] || 'AlwaysAllow';
    const authorizer = authorizerForModes(mode, build);
    return { authorizer, summary: `authorization: --authorization-mode=${mode}`, close: () => undefined };
  }
  const groupDomain = o.flags['group-domain'];
  const text = await readFile(o.file, 'utf8');
  const parsed = parseConfig<AuthorizationConfiguration>(text, {
    ...(groupDomain ? { groupDomain } : {}),
    expectedKind: 'AuthorizationConfiguration',
  });
  if (!parsed.ok) throw new Error(`${o.file}: ${parsed.errors.map(String).join('; ')}`);
  const reloadable = new ReloadableAuthorizer(buildAuthorizer(parsed.config, build));
  const authorizer = kubeconfig ? delegate([reloadable]) : reloadable;
  const reloader = new AuthorizationConfigReloader(o.file, text, parsed.config, reloadable, {
    build,
    log: o.log,
    ...(groupDomain ? { groupDomain } : {}),
    ...o.reload,
    metrics: reloadMetrics(
      'authorization',
      registry,
      o.metrics.configReloads.AuthorizationConfiguration,
      hashLabel(apiserverId()),
    ),
  });
  reloader.start();
  const names = (parsed.config.authorizers ?? []).map((a) => `${a.name} (${a.type})`).join(', ');
  return {
    authorizer,
    summary: `authorization: ${kubeconfig ? `${delegatedSummary}, then ` : ''}${names} from ${o.file}, reloaded on change`,
    close: () => reloader.stop(),
  };
}
