import { defaultOptions, flagHelp, logFlags, parseCommandLine } from '@kevents/cli';
import type { CommandLine, FlagSpecs, OptionsOf } from '@kevents/cli';

/**
 * The flags of `kevents-apiserver` (the command-line contract of docs/architecture.md and
 * docs/configuration.md), by the key each fills in {@link ApiserverOptions}. Comma-separated
 * flags are lists; durations are milliseconds.
 */
export const apiserverFlags = {
  bindAddress: {
    name: 'bind-address',
    type: 'string',
    default: '127.0.0.1',
    help: 'The IP address on which to listen.',
  },
  securePort: {
    name: 'secure-port',
    type: 'int',
    default: '6443',
    help: 'The port on which to serve HTTPS. 0 turns it off.',
  },
  insecurePort: {
    name: 'insecure-port',
    type: 'int',
    default: '0',
    help: 'The port on which to serve plain HTTP; refused on a non-loopback bind address. 0 turns it off.',
  },
  tlsCertFile: {
    name: 'tls-cert-file',
    type: 'string',
    default: '',
    help: 'File containing the x509 serving certificate (PEM). A self-signed pair is generated when absent.',
  },
  tlsPrivateKeyFile: {
    name: 'tls-private-key-file',
    type: 'string',
    default: '',
    help: 'File containing the x509 private key matching --tls-cert-file.',
  },
  storage: {
    name: 'storage',
    type: 'string',
    default: 'memory',
    help: 'Where events are stored: memory (in-process), redis://HOST:PORT[/DB], rediss://..., redis+sentinel://HOST:PORT[,...]/MASTER or redis+cluster://HOST:PORT[,...] (?prefix=NAME shares one Redis); sqlite:///ABS/PATH.db (on disk, one replica; ?synchronous=normal trades power-loss safety for speed); postgres://USER:PASS@HOST:5432/DB[?sslmode=require|verify-ca|verify-full] (on disk, shared by many replicas). SQL URLs take ?historyLimit=N&historyMaxAgeMs=MS (see docs/operations.md).',
  },
  storageCafile: {
    name: 'storage-cafile',
    type: 'string',
    default: '',
    help: 'With a TLS Redis URL (rediss://...) or a PostgreSQL URL with sslmode: CA certificates (PEM) that verify the server, instead of the system CAs.',
  },
  storageCertfile: {
    name: 'storage-certfile',
    type: 'string',
    default: '',
    help: 'With a TLS Redis or PostgreSQL URL: client certificate (PEM) to present to the server (Redis needs one when it has tls-auth-clients yes, its default).',
  },
  storageKeyfile: {
    name: 'storage-keyfile',
    type: 'string',
    default: '',
    help: 'With a TLS Redis or PostgreSQL URL: private key (PEM) of --storage-certfile.',
  },
  groupDomain: {
    name: 'group-domain',
    type: 'string',
    default: 'k8s.io',
    help: 'API group domain: serves events.<domain> and coordination.<domain>; config kinds are apiserver.config.<domain>.',
  },
  discoveryOmitVerbs: {
    name: 'discovery-omit-verbs',
    type: 'stringSlice',
    default: '',
    help: "Comma-separated verbs (of create, delete, deletecollection, get, list, patch, update, watch) left out of every resource's discovery entry; the requests are still served. kube-controller-manager's garbage collector, namespace and resource-quota controllers act only on resources whose discovery lists delete: with delete,deletecollection left out, an aggregated kevents keeps a deleted namespace's history and the cluster's controllers do not watch it (docs/operations.md).",
  },
  authenticationConfig: {
    name: 'authentication-config',
    type: 'string',
    default: '',
    help: 'File with an AuthenticationConfiguration: JWT issuers (OIDC discovery), claim mappings and rules, anonymous access. Refused when invalid at start; reloaded when it changes (an invalid file or an unhealthy issuer keeps the running one).',
  },
  anonymousAuth: {
    name: 'anonymous-auth',
    type: 'bool',
    default: 'true',
    help: 'Serve requests no authenticator claims as system:anonymous. An error when the authentication config has an anonymous block; forced off with --authorization-mode=AlwaysAllow once an authenticator is configured (as kube-apiserver does).',
  },
  clientCaFile: {
    name: 'client-ca-file',
    type: 'string',
    default: '',
    help: 'PEM bundle of CAs: a client certificate signed by one of them authenticates the request, its Common Name as the user and its Organizations as the groups.',
  },
  authorizationConfig: {
    name: 'authorization-config',
    type: 'string',
    default: '',
    help: 'File with an AuthorizationConfiguration: the authorizer chain (Webhook, AlwaysAllow, AlwaysDeny) after the built-in system:masters authorizer. Refused when invalid; reloaded when it changes (an invalid new file keeps the running chain). An error together with --authorization-mode.',
  },
  authorizationMode: {
    name: 'authorization-mode',
    type: 'stringSlice',
    default: 'AlwaysAllow',
    help: 'Comma-separated AlwaysAllow and AlwaysDeny; used only without --authorization-config (an error when both are given). Webhooks need --authorization-config.',
  },
  requestheaderClientCaFile: {
    name: 'requestheader-client-ca-file',
    type: 'string',
    default: '',
    help: "Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers (the aggregation layer's front-proxy CA). Without a client certificate the headers are ignored; a certificate this bundle does not verify is refused with 401.",
  },
  requestheaderAllowedNames: {
    name: 'requestheader-allowed-names',
    type: 'stringSlice',
    default: '',
    help: 'Comma-separated client certificate common names allowed to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
  },
  requestheaderUsernameHeaders: {
    name: 'requestheader-username-headers',
    type: 'stringSlice',
    default: 'X-Remote-User',
    help: 'Comma-separated request headers to inspect for usernames; the first with a value is the user.',
  },
  requestheaderUidHeaders: {
    name: 'requestheader-uid-headers',
    type: 'stringSlice',
    default: '',
    help: 'Comma-separated request headers to inspect for UIDs (kube-aggregator sends X-Remote-Uid).',
  },
  requestheaderGroupHeaders: {
    name: 'requestheader-group-headers',
    type: 'stringSlice',
    default: 'X-Remote-Group',
    help: 'Comma-separated request headers to inspect for groups; every value counts.',
  },
  requestheaderExtraHeadersPrefix: {
    name: 'requestheader-extra-headers-prefix',
    type: 'stringSlice',
    default: 'X-Remote-Extra-',
    help: 'Comma-separated request header prefixes to inspect; the rest of the header name, lower-cased and percent-decoded, is the extra key.',
  },
  authenticationKubeconfig: {
    name: 'authentication-kubeconfig',
    type: 'string',
    default: '',
    help: "kubeconfig file pointing at the cluster's API server with enough rights to create tokenreviews.authentication.k8s.io (system:auth-delegator): bearer tokens no local authenticator claims are reviewed there.",
  },
  authenticationTokenWebhookCacheTtlMs: {
    name: 'authentication-token-webhook-cache-ttl',
    type: 'duration',
    default: '10s',
    help: 'The duration to cache responses from the webhook token authenticator (--authentication-kubeconfig); errors are not cached.',
  },
  authenticationSkipLookup: {
    name: 'authentication-skip-lookup',
    type: 'bool',
    default: 'false',
    help: 'If false, the authentication-kubeconfig will be used to lookup missing authentication configuration from the cluster: without --client-ca-file or --requestheader-client-ca-file, the client CA and the request-header settings are read from kube-system/extension-apiserver-authentication (and read again every minute).',
  },
  authorizationKubeconfig: {
    name: 'authorization-kubeconfig',
    type: 'string',
    default: '',
    help: "kubeconfig file pointing at the cluster's API server with enough rights to create subjectaccessreviews.authorization.k8s.io (system:auth-delegator): every request not allowed by --authorization-always-allow-paths/-groups is authorized by a SubjectAccessReview there, then by the --authorization-config chain when given. --authorization-mode is not used with it.",
  },
  authorizationAlwaysAllowPaths: {
    name: 'authorization-always-allow-paths',
    type: 'stringSlice',
    default: '/healthz,/readyz,/livez',
    help: 'Comma-separated HTTP paths (a trailing * matches a prefix) that are not authorized with --authorization-kubeconfig.',
  },
  authorizationAlwaysAllowGroups: {
    name: 'authorization-always-allow-groups',
    type: 'stringSlice',
    default: 'system:masters',
    help: 'Comma-separated groups that are allowed every request without a SubjectAccessReview (with --authorization-kubeconfig).',
  },
  authorizationWebhookCacheAuthorizedTtlMs: {
    name: 'authorization-webhook-cache-authorized-ttl',
    type: 'duration',
    default: '10s',
    help: "The duration to cache 'authorized' responses from the webhook authorizer (--authorization-kubeconfig).",
  },
  authorizationWebhookCacheUnauthorizedTtlMs: {
    name: 'authorization-webhook-cache-unauthorized-ttl',
    type: 'duration',
    default: '10s',
    help: "The duration to cache 'unauthorized' responses from the webhook authorizer (--authorization-kubeconfig).",
  },
  egressSelectorConfigFile: {
    name: 'egress-selector-config-file',
    type: 'string',
    default: '',
    help: 'File with an EgressSelectorConfiguration (validated at start; refused when invalid).',
  },
  tracingConfigFile: {
    name: 'tracing-config-file',
    type: 'string',
    default: '',
    help: 'File with a TracingConfiguration (validated at start; refused when invalid).',
  },
  minRequestTimeout: {
    name: 'min-request-timeout',
    type: 'int',
    default: '1800',
    help: 'Watches without timeoutSeconds last a random time in [this, 2*this) seconds.',
  },
  requestTimeoutMs: {
    name: 'request-timeout',
    type: 'duration',
    default: '1m0s',
    help: 'Shutdown grace period for requests in flight: after SIGTERM (and --shutdown-delay-duration), requests still running after this long are cut and the process exits (kube-apiserver bounds its shutdown drain by this flag too). Also the longest an HTTP/1.1 request (line, headers and body) may take to arrive: past it the answer is 408 and the connection is closed; a watch is not cut by it (its request is complete once its headers are in). 0 turns that bound off.',
  },
  maxConnections: {
    name: 'max-connections',
    type: 'int',
    default: '10000',
    help: "The most connections each listener (the secure and the insecure port) holds at once; a connection past it is closed as soon as it is accepted. kube-apiserver has no such cap. 0 turns it off. Connections are also bounded in time: a TLS handshake and the headers of each HTTP/1.1 request must arrive within 32s (kube-apiserver's ReadHeaderTimeout), and a request body the server did not read (answered 401, 403, 413...) closes the connection when more than 256 KiB of it is left (Go's maxPostHandlerReadBytes).",
  },
  http2MaxStreamsPerConnection: {
    name: 'http2-max-streams-per-connection',
    type: 'int',
    default: '0',
    help: "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection (SETTINGS_MAX_CONCURRENT_STREAMS; a client that opens more gets them refused). Zero means kube-apiserver's default, 100.",
  },
  shutdownDelayDurationMs: {
    name: 'shutdown-delay-duration',
    type: 'duration',
    default: '0s',
    help: 'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.',
  },
  shutdownSendRetryAfter: {
    name: 'shutdown-send-retry-after',
    type: 'bool',
    default: 'false',
    help: "If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a 'Retry-After' response header, in addition 'Connection: close' response header is set in order to tear down the TCP connection when idle.",
  },
  shutdownWatchTerminationGracePeriodMs: {
    name: 'shutdown-watch-termination-grace-period',
    type: 'duration',
    default: '0s',
    help: 'This option, if set, represents the maximum amount of grace period the apiserver will wait for active watch request(s) to drain during the graceful server shutdown window. Watches are always ended cleanly when draining starts; this is how long their last bytes may take to reach slow clients beyond the drain of the other requests.',
  },
  watchHistory: {
    name: 'watch-history',
    type: 'int',
    default: '100000',
    help: 'Changes kept for watches and paginated lists; older resourceVersions answer 410 Expired.',
  },
  ...logFlags,
} as const satisfies FlagSpecs;

/** The typed options of `kevents-apiserver`: one key per flag of {@link apiserverFlags}. */
export type ApiserverOptions = OptionsOf<typeof apiserverFlags>;

/**
 * Parses the command line of `kevents-apiserver`.
 * @throws FlagError for an unknown flag or a bad value (main prints it and exits 2).
 */
export function parseApiserverFlags(argv: readonly string[]): CommandLine<typeof apiserverFlags> {
  return parseCommandLine(argv, apiserverFlags);
}

/** Every flag's default with `overrides` on top: the options an empty command line gives (for tests). */
export function apiserverOptions(overrides: Partial<ApiserverOptions> = {}): ApiserverOptions {
  return defaultOptions(apiserverFlags, overrides);
}

/** The `--help` text. */
export function usage(): string {
  const lines = flagHelp(apiserverFlags, 42);
  return [
    'kevents-apiserver: a Kubernetes-compatible Events API server (events.k8s.io/v1 and core/v1 Events, coordination.k8s.io/v1 Leases; HTTP/2 on the secure port).',
    '',
    'Usage:',
    '  kevents-apiserver [flags]                 serve',
    '  kevents-apiserver validate-config [-o json] [--group-domain=DOMAIN] FILE...',
    '                                            check config files; exit 0 when all are valid',
    '',
    'Flags:',
    ...lines,
    '',
    'Storage forms (--storage): memory | redis://[user:pass@]HOST:PORT[/DB], rediss:// (TLS), redis+sentinel://, redis+cluster:// |',
    '  sqlite:///ABS/PATH.db | postgres://USER:PASS@HOST:5432/DB',
    '',
    'Example: kevents-apiserver --insecure-port=8080 --secure-port=0',
    '         kubectl --server http://127.0.0.1:8080 get events.events.k8s.io -A',
    '',
  ].join('\n');
}
