import type { Authorizer } from '@kevents/api';
import type { AuthorizationMetrics } from './metrics.js';
import { union } from './union.js';
import type { RetryBackoff } from './webhook/backoff.js';
import type { WebhookConnection } from './webhook/kubeconfig.js';
import type { WebhookDialer, WebhookTransport } from './webhook/transport.js';
import { WebhookAuthorizer } from './webhook/webhook-authorizer.js';

/** Where a cluster serves SubjectAccessReviews, below its `server` URL. */
export const subjectAccessReviewsPath = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/**
 * k8s.io/apiserver's `path.NewAuthorizer` (`--authorization-always-allow-paths`): Allow for a
 * non-resource request whose path (leading `/` ignored) is one of the paths, or starts with one
 * ending in `*`; otherwise no opinion. `/` alone matches only the root.
 * @throws Error `only trailing * allowed in "<path>"` for a `*` elsewhere.
 */
export function alwaysAllowPathsAuthorizer(paths: readonly string[]): Authorizer {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const raw of paths) {
    const p = raw.replace(/^\//, '');
    if (p.length === 0) {
      exact.add(p);
      continue;
    }
    if (p.slice(0, -1).includes('*')) throw new Error(`only trailing * allowed in ${JSON.stringify(p)}`);
    if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return {
    name: 'always-allow-paths',
    authorize: (a) => {
      if (a.isResourceRequest) return { decision: 'NoOpinion', reason: '' };
      const p = a.path.replace(/^\//, '');
      if (exact.has(p) || prefixes.some((x) => p.startsWith(x))) return { decision: 'Allow', reason: '' };
      return { decision: 'NoOpinion', reason: '' };
    },
  };
}

/**
 * k8s.io/apiserver's `authorizerfactory.NewPrivilegedGroups` with `--authorization-always-allow-groups`:
 * Allow for a member of one of the groups, otherwise no opinion.
 */
export function alwaysAllowGroupsAuthorizer(groups: readonly string[]): Authorizer {
  const set = new Set(groups);
  return {
    name: 'always-allow-groups',
    authorize: (a) =>
      a.user.groups.some((g) => set.has(g)) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' },
  };
}

/** Options of {@link delegatingAuthorizer}: the `--authorization-*` flags of an aggregated API server. */
export interface DelegatingAuthorizerOptions {
  /** `--authorization-kubeconfig`, read: the cluster's server URL and credentials. */
  readonly connection: WebhookConnection;
  /** `--authorization-always-allow-paths` (k8s.io/apiserver's default `/healthz`, `/readyz`, `/livez`). */
  readonly alwaysAllowPaths: readonly string[];
  /** `--authorization-always-allow-groups` (default `system:masters`). */
  readonly alwaysAllowGroups: readonly string[];
  /** `--authorization-webhook-cache-authorized-ttl` (default 10 s). */
  readonly authorizedTTLMs: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` (default 10 s). */
  readonly unauthorizedTTLMs: number;
  /** Per-call timeout (k8s.io/apiserver's `ClientTimeout`, 10 s). */
  readonly timeoutMs?: number;
  readonly metrics?: AuthorizationMetrics;
  readonly dial?: WebhookDialer;
  readonly retryBackoff?: RetryBackoff;
  readonly wrapTransport?: (transport: WebhookTransport, server: string) => WebhookTransport;
}

/**
 * k8s.io/apiserver's `DelegatingAuthorizationOptions.toAuthorizer`: a union of the always-allow
 * groups, the always-allow paths and the delegated authorizer, a webhook authorizer that POSTs
 * `authorization.k8s.io/v1` SubjectAccessReviews to the cluster's
 * `/apis/authorization.k8s.io/v1/subjectaccessreviews` with the kubeconfig's credentials (failure
 * policy NoOpinion, Allow and other answers cached for their TTLs). `rest` follows in the same
 * union (the authorizers of `--authorization-config`).
 */
export function delegatingAuthorizer(o: DelegatingAuthorizerOptions, rest: readonly Authorizer[] = []): Authorizer {
  const list: Authorizer[] = [];
  if (o.alwaysAllowGroups.length) list.push(alwaysAllowGroupsAuthorizer(o.alwaysAllowGroups));
  if (o.alwaysAllowPaths.length) list.push(alwaysAllowPathsAuthorizer(o.alwaysAllowPaths));
  const server = o.connection.server.replace(/\/+$/, '') + subjectAccessReviewsPath;
  list.push(
    new WebhookAuthorizer({
      name: 'delegated',
      connection: { ...o.connection, server },
      subjectAccessReviewVersion: 'v1',
      timeoutMs: o.timeoutMs ?? 10_000,
      authorizedTTLMs: o.authorizedTTLMs,
      unauthorizedTTLMs: o.unauthorizedTTLMs,
      failurePolicy: 'NoOpinion',
      ...(o.metrics ? { metrics: o.metrics } : {}),
      ...(o.dial ? { dial: o.dial } : {}),
      ...(o.retryBackoff ? { retryBackoff: o.retryBackoff } : {}),
      ...(o.wrapTransport ? { wrapTransport: o.wrapTransport } : {}),
    }),
    ...rest,
  );
  return union(list, ['delegated', ...rest.map((r) => r.name)].join(','));
}
