import { buildApiServer, leasesResource, ServerLifecycle, ServerMetrics, WatchHub } from '@kevents/apiserver';
import type { Authenticator, Authorizer } from '@kevents/api';
import type { ApiServer, ApiServerOptions, DiscoveredResource } from '@kevents/apiserver';
import type { Storage } from '@kevents/storage';
import { eventsResource } from '../registry/events/resource.js';
import { referencedKinds } from './referenced-kinds.js';
import { serveWebView } from './ui.js';
import { versionInfo } from './version.js';

/** Options of {@link buildServer}. */
export interface ServerOptions {
  readonly storage: Storage;
  /** API group domain (`k8s.io`): events are served as `events.<domain>/v1`. */
  readonly groupDomain?: string;
  /** Also serve events as core/v1 under `/api/v1` (kubectl get events, kubectl events). */
  readonly coreView?: boolean;
  /** Default watch length is a random value in [min, 2*min) seconds. */
  readonly minRequestTimeoutSeconds?: number;
  readonly logger?: ApiServerOptions['logger'];
  /** Serve HTTPS (HTTP/2 and HTTP/1.1) with this key pair (and ask for client certificates with `ca`/`requestCert`). */
  readonly https?: ApiServerOptions['https'];
  /**
   * Decides who sent each request (the `@kevents/authn` chain, which does its own anonymous
   * step); none serves every request as `system:anonymous`.
   */
  readonly authenticator?: Authenticator;
  /** Decides every request (default AlwaysAllow); `--authorization-mode`. */
  readonly authorizer?: Authorizer;
  /** Share metrics and live watches between the HTTPS and HTTP listeners of one process. */
  readonly metrics?: ServerMetrics;
  readonly watches?: WatchHub;
  /** Share the shutdown state between the listeners of one process. */
  readonly lifecycle?: ServerLifecycle;
  readonly storeOptions?: ApiServerOptions['storeOptions'];
  /** Spans of each request (`--tracing-config-file`). */
  readonly tracing?: ApiServerOptions['tracing'];
  /** Verbs left out of discovery (`--discovery-omit-verbs`). */
  readonly discoveryOmittedVerbs?: ApiServerOptions['discoveryOmittedVerbs'];
  /** Connection bounds of the listener (`--max-connections`, `--http2-max-streams-per-connection`, `--request-timeout`). */
  readonly limits?: ApiServerOptions['limits'];
}

/** A built kevents server. */
export type KeventsServer = ApiServer;

/** The resources kevents serves for a group domain. */
export const keventsResources = (groupDomain: string, coreView = true): ApiServerOptions['resources'] => [
  eventsResource(groupDomain, coreView),
  leasesResource(groupDomain),
];

/** The kinds events point at, listed in discovery without verbs. */
const listed: readonly DiscoveredResource[] = referencedKinds;

/** Builds the kevents API server (Events, Leases, discovery, OpenAPI, metrics); does not listen. */
export function buildServer(options: ServerOptions): KeventsServer {
  const groupDomain = options.groupDomain ?? 'k8s.io';
  const server = buildApiServer({
    storage: options.storage,
    resources: keventsResources(groupDomain, options.coreView !== false),
    listedResources: listed,
    groupDomain,
    version: versionInfo(),
    ...(options.minRequestTimeoutSeconds !== undefined
      ? { minRequestTimeoutSeconds: options.minRequestTimeoutSeconds }
      : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.https ? { https: options.https } : {}),
    ...(options.authorizer ? { authorizer: options.authorizer } : {}),
    ...(options.authenticator ? { authenticator: options.authenticator, anonymous: false } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.watches ? { watches: options.watches } : {}),
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
    ...(options.storeOptions ? { storeOptions: options.storeOptions } : {}),
    ...(options.tracing ? { tracing: options.tracing } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.discoveryOmittedVerbs?.length ? { discoveryOmittedVerbs: options.discoveryOmittedVerbs } : {}),
  });
  return serveWebView(server);
}
