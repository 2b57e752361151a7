import type { FastifyInstance, FastifyRequest } from 'fastify';
import { anonymousUser, forbiddenMessage } from '@kevents/authz';
import type { Authorizer, RequestAttributes } from '@kevents/authz';
import { forbidden } from '../errors/api-error.js';

/** What a resource route tells the authorization hook (set in the route's config). */
export interface RouteAuthz {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** The Kubernetes verb of the route's method; `list` turns into `watch` on `?watch=true`. */
  readonly verb: string;
}

/** Paths answered without asking the authorizer (kube-apiserver's `--authorization-always-allow-paths` default). */
export const alwaysAllowPaths: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/livez']);

/** The authorization attributes of a request (`RequestInfo` plus the user). */
export function requestAttributes(req: FastifyRequest): RequestAttributes {
  const path = req.url.split('?')[0] ?? '/';
  const route = (req.routeOptions.config as { authz?: RouteAuthz }).authz;
  const params = (req.params ?? {}) as { namespace?: string; name?: string };
  if (!route) {
    return { user: anonymousUser, verb: req.method.toLowerCase(), isResourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
  }
  const query = (req.query ?? {}) as Record<string, unknown>;
  const watch = query['watch'] === 'true' || query['watch'] === '1';
  return {
    user: anonymousUser,
    verb: route.verb === 'list' && watch ? 'watch' : route.verb,
    isResourceRequest: true,
    path,
    apiGroup: route.group,
    apiVersion: route.version,
    resource: route.resource,
    subresource: '',
    namespace: params.namespace ?? '',
    name: params.name ?? '',
  };
}

/**
 * Asks the authorizer before a request's body is read and answers a denied request with
 * Kubernetes' 403 Status. Nothing is installed for AlwaysAllow, so it costs nothing then.
 */
export function installAuthorization(app: FastifyInstance, authorizer: Authorizer): void {
  if (authorizer.name === 'AlwaysAllow') return;
  app.addHook('onRequest', async (req) => {
    const path = req.url.split('?')[0] ?? '/';
    if (alwaysAllowPaths.has(path)) return;
    const attrs = requestAttributes(req);
    const d = await authorizer.authorize(attrs);
    if (d.decision === 'Allow') return;
    const why = d.reason ? `${forbiddenMessage(attrs)}: ${d.reason}` : forbiddenMessage(attrs);
    throw forbidden(why, attrs.isResourceRequest ? { group: attrs.apiGroup, resource: attrs.resource } : undefined, attrs.name || undefined);
  });
}
