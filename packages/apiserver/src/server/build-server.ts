import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
} from 'fastify';
import { maxRequestBodyBytes, timeNow } from '@kevents/api';
import type { APIResource, VersionInfo } from '@kevents/api';
import type { Storage } from '@kevents/storage';
import {
  ApiError,
  badRequest,
  internalError,
  notFound,
  pathNotFound,
  requestEntityTooLarge,
  unsupportedMediaType,
} from '../errors/api-error.js';
import { clientErrorResponse, frameworkErrorStatus, maxPathParamBytes } from '../errors/framework-errors.js';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryV2,
  aggregatedDiscoveryV2Beta1,
  discoveryRepresentation,
} from '../discovery/aggregated.js';
import { DiscoveryIndex } from '../discovery/discovery.js';
import type { DiscoveredResource } from '../discovery/discovery.js';
import { installAuthentication } from '../filters/authentication.js';
import { installAuthorization } from '../filters/authorization.js';
import { installImpersonation } from '../filters/impersonation.js';
import { installRequestInfo, rewriteRequestTarget } from '../filters/request-info.js';
import { installTracingAuthenticated, installTracingAuthorized, installTracingStart } from '../filters/tracing.js';
import type { ServerTracing } from '../filters/tracing.js';
import type { Authenticator, Authorizer } from '@kevents/api';
import { isPretty, sendJSON, sendJSONText } from '../handlers/respond.js';
import { installResources } from '../install/installer.js';
import type { InstalledView, RestRouteConfig } from '../install/installer.js';
import { openAPIInputFromViews } from '../openapi/input.js';
import { registerOpenAPI } from '../openapi/register.js';
import { installSelfSubjectReviews } from '../reviews/reviews.js';
import type { ResourceDefinition } from '../registry/resource.js';
import type { StoreOptions } from '../registry/store.js';
import type { Query } from '../request/query.js';
import { WatchHub } from '../watch/watch-hub.js';
import { limitedServerFactory, onClientError } from './connection-limits.js';
import type { ConnectionLimits } from './connection-limits.js';
import { ServerLifecycle } from './lifecycle.js';
import { ServerMetrics } from './metrics.js';
import type { RequestLabels } from './metrics.js';
import { defaultNamespaceUIDSeed, listNamespaces, synthesizeNamespace } from './namespaces.js';
import { defaultVersionInfo } from './version.js';

/** Options of {@link buildApiServer}. */
export interface ApiServerOptions {
  readonly storage: Storage;
  /** The resources to serve, each at one or more group versions. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly resources: readonly ResourceDefinition<any>[];
  /** Resources listed in discovery but not served (no verbs), so clients can resolve their names. */
  readonly listedResources?: readonly DiscoveredResource[];
  /** Serve core/v1 namespaces, implicit (any DNS label is an Active namespace), read-only. Default true. */
  readonly namespaces?: boolean;
  /**
   * The seed of implicit namespaces' uids: a namespace's uid is a name-based UUID of
   * `<seed>/namespace/<name>`, the same on every server with the same seed. Default `kevents`.
   */
  readonly namespaceUIDSeed?: string;
  /** The group domain that operation ids strip (`k8s.io`). */
  readonly groupDomain?: string;
  /** `/version`; default {@link defaultVersionInfo}`()`. */
  readonly version?: VersionInfo;
  /**
   * The largest request body read (413 past it); default `maxRequestBodyBytes` of `@kevents/api`
   * (3 MiB, kube-apiserver's `MaxRequestBodyBytes`). Patch limits derive from the default, not from this.
   */
  readonly maxRequestBodyBytes?: number;
  /** The longest path segment routed (longer ones are answered as fastify's router refuses them); default 32 KiB. */
  readonly maxPathParamBytes?: number;
  /** Default watch length is a random value in [min, 2*min) seconds. */
  readonly minRequestTimeoutSeconds?: number;
  /** Where unexpected request failures are logged (fastify's per-request logging stays off: it costs a child logger per request). */
  readonly logger?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  /**
   * Serve HTTPS with this key pair; HTTP/2 and HTTP/1.1 are offered by ALPN. With `ca` and
   * `requestCert`, clients are asked for a certificate (`--client-ca-file`; verified by the
   * authenticator, so a client without one still connects).
   */
  readonly https?: { key: string | Buffer; cert: string | Buffer; ca?: string | Buffer; requestCert?: boolean };
  /** Decides who sent each request; none serves every request as `system:anonymous`. */
  readonly authenticator?: Authenticator;
  /** Requests no authenticator claims are anonymous (default), or 401. */
  readonly anonymous?: boolean;
  /** Decides every request (default: allow all). */
  readonly authorizer?: Authorizer;
  /** Share metrics and live watches between the listeners of one process. */
  readonly metrics?: ServerMetrics;
  readonly watches?: WatchHub;
  /** The shutdown state, shared by the listeners of one process (`/readyz`, refusing new requests, in-flight count). */
  readonly lifecycle?: ServerLifecycle;
  /** Options of every generic store (tests pass a deterministic name generator). */
  readonly storeOptions?: StoreOptions;
  /** Spans of each request (`@kevents/tracing`); none installs no tracing hook at all. */
  readonly tracing?: ServerTracing;
  /**
   * Connection bounds of the listener (connection-limits.ts): a connection cap, HTTP/2 streams
   * per connection, the TLS handshake, header and request timeouts. Defaults as kube-apiserver.
   */
  readonly limits?: ConnectionLimits;
}

/** A built server: the fastify instance plus what shutdown and composition need. */
export interface ApiServer {
  readonly app: FastifyInstance;
  readonly watches: WatchHub;
  readonly metrics: ServerMetrics;
  readonly lifecycle: ServerLifecycle;
  readonly installed: readonly InstalledView[];
}

type Variants = { plain: RequestLabels; dry: RequestLabels };
/** Label sets of one route (its `rest` config object) by scope, then by verb: no key is built per request. */
type RouteLabels = Map<string, Variants>[];
const scopeNames = ['resource', 'namespace', 'cluster'] as const;

/** The `apiserver_request_total` labels of a resource request, from its RequestInfo (cached per distinct set). */
function labelsFor(byScope: RouteLabels, req: FastifyRequest, rest: RestRouteConfig['rest']): RequestLabels {
  const info = req.requestInfo;
  // CleanScope: a named object or a create is "resource".
  const s = info.name || info.verb === 'create' ? 0 : info.namespace ? 1 : 2;
  let verb: string;
  if (info.verb === 'watch') verb = 'WATCH';
  else if (info.verb === 'list') verb = 'LIST';
  else if (info.verb === 'get') verb = 'GET';
  else verb = req.method === 'HEAD' ? 'GET' : req.method;
  let v = byScope[s]!.get(verb);
  if (!v) {
    const plain: RequestLabels = {
      verb,
      group: rest.group,
      version: rest.version,
      resource: rest.resource,
      subresource: '',
      scope: scopeNames[s],
      component: 'apiserver',
      dry_run: '',
    };
    v = { plain, dry: { ...plain, dry_run: 'All' } };
    byScope[s]!.set(verb, v);
  }
  return (req.query as Query)['dryRun'] !== undefined ? v.dry : v.plain;
}

/**
 * Builds a Kubernetes-style API server for the given resources: the filter chain (recovery,
 * request info, authentication, authorization), the generic REST routes of every view,
 * discovery (legacy and aggregated), OpenAPI v2/v3, namespaces, `/version`, `/metrics` and the
 * health checks. It does not listen.
 */
export function buildApiServer(options: ApiServerOptions): ApiServer {
  const tls = options.https ? serverTLS(options.https) : undefined;
  const bodyLimit = options.maxRequestBodyBytes ?? maxRequestBodyBytes;
  const namespaceSeed = options.namespaceUIDSeed ?? defaultNamespaceUIDSeed;
  const app = Fastify({
    logger: false,
    // One parse of the request target for the router and every filter (filters/request-info.ts).
    rewriteUrl: rewriteRequestTarget,
    bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: options.maxPathParamBytes ?? maxPathParamBytes },
    logController: new Fastify.LogController({ disableRequestLogging: true }),
    // A graceful shutdown drains first (gracefulShutdown) and closes the app last, when what is
    // left may be cut; a request that arrives while draining gets a Status 429, not fastify's 503.
    return503OnClosing: false,
    forceCloseConnections: true,
    ...(tls ? { http2: true, https: tls } : {}),
    // The listener fastify would build, with the connection bounds (connection-limits.ts): TLS
    // handshake and header timeouts, unread bodies, HTTP/2 streams per connection, a connection cap.
    serverFactory: limitedServerFactory(options.limits, tls),
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      const apiErr = frameworkErrorStatus(err, req.raw.url ?? '') ?? badRequest(err.message);
      void sendJSON(reply, apiErr.code, apiErr.status, isPretty((req.query ?? {}) as Query));
    },
    // Requests Node's parser refuses (headers too large, unknown methods, bad framing) get a Status too.
    // A connection whose TLS handshake failed or timed out is destroyed.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: import('node:net').Socket) =>
      onClientError(err, socket, clientErrorResponse),
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;
  const watches = options.watches ?? new WatchHub();
  const metrics =
    options.metrics ??
    new ServerMetrics(
      () => watches.counts(),
      () => watches.terminatedCounts(),
    );
  const lifecycle = options.lifecycle ?? new ServerLifecycle();
  const startedAt = timeNow();
  const serveNamespaces = options.namespaces !== false;

  app.setErrorHandler((err: FastifyError, req, reply) => {
    let apiErr: ApiError;
    if (err instanceof ApiError) apiErr = err;
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') apiErr = requestEntityTooLarge(bodyLimit);
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      apiErr = unsupportedMediaType(['application/json', 'application/yaml']);
    } else if (frameworkErrorStatus(err, req.url)) {
      apiErr = frameworkErrorStatus(err, req.url)!;
    } else {
      options.logger?.error({ err, method: req.method, url: req.url }, 'request failed');
      apiErr = internalError(err);
    }
    for (const [k, v] of Object.entries(apiErr.headers)) reply.header(k, v);
    return sendJSON(reply, apiErr.code, apiErr.status, isPretty((req.query ?? {}) as Query));
  });
  app.setNotFoundHandler((req, reply) =>
    sendJSON(reply, 404, pathNotFound().status, isPretty((req.query ?? {}) as Query)),
  );

  installRequestInfo(app);
  // kube-apiserver's WithRetryAfter and in-flight accounting, ahead of authentication: while the
  // server drains, new requests are refused with 429 and Retry-After; watches are long-running
  // and not counted (the WatchHub ends them).
  app.addHook('onRequest', (req, reply, done) => {
    if (lifecycle.refuses(req.requestInfo.path)) {
      const refusal = lifecycle.refusal();
      if (req.raw.httpVersionMajor === 1) reply.header('Connection', 'close');
      for (const [k, v] of Object.entries(refusal.headers)) reply.header(k, v);
      void sendJSON(reply, refusal.code, refusal.status, isPretty((req.query ?? {}) as Query));
      return;
    }
    if (req.requestInfo.verb !== 'watch') lifecycle.track(reply.raw);
    done();
  });
  if (options.tracing) installTracingStart(app, options.tracing);
  installAuthentication(app, {
    ...(options.authenticator ? { authenticator: options.authenticator } : {}),
    anonymous: options.anonymous !== false,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  if (options.tracing) installTracingAuthenticated(app);
  installImpersonation(app, options.authorizer);
  installAuthorization(app, options.authorizer, metrics);
  if (options.tracing) installTracingAuthorized(app);

  app.removeAllContentTypeParsers();
  const keepText = (_req: FastifyRequest, body: string | Buffer, done: (err: null, body: unknown) => void): void =>
    done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, keepText);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, keepText);

  // The metrics filter: an onResponse hook on the resource routes only, holding its route's labels.
  const routeLabels = new WeakMap<RestRouteConfig['rest'], RouteLabels>();
  const labelsOf = (rest: RestRouteConfig['rest']): RouteLabels => {
    let byScope = routeLabels.get(rest);
    if (!byScope) routeLabels.set(rest, (byScope = [new Map(), new Map(), new Map()]));
    return byScope;
  };
  const observeRequests = (rest: RestRouteConfig['rest']): onResponseHookHandler => {
    const byScope = labelsOf(rest);
    return (req, reply, done) => {
      metrics.observe(labelsFor(byScope, req, rest), reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
  };

  const installed = installResources(app, options.resources, {
    storage: options.storage,
    watches,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    // A watch the client ends never finishes its response: count it when the client goes away
    // (a per-watch listener; an onRequestAbort hook would put one on every request).
    onWatchAbandoned: (req) => {
      const rest = (req.routeOptions.config as Partial<RestRouteConfig>).rest;
      if (rest) metrics.observe(labelsFor(labelsOf(rest), req, rest), 200, 0);
    },
    onResponse: observeRequests,
    ...(options.storeOptions ? { storeOptions: options.storeOptions } : {}),
  });
  // kube-apiserver always serves the self-subject reviews (`kubectl auth can-i`, `auth whoami`).
  const reviews = installSelfSubjectReviews(app, options.authorizer ? { authorizer: options.authorizer } : {});

  const index = new DiscoveryIndex();
  const served: DiscoveredResource[] = installed.map((i) => ({
    group: i.scope.view.group,
    version: i.scope.view.version,
    resource: i.apiResource,
  }));
  if (serveNamespaces) served.push({ group: '', version: 'v1', resource: namespacesAPIResource() });
  for (const r of reviews) served.push({ group: r.group, version: r.version, resource: r.apiResource });
  for (const d of [...served, ...(options.listedResources ?? [])]) index.add(d);

  const pretty = (req: FastifyRequest): boolean => isPretty((req.query ?? {}) as Query);
  const send = (body: unknown) => async (req: FastifyRequest, reply: FastifyReply) =>
    sendJSON(reply, 200, body, pretty(req));
  const aggregated = new Map<string, { body: string; etag: string }>();
  for (const core of [true, false]) {
    for (const v of ['v2', 'v2beta1'] as const) {
      const body = JSON.stringify(aggregatedDiscovery(index, core, v));
      aggregated.set(`${core}/${v}`, {
        body,
        etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`,
      });
    }
  }
  const discovery = (core: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const rep = discoveryRepresentation(req.headers.accept);
    reply.header('Vary', 'Accept');
    if (rep === 'legacy') {
      const body = core ? index.apiVersions(req.hostname) : index.apiGroupList();
      return sendJSON(reply, 200, body, pretty(req));
    }
    // As kube-apiserver's aggregated/etag.go: an ETag of the document, 304 when the client holds it.
    const doc = aggregated.get(`${core}/${rep}`)!;
    const type = rep === 'v2' ? aggregatedDiscoveryV2 : aggregatedDiscoveryV2Beta1;
    reply.header('ETag', doc.etag);
    if (req.headers['if-none-match'] === doc.etag) return reply.code(304).header('Content-Type', type).send();
    return sendJSONText(reply, 200, doc.body, [], type, 'public');
  };
  app.get('/api', discovery(true));
  app.get('/apis', discovery(false));
  for (const gv of index.groupVersions()) {
    const list = index.resourceList(gv.group, gv.version)!;
    if (gv.group === '') {
      app.get(`/api/${gv.version}`, send(list));
      continue;
    }
    app.get(`/apis/${gv.group}/${gv.version}`, send(list));
  }
  for (const g of index.groups()) app.get(`/apis/${g.name}`, send({ kind: 'APIGroup', apiVersion: 'v1', ...g }));

  app.get('/version', send(options.version ?? defaultVersionInfo()));
  app.get('/metrics', async (_req, reply) =>
    reply.header('Content-Type', metrics.contentType).send(await metrics.text()),
  );

  if (serveNamespaces) {
    const nsGR = { group: '', resource: 'namespaces' };
    const namespacedResources = [
      ...new Set(installed.filter((i) => i.scope.strategy.namespaced).map((i) => i.scope.store.resource)),
    ];
    app.get<{ Params: { name: string } }>('/api/v1/namespaces/:name', async (req, reply) => {
      const ns = synthesizeNamespace(req.params.name, startedAt, namespaceSeed);
      if (!ns) throw notFound(nsGR, req.params.name);
      return sendJSON(reply, 200, ns, pretty(req));
    });
    app.get('/api/v1/namespaces', async (req, reply) =>
      sendJSON(
        reply,
        200,
        await listNamespaces(options.storage, namespacedResources, startedAt, namespaceSeed),
        pretty(req),
      ),
    );
  }

  const health =
    (withStorage: boolean, withShutdown = false) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const checks: [string, boolean][] = [['ping', true]];
      if (withStorage) {
        checks.push([
          'storage',
          await options.storage.ready().then(
            () => true,
            () => false,
          ),
        ]);
      }
      // kube-apiserver's readyz `shutdown` check: fails from the moment SIGTERM arrives.
      if (withShutdown) checks.push(['shutdown', lifecycle.phase === 'running']);
      const ok = checks.every(([, c]) => c);
      const name = req.requestInfo.path.slice(1);
      const verbose = 'verbose' in (req.query as Record<string, unknown>);
      reply
        .code(ok ? 200 : 500)
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff');
      if (ok && !verbose) return reply.send('ok');
      const lines = checks.map(([n, c]) => (c ? `[+]${n} ok` : `[-]${n} failed: reason withheld`));
      return reply.send(`${lines.join('\n')}\n${name} check ${ok ? 'passed' : 'failed'}\n`);
    };
  app.get('/healthz', health(true));
  app.get('/livez', health(false));
  app.get('/readyz', health(true, true));

  registerOpenAPI(
    app,
    openAPIInputFromViews(installed, {
      namespaces: serveNamespaces,
      ...(options.groupDomain ? { groupDomain: options.groupDomain } : {}),
      resources: reviews,
    }),
  );
  return { app, watches, metrics, lifecycle, installed };
}

/**
 * The TLS options of the listener. The client CA (`ca`) is not given to Node: the authenticator
 * verifies client certificates itself (Go's x509.Verify, with the intermediates the client sends),
 * and with `ca` set Node 24.21's server side reports only the leaf of the presented chain
 * (`getPeerCertificate(true)` has no `issuerCertificate`; seen here, a client sending leaf and
 * intermediate was refused).
 * Without it, the CertificateRequest lists no acceptable CAs, which clients such as kubectl and
 * client-go read as "any certificate".
 */
function serverTLS(https: NonNullable<ApiServerOptions['https']>): Record<string, unknown> {
  const { ca: _ca, ...rest } = https;
  return { allowHTTP1: true, rejectUnauthorized: false, ...rest };
}

/** Synthesized namespaces are readable, so kubectl can word its NotFound errors. */
const namespacesAPIResource = (): APIResource => ({
  name: 'namespaces',
  singularName: 'namespace',
  namespaced: false,
  kind: 'Namespace',
  verbs: ['get', 'list'],
  shortNames: ['ns'],
});
