import type { OpenAPIVerb } from '@kevents/api';
import type { Handler } from '../scope/rest-scope.js';
import { createHandler } from '../handlers/create.js';
import { deleteCollectionHandler, deleteHandler } from '../handlers/delete.js';
import { getHandler } from '../handlers/get.js';
import { listHandler } from '../handlers/list.js';
import { patchHandler } from '../handlers/patch.js';
import { updateHandler } from '../handlers/update.js';
import { watchListHandler } from './watch-item.js';

/** Where a verb is served: a collection in a namespace (or cluster-scoped), every namespace, one object, or a legacy watch path. */
export type RouteKind =
  'collection' | 'allNamespaces' | 'item' | 'watchCollection' | 'watchAllNamespaces' | 'watchItem';

/** One REST verb: the method and paths that serve it, and its handler. */
export interface RestVerb {
  readonly verb: OpenAPIVerb;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly routes: readonly RouteKind[];
  readonly handler: Handler;
}

/**
 * The verbs of the generic store, written once: the installer derives routes from it, discovery
 * its `verbs`, OpenAPI its operations. A watch is a GET on a collection with `watch=true` (or
 * on the legacy `/watch/` paths, one object's among them), so it shares the list handler.
 */
export const restVerbs: readonly RestVerb[] = [
  { verb: 'create', method: 'POST', routes: ['collection'], handler: createHandler },
  { verb: 'delete', method: 'DELETE', routes: ['item'], handler: deleteHandler },
  { verb: 'deletecollection', method: 'DELETE', routes: ['collection'], handler: deleteCollectionHandler },
  { verb: 'get', method: 'GET', routes: ['item'], handler: getHandler },
  { verb: 'list', method: 'GET', routes: ['collection', 'allNamespaces'], handler: listHandler },
  { verb: 'patch', method: 'PATCH', routes: ['item'], handler: patchHandler },
  { verb: 'update', method: 'PUT', routes: ['item'], handler: updateHandler },
  {
    verb: 'watch',
    method: 'GET',
    routes: ['collection', 'allNamespaces', 'watchCollection', 'watchAllNamespaces', 'watchItem'],
    handler: watchListHandler,
  },
];

/** The verbs discovery and OpenAPI publish for a served resource, in discovery's order. */
export const servedVerbs: readonly OpenAPIVerb[] = restVerbs.map((v) => v.verb);
