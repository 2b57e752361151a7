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
import { ConfigWatcher } from '@kevents/config';
import type { ApiserverOptions } from '../cli/flags.js';
import { apiserverId } from './authentication.js';
import { authorizationApply, ReloadableAuthorizer } from './authorization-reload.js';
import { reloadMetrics, reportReloads } from './reload-metrics.js';

/** What the servers need from authorization, and how to stop it. */
export interface AuthorizationSetup {
  readonly authorizer: Authorizer;
  /** One line for the startup log. */
  readonly summary: string;
  close(): void;
}

/** Options of {@link startAuthorization}. */
export interface StartAuthorizationOptions {
  readonly options: ApiserverOptions;
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
  const { options } = o;
  const kubeconfig = options.authorizationKubeconfig;
  // With --authorization-kubeconfig (an aggregated API server): k8s.io/apiserver's delegating
  // authorizer first, then the --authorization-config chain when given.
  const delegate = (rest: Authorizer[]): Authorizer => {
    const dial = build.dialFor?.('delegated');
    return delegatingAuthorizer(
      {
        connection: loadWebhookConnection(kubeconfig),
        alwaysAllowPaths: [...options.authorizationAlwaysAllowPaths],
        alwaysAllowGroups: [...options.authorizationAlwaysAllowGroups],
        authorizedTTLMs: options.authorizationWebhookCacheAuthorizedTtlMs,
        unauthorizedTTLMs: options.authorizationWebhookCacheUnauthorizedTtlMs,
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
    const mode = options.authorizationMode.join(',') || 'AlwaysAllow';
    const authorizer = authorizerForModes(mode, build);
    return { authorizer, summary: `authorization: --authorization-mode=${mode}`, close: () => undefined };
  }
  const groupDomain = options.groupDomain;
  // `apply` swaps the chain built below; the watcher polls only from watcher.watch() on.
  const watcher = await ConfigWatcher.load<AuthorizationConfiguration>(o.file, {
    ...(groupDomain ? { groupDomain } : {}),
    expectedKind: 'AuthorizationConfiguration',
    ...(o.reload?.pollMs !== undefined ? { intervalMs: o.reload.pollMs } : {}),
    apply: (config) => apply(config),
  });
  const initial = watcher.current;
  const reloadable = new ReloadableAuthorizer(buildAuthorizer(initial, build));
  const authorizer = kubeconfig ? delegate([reloadable]) : reloadable;
  const apply = authorizationApply({ target: reloadable, initial, build, file: o.file, log: o.log });
  const metricsOfReloads = reloadMetrics(
    'authorization',
    registry,
    o.metrics.configReloads.AuthorizationConfiguration,
    hashLabel(apiserverId()),
  );
  reportReloads(watcher, 'authorization config', metricsOfReloads, o.log);
  watcher.watch();
  const names = (initial.authorizers ?? []).map((a) => `${a.name} (${a.type})`).join(', ');
  return {
    authorizer,
    summary: `authorization: ${kubeconfig ? `${delegatedSummary}, then ` : ''}${names} from ${o.file}, reloaded on change`,
    close: () => watcher.close(),
  };
}
