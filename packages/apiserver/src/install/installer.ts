import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { APIResource, KubeObject, OpenAPIResource, OpenAPIVerb } from '@kevents/api';
import type { Storage } from '@kevents/storage';
import { methodNotAllowed } from '../errors/api-error.js';
import type { RestScope } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { fieldManagersOf } from '../registry/field-managers.js';
import { Store } from '../registry/store.js';
import type { StoreOptions } from '../registry/store.js';
import { EncodedEventCache } from '../encoding/encoded-cache.js';
import { ObjectTexts } from '../encoding/object-texts.js';
import type { WatchHub } from '../watch/watch-hub.js';
import { restVerbs, servedVerbs } from './verbs.js';
import { requestTrace, traceHandler } from '../filters/tracing.js';
import { defaultValueLimits } from '../registry/value-limits.js';
import type { ValueLimits } from '../registry/value-limits.js';
import type { RouteKind } from './verbs.js';

/** One view of one resource as installed: its scope (store, view, strategy) and what discovery and OpenAPI say of it. */
export interface InstalledView {
  readonly scope: RestScope;
  readonly apiResource: APIResource;
  readonly openAPI: OpenAPIResource;
}

/** What the installer needs besides the resources. */
export interface InstallContext {
  readonly storage: Storage;
  readonly watches: WatchHub;
  readonly minRequestTimeoutSeconds: number;
  readonly storeOptions?: StoreOptions;
  /** The bounds on the values of what a request writes; default `defaultValueLimits`. */
  readonly valueLimits?: ValueLimits;
  readonly onWatchAbandoned?: (req: FastifyRequest) => void;
  /** The `onResponse` hook of a resource's routes (its metrics), made once per resource view. */
  readonly onResponse?: (rest: RestRouteConfig['rest']) => onResponseHookHandler;
  /** Verbs served but left out of discovery's `verbs` (OpenAPI still describes them). */
  readonly discoveryOmittedVerbs?: readonly OpenAPIVerb[];
}

/** Route config of a resource route: read by the metrics filter. */
export interface RestRouteConfig {
  readonly rest: { readonly group: string; readonly version: string; readonly resource: string };
}

const allMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function pathOf(kind: RouteKind, prefix: string, plural: string, namespaced: boolean): string | undefined {
  switch (kind) {
    case 'collection':
      return namespaced ? `${prefix}/namespaces/:namespace/${plural}` : `${prefix}/${plural}`;
    case 'item':
      return namespaced ? `${prefix}/namespaces/:namespace/${plural}/:name` : `${prefix}/${plural}/:name`;
    case 'allNamespaces':
      return namespaced ? `${prefix}/${plural}` : undefined;
    case 'watchCollection':
      return namespaced ? `${prefix}/watch/namespaces/:namespace/${plural}` : `${prefix}/watch/${plural}`;
    case 'watchAllNamespaces':
      return namespaced ? `${prefix}/watch/${plural}` : undefined;
    case 'watchItem':
      return namespaced ? `${prefix}/watch/namespaces/:namespace/${plural}/:name` : `${prefix}/watch/${plural}/:name`;
  }
}

/**
 * Installs every view of every resource: a generic store per view, the routes of
 * {@link restVerbs} (405 Status for other methods), and the discovery and OpenAPI entries that
 * describe exactly those routes.
 */
export function installResources(
  app: FastifyInstance,
  resources: readonly ResourceDefinition[],
  ctx: InstallContext,
): InstalledView[] {
  const installed: InstalledView[] = [];
  const omitted = new Set(ctx.discoveryOmittedVerbs ?? []);
  const discoveryVerbs = servedVerbs.filter((v) => !omitted.has(v));
  const valueLimits = ctx.valueLimits ?? defaultValueLimits;
  const storeOptions: StoreOptions = { ...ctx.storeOptions, maxObjectValues: valueLimits.objectValues };
  for (const def of resources) {
    const fieldManagers = fieldManagersOf(def);
    for (const view of def.views) {
      const store = new Store(ctx.storage, def.resource, def.strategy, view, storeOptions);
      const scope: RestScope<KubeObject> = {
        store,
        texts: new ObjectTexts(store),
        view,
        strategy: def.strategy,
        fieldManager: fieldManagers.get(view)!,
        watches: ctx.watches,
        minRequestTimeoutSeconds: ctx.minRequestTimeoutSeconds,
        valueLimits,
        encoded: new EncodedEventCache(),
        ...(ctx.onWatchAbandoned ? { onWatchAbandoned: ctx.onWatchAbandoned } : {}),
      };
      installView(app, scope, ctx.onResponse);
      installed.push({
        scope,
        apiResource: {
          name: view.resource,
          singularName: view.singularName,
          namespaced: def.strategy.namespaced,
          kind: view.kind,
          verbs: [...discoveryVerbs],
          ...(view.shortNames?.length ? { shortNames: [...view.shortNames] } : {}),
          ...(view.categories?.length ? { categories: [...view.categories] } : {}),
          ...(view.storageVersionHash ? { storageVersionHash: view.storageVersionHash } : {}),
        },
        openAPI: {
          resource: view.resource,
          kind: view.kind,
          listKind: view.listKind,
          namespaced: def.strategy.namespaced,
          schema: view.schema,
          listSchema: view.listSchema,
          verbs: servedVerbs,
          legacyWatchPaths: true,
          legacyWatchItemPath: true,
        },
      });
    }
  }
  return installed;
}

function installView(
  app: FastifyInstance,
  scope: RestScope,
  onResponse?: (rest: RestRouteConfig['rest']) => onResponseHookHandler,
): void {
  const { view, strategy } = scope;
  const byPath = new Map<string, Partial<Record<string, (typeof restVerbs)[number]>>>();
  for (const verb of restVerbs) {
    for (const kind of verb.routes) {
      const path = pathOf(kind, view.pathPrefix, view.resource, strategy.namespaced);
      if (!path) continue;
      const methods = byPath.get(path) ?? {};
      methods[verb.method] ??= verb;
      byPath.set(path, methods);
    }
  }
  const config: RestRouteConfig = { rest: { group: view.group, version: view.version, resource: view.resource } };
  const hooks = onResponse ? { onResponse: onResponse(config.rest) } : {};
  for (const [url, methods] of byPath) {
    for (const method of allMethods) {
      const verb = methods[method] ?? (method === 'HEAD' ? methods['GET'] : undefined);
      app.route({
        method,
        url,
        config,
        ...hooks,
        exposeHeadRoute: false,
        handler: verb
          ? (req: FastifyRequest, reply: FastifyReply) =>
              requestTrace(req)
                ? traceHandler(req, () => verb.handler(scope, req as RestRequest, reply))
                : verb.handler(scope, req as RestRequest, reply)
          : async () => {
              throw methodNotAllowed();
            },
      });
    }
  }
}
