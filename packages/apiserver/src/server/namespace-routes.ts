import type { FastifyInstance } from 'fastify';
import type { APIResource } from '@kevents/api';
import type { Storage } from '@kevents/storage';
import { notFound } from '../errors/api-error.js';
import { isPretty, sendJSON } from '../encoding/respond.js';
import { negotiateOutput } from '../encoding/negotiate.js';
import { listNamespaces, synthesizeNamespace } from './namespaces.js';

/** Options of {@link installNamespaceRoutes}. */
export interface NamespaceRoutesOptions {
  /** Where the namespaces in use are found (the objects of {@link namespacedResources}). */
  readonly storage: Storage;
  /** The storage resources whose objects' namespaces the list shows (with `default` and `kube-system`). */
  readonly namespacedResources: readonly string[];
  /** The seed of the namespaces' uids (`namespaceUID`). */
  readonly uidSeed: string;
  /** The `creationTimestamp` of every namespace: when the server started. */
  readonly createdAt: string;
}

/** The discovery entry of core/v1 `namespaces`: readable, so kubectl can word its NotFound errors. */
export const namespacesAPIResource = (): APIResource => ({
  name: 'namespaces',
  singularName: 'namespace',
  namespaced: false,
  kind: 'Namespace',
  verbs: ['get', 'list'],
  shortNames: ['ns'],
});

/**
 * Serves core/v1 namespaces, implicit and read-only: `GET /api/v1/namespaces/<name>` answers an
 * Active namespace for any DNS-1123 label (404 otherwise), `GET /api/v1/namespaces` lists
 * `default`, `kube-system` and every namespace that holds an object.
 */
export function installNamespaceRoutes(app: FastifyInstance, options: NamespaceRoutesOptions): void {
  const { storage, namespacedResources, uidSeed, createdAt } = options;
  const nsGR = { group: '', resource: 'namespaces' };
  app.get<{ Params: { name: string } }>('/api/v1/namespaces/:name', async (req, reply) => {
    const pretty = negotiateOutput(req.headers.accept).pretty || isPretty(req);
    const ns = synthesizeNamespace(req.params.name, createdAt, uidSeed);
    if (!ns) throw notFound(nsGR, req.params.name);
    return sendJSON(reply, 200, ns, pretty);
  });
  app.get('/api/v1/namespaces', async (req, reply) => {
    const pretty = negotiateOutput(req.headers.accept).pretty || isPretty(req);
    return sendJSON(reply, 200, await listNamespaces(storage, namespacedResources, createdAt, uidSeed), pretty);
  });
}
