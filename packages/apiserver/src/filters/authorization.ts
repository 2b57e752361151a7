import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors/api-error.js';
import type { Authorizer, RequestAttributes } from '@kevents/api';

/** Paths answered without asking the authorizer (kube-apiserver's `--authorization-always-allow-paths` default). */
export const alwaysAllowPaths: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/livez']);

/** The authorization attributes of a request: its RequestInfo plus its user. */
export function requestAttributes(req: FastifyRequest): RequestAttributes {
  const info = req.requestInfo;
  return {
    user: req.user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
}

/**
 * The text kube-apiserver puts in a 403 (handlers/responsewriters/errors.go `forbiddenMessage`):
 * `User "u" cannot list resource "events" in API group "events.k8s.io" in the namespace "ns"`.
 */
export function forbiddenMessage(attrs: RequestAttributes): string {
  const user = attrs.user.username;
  if (!attrs.isResourceRequest)
    return `User ${JSON.stringify(user)} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${JSON.stringify(attrs.namespace)}` : 'at the cluster scope';
  return `User ${JSON.stringify(user)} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)} ${where}`;
}

/**
 * The authorization filter (`WithAuthorization`): asks the authorizer before a request's body is
 * read and answers a denied request with Kubernetes' 403 Status. Nothing is installed for
 * AlwaysAllow, so it costs nothing then.
 */
export function installAuthorization(app: FastifyInstance, authorizer: Authorizer | undefined): void {
  if (!authorizer || authorizer.name === 'AlwaysAllow') return;
  app.addHook('onRequest', async (req) => {
    if (alwaysAllowPaths.has(req.requestInfo.path)) return;
    const attrs = requestAttributes(req);
    const d = await authorizer.authorize(attrs);
    if (d.decision === 'Allow') return;
    const why = d.reason ? `${forbiddenMessage(attrs)}: ${d.reason}` : forbiddenMessage(attrs);
    const gr = attrs.isResourceRequest ? { group: attrs.apiGroup, resource: attrs.resource } : undefined;
    throw forbidden(why, gr, attrs.name || undefined);
  });
}
