import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maxRequestBodyBytes, timeNow } from '@kevents/api';
import type { Storage } from '@kevents/storage';
import { alwaysAllow } from '@kevents/authz';
import type { Authorizer } from '@kevents/authz';
import { installAuthorization } from './authorization.js';
import type { RouteAuthz } from './authorization.js';
import {
  ApiError,
  internalError,
  methodNotSupported,
  notFound,
  pathNotFound,
  requestEntityTooLarge,
  unsupportedMediaType,
} from '../errors/api-error.js';
import type { Handler, HandlerContext, RestRequest } from '../handlers/context.js';
import { createHandler } from '../handlers/create.js';
import { deleteCollectionHandler, deleteHandler } from '../handlers/delete.js';
import { getHandler } from '../handlers/get.js';
import { listHandler } from '../handlers/list.js';
import { patchHandler } from '../handlers/patch.js';
import { isPretty, sendJSON } from '../handlers/respond.js';
import { updateHandler } from '../handlers/update.js';
import { WatchHub } from '../handlers/watch-hub.js';
import { EncodedEventCache } from '../handlers/encoded-cache.js';
import { registerOpenAPI } from '../openapi/register.js';
import { coreV1View, eventsV1View } from '../registry/event-views.js';
import type { ResourceView } from '../registry/resource-view.js';
import { apiGroup, apiGroupList, apiVersions, coreResourceList, groupResourceList, referencedGroup, referencedResourceList } from './discovery.js';
import { referencedGroups } from './referenced-kinds.js';
import { ServerMetrics } from './metrics.js';
import type { RequestLabels } from './metrics.js';
import { listNamespaces, synthesizeNamespace } from './namespaces.js';
import { versionInfo } from './version.js';

type RouteLabels = { labels?: { plain: RequestLabels; dry: RequestLabels; watch: RequestLabels; watchDry: RequestLabels } };

/** Options of {@link buildServer}. */
export interface ServerOptions {
  readonly storage: Storage;
  /** API group domain (`k8s.io`): events are served as `events.<domain>/v1`. */
  readonly groupDomain?: string;
  /** Also serve events as core/v1 under `/api/v1` (kubectl get events, kubectl events). */
  readonly coreView?: boolean;
  /** Default watch length is a random value in [min, 2*min) seconds. */
  readonly minRequestTimeoutSeconds?: number;
  /** Where unexpected request failures are logged (fastify's per-request logging stays off: it costs a child logger per request). */
  readonly logger?: Pick<FastifyBaseLogger, 'error'>;
  /** Fastify server factory options (https). */
  readonly https?: { key: string | Buffer; cert: string | Buffer };
  /** Decides every request (default AlwaysAllow); `--authorization-mode`. */
  readonly authorizer?: Authorizer;
  /** Share metrics and live watches between the HTTPS and HTTP listeners of one process. */
  readonly metrics?: ServerMetrics;
  readonly watches?: WatchHub;
}

/** A built server: the fastify instance plus what shutdown needs. */
export interface KeventsServer {
  readonly app: FastifyInstance;
  readonly watches: WatchHub;
  readonly metrics: ServerMetrics;
  readonly views: readonly ResourceView[];
}

const allMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof allMethods)[number];

const actionOf: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get', OPTIONS: 'options' };

/** The Kubernetes verb of a method on a route (`RequestInfo`'s verb). */
function kubeVerb(method: string, scope: string, watchPath: boolean): string {
  if (watchPath) return 'watch';
  switch (method) {
    case 'GET':
    case 'HEAD':
      return scope === 'resource' ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return scope === 'resource' ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

/** Builds the kevents API server (routes, content handling, errors, metrics); does not listen. */
export function buildServer(options: ServerOptions): KeventsServer {
  const app = Fastify({
    logger: false,
    bodyLimit: maxRequestBodyBytes,
    routerOptions: { ignoreTrailingSlash: true },
    logController: new Fastify.LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    forceCloseConnections: true,
    ...(options.https ? { https: options.https } : {}),
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;
  const watches = options.watches ?? new WatchHub();
  const metrics = options.metrics ?? new ServerMetrics(() => watches.size);
  const startedAt = timeNow();
  const views = [eventsV1View(options.groupDomain ?? 'k8s.io'), ...(options.coreView === false ? [] : [coreV1View()])];
  const eventsView = views[0]!;
  const coreView = views.find((v) => v.group === '');

  installAuthorization(app, options.authorizer ?? alwaysAllow);
  app.removeAllContentTypeParsers();
  const keepText = (_req: FastifyRequest, body: string | Buffer, done: (err: null, body: unknown) => void): void => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxRequestBodyBytes }, keepText);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: maxRequestBodyBytes }, keepText);

  app.addHook('onResponse', (req, reply, done) => {
    const variants = (req.routeOptions.config as RouteLabels).labels;
    if (variants) {
      const query = (req.query ?? {}) as Record<string, unknown>;
      const watch = query['watch'] === 'true' || query['watch'] === '1';
      const dry = query['dryRun'] !== undefined;
      const labels = watch ? (dry ? variants.watchDry : variants.watch) : dry ? variants.dry : variants.plain;
      metrics.observe(labels, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    let apiErr: ApiError;
    if (err instanceof ApiError) apiErr = err;
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') apiErr = requestEntityTooLarge(maxRequestBodyBytes);
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') apiErr = unsupportedMediaType(['application/json', 'application/yaml']);
    else {
      options.logger?.error({ err, method: req.method, url: req.url }, 'request failed');
      apiErr = internalError(err);
    }
    for (const [k, v] of Object.entries(apiErr.headers)) reply.header(k, v);
    return sendJSON(reply, apiErr.code, apiErr.status, isPretty((req.query ?? {}) as Record<string, string>));
  });
  app.setNotFoundHandler((req, reply) => sendJSON(reply, 404, pathNotFound().status, isPretty((req.query ?? {}) as Record<string, string>)));

  const minRequestTimeoutSeconds = options.minRequestTimeoutSeconds ?? 1800;
  const route = (ctx: HandlerContext, url: string, handlers: Partial<Record<Method, Handler>>, notAllowed: (m: string) => ApiError): void => {
    const scope = url.endsWith(':name') ? 'resource' : url.includes(':namespace') ? 'namespace' : 'cluster';
    const watchPath = url.includes('/watch/');
    for (const method of allMethods) {
      const h = handlers[method] ?? (method === 'HEAD' ? handlers.GET : undefined);
      const verb = method === 'GET' || method === 'HEAD' ? (watchPath ? 'WATCH' : scope === 'resource' ? 'GET' : 'LIST') : method;
      const plain: RequestLabels = { verb, group: ctx.view.group, version: ctx.view.version, resource: ctx.view.resource, subresource: '', scope, component: 'apiserver', dry_run: '' };
      const watchVerb = verb === 'LIST' ? 'WATCH' : verb;
      const labels = {
        plain,
        dry: { ...plain, dry_run: 'All' },
        watch: { ...plain, verb: watchVerb },
        watchDry: { ...plain, verb: watchVerb, dry_run: 'All' },
      };
      const authz: RouteAuthz = { group: ctx.view.group, version: ctx.view.version, resource: ctx.view.resource, verb: kubeVerb(method, scope, watchPath) };
      app.route({
        method,
        url,
        config: { labels, authz },
        exposeHeadRoute: false,
        handler: h
          ? (req: FastifyRequest, reply: FastifyReply) => h(ctx, req as RestRequest, reply)
          : async () => {
              throw notAllowed(method);
            },
      });
    }
  };

  for (const view of views) {
    const ctx: HandlerContext = { storage: options.storage, view, watches, minRequestTimeoutSeconds, encoded: new EncodedEventCache() };
    const p = view.pathPrefix;
    const na = (m: string): ApiError => methodNotSupported(view.gr, actionOf[m] ?? m.toLowerCase());
    route(ctx, `${p}/namespaces/:namespace/events`, { GET: listHandler(false), POST: createHandler, DELETE: deleteCollectionHandler }, na);
    route(ctx, `${p}/namespaces/:namespace/events/:name`, { GET: getHandler, PUT: updateHandler, PATCH: patchHandler, DELETE: deleteHandler }, na);
    route(ctx, `${p}/events`, { GET: listHandler(false) }, na);
    route(ctx, `${p}/watch/namespaces/:namespace/events`, { GET: listHandler(true) }, na);
    route(ctx, `${p}/watch/events`, { GET: listHandler(true) }, na);
  }

  const send = (body: unknown) => async (req: FastifyRequest, reply: FastifyReply) =>
    sendJSON(reply, 200, body, isPretty(req.query as Record<string, string>));
  app.get('/api', async (req, reply) => sendJSON(reply, 200, apiVersions(`${req.hostname}`), isPretty(req.query as Record<string, string>)));
  app.get('/api/v1', send(coreResourceList(coreView !== undefined)));
  app.get('/apis', send(apiGroupList([eventsView])));
  app.get(`/apis/${eventsView.group}`, send({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(eventsView) }));
  app.get(`/apis/${eventsView.groupVersion}`, send(groupResourceList(eventsView)));
  for (const { group, version } of referencedGroups()) {
    app.get(`/apis/${group}`, send({ kind: 'APIGroup', apiVersion: 'v1', ...referencedGroup(group, version) }));
    app.get(`/apis/${group}/${version}`, send(referencedResourceList(group, version)));
  }
  app.get('/version', send(versionInfo()));
  app.get('/metrics', async (_req, reply) => reply.header('Content-Type', metrics.contentType).send(await metrics.text()));

  const nsGR = { group: '', resource: 'namespaces' };
  const nsAuthz = (verb: string): { config: { authz: RouteAuthz } } => ({ config: { authz: { group: '', version: 'v1', resource: 'namespaces', verb } } });
  app.get<{ Params: { name: string } }>('/api/v1/namespaces/:name', nsAuthz('get'), async (req, reply) => {
    const ns = synthesizeNamespace(req.params.name, startedAt);
    if (!ns) throw notFound(nsGR, req.params.name);
    return sendJSON(reply, 200, ns, isPretty(req.query as Record<string, string>));
  });
  app.get('/api/v1/namespaces', nsAuthz('list'), async (req, reply) => sendJSON(reply, 200, await listNamespaces(options.storage, startedAt), isPretty(req.query as Record<string, string>)));

  const health = (withStorage: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const checks: [string, boolean][] = [['ping', true]];
    if (withStorage) checks.push(['storage', await options.storage.ready().then(() => true, () => false)]);
    const ok = checks.every(([, c]) => c);
    const name = (req.url.split('?')[0] ?? '').slice(1);
    const verbose = 'verbose' in (req.query as Record<string, unknown>);
    reply.code(ok ? 200 : 500).header('Content-Type', 'text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff');
    if (ok && !verbose) return reply.send('ok');
    const lines = checks.map(([n, c]) => (c ? `[+]${n} ok` : `[-]${n} failed: reason withheld`));
    return reply.send(`${lines.join('\n')}\n${name} check ${ok ? 'passed' : 'failed'}\n`);
  };
  app.get('/healthz', health(true));
  app.get('/livez', health(false));
  app.get('/readyz', health(true));

  registerOpenAPI(app, views);
  return { app, watches, metrics, views };
}
