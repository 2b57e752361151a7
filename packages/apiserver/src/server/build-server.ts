import { maxRequestBodyBytes, timeNow } from '@kevents/api';
import { sendRawJSON } from '../encoding/respond.js';
import type { Authenticator, Authorizer, OpenAPIVerb, VersionInfo } from '@kevents/api';
import type { Storage } from '@kevents/storage';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DiscoveredResource } from '../discovery/discovery.js';
import { installAuthentication } from '../filters/authentication.js';
import { installAuthorization } from '../filters/authorization.js';
import { installImpersonation } from '../filters/impersonation.js';
import { installRequestInfo } from '../filters/request-info.js';
import { installTracingAuthenticated, installTracingAuthorized, installTracingStart } from '../filters/tracing.js';
import type { ServerTracing } from '../filters/tracing.js';
import { installResources } from '../install/installer.js';
import type { InstalledView } from '../install/installer.js';
import { openAPIInputFromViews } from '../openapi/input.js';
import { registerOpenAPI } from '../openapi/register.js';
import type { ResourceDefinition } from '../registry/resource.js';
import type { StoreOptions } from '../registry/store.js';
import { defaultValueLimits, valueLimitsOf } from '../registry/value-limits.js';
import { installSelfSubjectReviews } from '../reviews/reviews.js';
import { WatchHub } from '../watch/watch-hub.js';
import type { ConnectionLimits } from './connection-limits.js';
import { installDiscoveryRoutes } from './discovery-routes.js';
import { installErrorHandlers } from './error-handler.js';
import { createFastifyApp, installBodyParsers } from './fastify-app.js';
import type { HttpsOptions } from './fastify-app.js';
import { installHealthChecks } from './health.js';
import { ServerLifecycle } from './lifecycle.js';
import { installLifecycleHook } from './lifecycle-hook.js';
import { ServerMetrics } from './metrics.js';
import { requestMetricsFilter } from './metrics-filter.js';
import { installNamespaceRoutes, namespacesAPIResource } from './namespace-routes.js';
import { defaultNamespaceUIDSeed } from './namespaces.js';
import { defaultVersionInfo } from './version.js';

/** Options of {@link buildApiServer}. */
export interface ApiServerOptions {
  readonly storage: Storage;
  /** The resources to serve, each at one or more group versions. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly resources: readonly ResourceDefinition<any>[];
  /** Resources listed in discovery but not served (no verbs), so clients can resolve their names. */
  readonly listedResources?: readonly DiscoveredResource[];
  /**
   * Verbs left out of every served resource's discovery entry; the requests are still served.
   * kube-controller-manager's garbage collector, namespace and resource-quota controllers act
   * only on resources whose discovery lists `delete` (see docs/operations.md).
   */
  readonly discoveryOmittedVerbs?: readonly OpenAPIVerb[];
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
  /** Serve HTTPS with this key pair (HTTP/2 and HTTP/1.1 by ALPN); plain HTTP/1.1 without. */
  readonly https?: HttpsOptions;
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
  /**
   * The most values (object members and array elements at every depth, `metadata.managedFields`
   * included) an object written through the API may hold: a create, update, patch or apply that
   * would store more is a 413 `RequestEntityTooLarge` naming this bound, and nothing is stored.
   * A body, a patched object or an apply's result may hold 1,000 more; a merge or strategic merge
   * patch may spell three times as many (see `ValueLimits`). A positive integer; default
   * `maxObjectValues` (10,000). kevents' own bound: every value costs the single event loop a few
   * microseconds (docs/api.md, "Limits").
   */
  readonly maxObjectValues?: number;
}

/** A built server: the fastify instance plus what shutdown and composition need. */
export interface ApiServer {
  readonly app: FastifyInstance;
  readonly watches: WatchHub;
  readonly metrics: ServerMetrics;
  readonly lifecycle: ServerLifecycle;
  readonly installed: readonly InstalledView[];
}

/**
 * Builds a Kubernetes-style API server for the given resources: the filter chain (recovery,
 * request info, authentication, authorization), the generic REST routes of every view,
 * discovery (legacy and aggregated), OpenAPI v2/v3, namespaces, `/version`, `/metrics` and the
 * health checks. It does not listen.
 */
export function buildApiServer(options: ApiServerOptions): ApiServer {
  const bodyLimit = options.maxRequestBodyBytes ?? maxRequestBodyBytes;
  const valueLimits =
    options.maxObjectValues === undefined ? defaultValueLimits : valueLimitsOf(options.maxObjectValues);
  const app = createFastifyApp({
    bodyLimit,
    ...(options.https ? { https: options.https } : {}),
    ...(options.maxPathParamBytes !== undefined ? { maxPathParamBytes: options.maxPathParamBytes } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
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

  // The filter chain, in kube-apiserver's order.
  installErrorHandlers(app, { bodyLimit, ...(options.logger ? { logger: options.logger } : {}) });
  installRequestInfo(app);
  installLifecycleHook(app, lifecycle);
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
  installBodyParsers(app, bodyLimit);

  // The resources, each through its metrics filter.
  const installed = installResources(app, options.resources, {
    storage: options.storage,
    watches,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    ...requestMetricsFilter(metrics),
    ...(options.storeOptions ? { storeOptions: options.storeOptions } : {}),
    valueLimits,
    ...(options.discoveryOmittedVerbs ? { discoveryOmittedVerbs: options.discoveryOmittedVerbs } : {}),
  });
  // kube-apiserver always serves the self-subject reviews (`kubectl auth can-i`, `auth whoami`).
  const reviews = installSelfSubjectReviews(app, {
    valueLimits,
    ...(options.authorizer ? { authorizer: options.authorizer } : {}),
  });

  const served: DiscoveredResource[] = installed.map((i) => ({
    group: i.scope.view.group,
    version: i.scope.view.version,
    resource: i.apiResource,
  }));
  if (serveNamespaces) served.push({ group: '', version: 'v1', resource: namespacesAPIResource() });
  for (const r of reviews) served.push({ group: r.group, version: r.version, resource: r.apiResource });
  installDiscoveryRoutes(app, [...served, ...(options.listedResources ?? [])]);

  const version = options.version ?? defaultVersionInfo();
  app.get('/version', async (_req, reply) => sendRawJSON(reply, 200, version));
  app.get('/metrics', async (_req, reply) =>
    reply.header('Content-Type', metrics.contentType).send(await metrics.text()),
  );
  if (serveNamespaces) {
    installNamespaceRoutes(app, {
      storage: options.storage,
      namespacedResources: [
        ...new Set(installed.filter((i) => i.scope.strategy.namespaced).map((i) => i.scope.store.resource)),
      ],
      uidSeed: options.namespaceUIDSeed ?? defaultNamespaceUIDSeed,
      createdAt: startedAt,
    });
  }
  installHealthChecks(app, { storage: options.storage, lifecycle });

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
