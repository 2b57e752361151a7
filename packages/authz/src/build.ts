import type { AuthorizationConfiguration, Authorizer, Decision } from '@kevents/api';
import { webhookConfigFile } from '@kevents/api';
import { alwaysAllow, alwaysDeny, supportedAuthorizerTypes } from './authorizer.js';
import { AuthorizationError } from './errors.js';
import type { AuthorizationMetrics } from './metrics.js';
import { privilegedGroupsAuthorizer, union } from './union.js';
import type { RetryBackoff } from './webhook/backoff.js';
import { loadWebhookConnection } from './webhook/kubeconfig.js';
import type { WebhookDialer, WebhookTransport } from './webhook/transport.js';
import { WebhookAuthorizer } from './webhook/webhook-authorizer.js';
import type { FailurePolicy } from './webhook/webhook-authorizer.js';

/** Options of {@link buildAuthorizer}: what the server brings to the config. */
export interface BuildAuthorizerOptions {
  /** Shared by every chain built (reloads included). */
  readonly metrics?: AuthorizationMetrics;
  /**
   * The dialer of each webhook, by authorizer name: the seam the egress selector fills with its
   * `controlplane` dialer. Default: direct connections.
   */
  readonly dialFor?: (authorizerName: string) => WebhookDialer | undefined;
  /** Retry schedule of every webhook; default Kubernetes' (tests shorten it). */
  readonly retryBackoff?: RetryBackoff;
  /** Wraps every webhook call (the tracer's seam: one client span per call, context in the headers). */
  readonly wrapTransport?: (transport: WebhookTransport, server: string) => WebhookTransport;
}

const nanosToMs = (n: number | undefined): number => Math.round((n ?? 0) / 1e6);

/**
 * Counts an authorizer's terminal decisions in `apiserver_authorization_decisions_total`
 * (`pkg/authorization/metrics.InstrumentedAuthorizer`).
 */
export function metered(a: Authorizer, metrics: AuthorizationMetrics | undefined): Authorizer {
  if (!metrics) return a;
  const type = a.type ?? a.name;
  const decisions = metrics.decisions;
  const allowed = decisions.series({ type, name: a.name, decision: 'allowed' });
  const denied = decisions.series({ type, name: a.name, decision: 'denied' });
  const count = (d: Decision): Decision => {
    if (d.decision === 'Allow') decisions.inc(allowed);
    else if (d.decision === 'Deny') decisions.inc(denied);
    return d;
  };
  return {
    name: a.name,
    type,
    authorize: (attrs) => {
      const d = a.authorize(attrs);
      return d instanceof Promise ? d.then(count) : count(d);
    },
  };
}

/**
 * Builds kube-apiserver's authorizer from an `AuthorizationConfiguration` (already decoded,
 * defaulted and validated): the privileged-groups authorizer, then each entry in order, in a
 * union. Webhook connection files are read here.
 * @throws AuthorizationError `UnsupportedType` for a type this server does not build (RBAC,
 *   Node, ABAC), `InvalidConnection` for an unusable connection file.
 */
export function buildAuthorizer(config: AuthorizationConfiguration, o: BuildAuthorizerOptions = {}): Authorizer {
  const built: Authorizer[] = [privilegedGroupsAuthorizer];
  (config.authorizers ?? []).forEach((entry, i) => {
    const type = entry.type ?? '';
    const name = entry.name ?? '';
    let a: Authorizer;
    switch (type) {
      case 'AlwaysAllow':
        a = { ...alwaysAllow, name };
        break;
      case 'AlwaysDeny':
        a = { ...alwaysDeny, name };
        break;
      case 'Webhook': {
        const w = entry.webhook ?? {};
        const info = w.connectionInfo ?? {};
        const file = webhookConfigFile(info);
        if (info.type === 'InClusterConfig' || !file)
          throw new AuthorizationError(
            'InvalidConnection',
            `authorizers[${i}].webhook.connectionInfo.type: Unsupported value: ${JSON.stringify(info.type ?? '')}: kevents reaches webhooks only through a KubeConfigFile`,
          );
        const dial = o.dialFor?.(name);
        a = new WebhookAuthorizer({
          name,
          connection: loadWebhookConnection(file),
          subjectAccessReviewVersion: w.subjectAccessReviewVersion === 'v1' ? 'v1' : 'v1beta1',
          timeoutMs: nanosToMs(w.timeout) || 30_000,
          authorizedTTLMs: w.cacheAuthorizedRequests === false ? 0 : nanosToMs(w.authorizedTTL),
          unauthorizedTTLMs: w.cacheUnauthorizedRequests === false ? 0 : nanosToMs(w.unauthorizedTTL),
          failurePolicy: (w.failurePolicy === 'Deny' ? 'Deny' : 'NoOpinion') as FailurePolicy,
          matchConditions: (w.matchConditions ?? []).map((c) => c.expression ?? ''),
          ...(o.metrics ? { metrics: o.metrics } : {}),
          ...(dial ? { dial } : {}),
          ...(o.retryBackoff ? { retryBackoff: o.retryBackoff } : {}),
          ...(o.wrapTransport ? { wrapTransport: o.wrapTransport } : {}),
        });
        break;
      }
      default:
        throw new AuthorizationError(
          'UnsupportedType',
          `authorizers[${i}].type: Unsupported value: ${JSON.stringify(type)}: supported values: ${supportedAuthorizerTypes.map((t) => JSON.stringify(t)).join(', ')}`,
        );
    }
    built.push(metered(a, o.metrics));
  });
  return union(built, (config.authorizers ?? []).map((a) => a.name).join(','));
}

/**
 * The authorizer of the legacy `--authorization-mode` (comma-separated AlwaysAllow and
 * AlwaysDeny; each named after its mode in lower case, as kube-apiserver names them). A lone
 * AlwaysAllow is returned as is, so the server skips authorization entirely.
 */
export function authorizerForModes(modes: string, o: BuildAuthorizerOptions = {}): Authorizer {
  const list = modes
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (list.length === 0) throw new Error('--authorization-mode: at least one authorization mode must be given');
  const built: Authorizer[] = [privilegedGroupsAuthorizer];
  for (const mode of list) {
    if (mode !== 'AlwaysAllow' && mode !== 'AlwaysDeny')
      throw new Error(
        `--authorization-mode=${modes}: unknown authorization mode ${JSON.stringify(mode)}; use AlwaysAllow or AlwaysDeny (or --authorization-config for webhooks)`,
      );
    if (list.indexOf(mode) !== list.lastIndexOf(mode))
      throw new Error(`--authorization-mode=${modes}: "${mode}" is given more than once`);
    const base = mode === 'AlwaysAllow' ? alwaysAllow : alwaysDeny;
    built.push(metered({ ...base, name: mode.toLowerCase() }, o.metrics));
  }
  if (list.length === 1 && list[0] === 'AlwaysAllow') return alwaysAllow;
  return union(built, list.join(','));
}
