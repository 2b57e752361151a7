/** One command-line flag of kevents-apiserver. */
export interface FlagSpec {
  readonly name: string;
  readonly type: 'string' | 'int' | 'bool' | 'duration';
  readonly default: string;
  readonly help: string;
}

/** The flags of `kevents-apiserver` (the command-line contract of docs/architecture.md). */
export const apiserverFlags: readonly FlagSpec[] = [
  { name: 'bind-address', type: 'string', default: '127.0.0.1', help: 'The IP address on which to listen.' },
  { name: 'secure-port', type: 'int', default: '6443', help: 'The port on which to serve HTTPS. 0 turns it off.' },
  {
    name: 'insecure-port',
    type: 'int',
    default: '0',
    help: 'The port on which to serve plain HTTP; refused on a non-loopback bind address. 0 turns it off.',
  },
  {
    name: 'tls-cert-file',
    type: 'string',
    default: '',
    help: 'File containing the x509 serving certificate (PEM). A self-signed pair is generated when absent.',
  },
  {
    name: 'tls-private-key-file',
    type: 'string',
    default: '',
    help: 'File containing the x509 private key matching --tls-cert-file.',
  },
  {
    name: 'storage',
    type: 'string',
    default: 'memory',
    help: 'Where events are stored: memory (in-process), redis://HOST:PORT[/DB], rediss://..., redis+sentinel://HOST:PORT[,...]/MASTER or redis+cluster://HOST:PORT[,...] (?prefix=NAME shares one Redis); sqlite:///ABS/PATH.db (on disk, one replica; ?synchronous=normal trades power-loss safety for speed); postgres://USER:PASS@HOST:5432/DB[?sslmode=require|verify-ca|verify-full] (on disk, shared by many replicas). SQL URLs take ?historyLimit=N&historyMaxAgeMs=MS (see docs/operations.md).',
  },
  {
    name: 'storage-cafile',
    type: 'string',
    default: '',
    help: 'With a TLS Redis URL (rediss://...) or a PostgreSQL URL with sslmode: CA certificates (PEM) that verify the server, instead of the system CAs.',
  },
  {
    name: 'storage-certfile',
    type: 'string',
    default: '',
    help: 'With a TLS Redis or PostgreSQL URL: client certificate (PEM) to present to the server (Redis needs one when it has tls-auth-clients yes, its default).',
  },
  {
    name: 'storage-keyfile',
    type: 'string',
    default: '',
    help: 'With a TLS Redis or PostgreSQL URL: private key (PEM) of --storage-certfile.',
  },
  {
    name: 'group-domain',
    type: 'string',
    default: 'k8s.io',
    help: 'API group domain: serves events.<domain> and coordination.<domain>; config kinds are apiserver.config.<domain>.',
  },
  {
    name: 'authentication-config',
    type: 'string',
    default: '',
    help: 'File with an AuthenticationConfiguration: JWT issuers (OIDC discovery), claim mappings and rules, anonymous access. Refused when invalid at start; reloaded when it changes (an invalid file or an unhealthy issuer keeps the running one).',
  },
  {
    name: 'anonymous-auth',
    type: 'bool',
    default: 'true',
    help: 'Serve requests no authenticator claims as system:anonymous. An error when the authentication config has an anonymous block; forced off with --authorization-mode=AlwaysAllow once an authenticator is configured (as kube-apiserver does).',
  },
  {
    name: 'client-ca-file',
    type: 'string',
    default: '',
    help: 'PEM bundle of CAs: a client certificate signed by one of them authenticates the request, its Common Name as the user and its Organizations as the groups.',
  },
  {
    name: 'authorization-config',
    type: 'string',
    default: '',
    help: 'File with an AuthorizationConfiguration: the authorizer chain (Webhook, AlwaysAllow, AlwaysDeny) after the built-in system:masters authorizer. Refused when invalid; reloaded when it changes (an invalid new file keeps the running chain). An error together with --authorization-mode.',
  },
  {
    name: 'authorization-mode',
    type: 'string',
    default: 'AlwaysAllow',
    help: 'Comma-separated AlwaysAllow and AlwaysDeny; used only without --authorization-config (an error when both are given). Webhooks need --authorization-config.',
  },
  {
    name: 'requestheader-client-ca-file',
    type: 'string',
    default: '',
    help: "Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers (the aggregation layer's front-proxy CA). Without a client certificate the headers are ignored; a certificate this bundle does not verify is refused with 401.",
  },
  {
    name: 'requestheader-allowed-names',
    type: 'string',
    default: '',
    help: 'Comma-separated client certificate common names allowed to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
  },
  {
    name: 'requestheader-username-headers',
    type: 'string',
    default: 'X-Remote-User',
    help: 'Comma-separated request headers to inspect for usernames; the first with a value is the user.',
  },
  {
    name: 'requestheader-uid-headers',
    type: 'string',
    default: '',
    help: 'Comma-separated request headers to inspect for UIDs (kube-aggregator sends X-Remote-Uid).',
  },
  {
    name: 'requestheader-group-headers',
    type: 'string',
    default: 'X-Remote-Group',
    help: 'Comma-separated request headers to inspect for groups; every value counts.',
  },
  {
    name: 'requestheader-extra-headers-prefix',
    type: 'string',
    default: 'X-Remote-Extra-',
    help: 'Comma-separated request header prefixes to inspect; the rest of the header name, lower-cased and percent-decoded, is the extra key.',
  },
  {
    name: 'authentication-kubeconfig',
    type: 'string',
    default: '',
    help: "kubeconfig file pointing at the cluster's API server with enough rights to create tokenreviews.authentication.k8s.io (system:auth-delegator): bearer tokens no local authenticator claims are reviewed there.",
  },
  {
    name: 'authentication-token-webhook-cache-ttl',
    type: 'duration',
    default: '10s',
    help: 'The duration to cache responses from the webhook token authenticator (--authentication-kubeconfig); errors are not cached.',
  },
  {
    name: 'authentication-skip-lookup',
    type: 'bool',
    default: 'false',
    help: 'If false, the authentication-kubeconfig will be used to lookup missing authentication configuration from the cluster: without --client-ca-file or --requestheader-client-ca-file, the client CA and the request-header settings are read from kube-system/extension-apiserver-authentication (and read again every minute).',
  },
  {
    name: 'authorization-kubeconfig',
    type: 'string',
    default: '',
    help: "kubeconfig file pointing at the cluster's API server with enough rights to create subjectaccessreviews.authorization.k8s.io (system:auth-delegator): every request not allowed by --authorization-always-allow-paths/-groups is authorized by a SubjectAccessReview there, then by the --authorization-config chain when given. --authorization-mode is not used with it.",
  },
  {
    name: 'authorization-always-allow-paths',
    type: 'string',
    default: '/healthz,/readyz,/livez',
    help: 'Comma-separated HTTP paths (a trailing * matches a prefix) that are not authorized with --authorization-kubeconfig.',
  },
  {
    name: 'authorization-always-allow-groups',
    type: 'string',
    default: 'system:masters',
    help: 'Comma-separated groups that are allowed every request without a SubjectAccessReview (with --authorization-kubeconfig).',
  },
  {
    name: 'authorization-webhook-cache-authorized-ttl',
    type: 'duration',
    default: '10s',
    help: "The duration to cache 'authorized' responses from the webhook authorizer (--authorization-kubeconfig).",
  },
  {
    name: 'authorization-webhook-cache-unauthorized-ttl',
    type: 'duration',
    default: '10s',
    help: "The duration to cache 'unauthorized' responses from the webhook authorizer (--authorization-kubeconfig).",
  },
  {
    name: 'egress-selector-config-file',
    type: 'string',
    default: '',
    help: 'File with an EgressSelectorConfiguration (validated at start; refused when invalid).',
  },
  {
    name: 'tracing-config-file',
    type: 'string',
    default: '',
    help: 'File with a TracingConfiguration (validated at start; refused when invalid).',
  },
  {
    name: 'min-request-timeout',
    type: 'int',
    default: '1800',
    help: 'Watches without timeoutSeconds last a random time in [this, 2*this) seconds.',
  },
  {
    name: 'request-timeout',
    type: 'duration',
    default: '1m0s',
    help: 'Shutdown grace period for requests in flight: after SIGTERM (and --shutdown-delay-duration), requests still running after this long are cut and the process exits (kube-apiserver bounds its shutdown drain by this flag too). Also the longest an HTTP/1.1 request (line, headers and body) may take to arrive: past it the answer is 408 and the connection is closed; a watch is not cut by it (its request is complete once its headers are in). 0 turns that bound off.',
  },
  {
    name: 'max-connections',
    type: 'int',
    default: '10000',
    help: "The most connections each listener (the secure and the insecure port) holds at once; a connection past it is closed as soon as it is accepted. kube-apiserver has no such cap. 0 turns it off. Connections are also bounded in time: a TLS handshake and the headers of each HTTP/1.1 request must arrive within 32s (kube-apiserver's ReadHeaderTimeout), and a request body the server did not read (answered 401, 403, 413...) closes the connection when more than 256 KiB of it is left (Go's maxPostHandlerReadBytes).",
  },
  {
    name: 'http2-max-streams-per-connection',
    type: 'int',
    default: '0',
    help: "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection (SETTINGS_MAX_CONCURRENT_STREAMS; a client that opens more gets them refused). Zero means kube-apiserver's default, 100.",
  },
  {
    name: 'shutdown-delay-duration',
    type: 'duration',
    default: '0s',
    help: 'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.',
  },
  {
    name: 'shutdown-send-retry-after',
    type: 'bool',
    default: 'false',
    help: "If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a 'Retry-After' response header, in addition 'Connection: close' response header is set in order to tear down the TCP connection when idle.",
  },
  {
    name: 'shutdown-watch-termination-grace-period',
    type: 'duration',
    default: '0s',
    help: 'This option, if set, represents the maximum amount of grace period the apiserver will wait for active watch request(s) to drain during the graceful server shutdown window. Watches are always ended cleanly when draining starts; this is how long their last bytes may take to reach slow clients beyond the drain of the other requests.',
  },
  {
    name: 'watch-history',
    type: 'int',
    default: '100000',
    help: 'Changes kept for watches and paginated lists; older resourceVersions answer 410 Expired.',
  },
  {
    name: 'log-level',
    type: 'string',
    default: 'info',
    help: 'Log level: fatal, error, warn, info, debug, trace or silent.',
  },
  {
    name: 'log-format',
    type: 'string',
    default: 'json',
    help: 'Log format: json (one JSON object per line) or text (one readable line per record).',
  },
  { name: 'help', type: 'bool', default: 'false', help: 'Print this help and exit.' },
];

export type FlagValues = Record<string, string>;

/** Thrown for an unknown flag or a bad value; main prints it with the usage line. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

/** Parses `--name=value`, `--name value` and bare boolean `--name`. */
export function parseFlags(
  argv: readonly string[],
  specs: readonly FlagSpec[] = apiserverFlags,
): { flags: FlagValues; args: string[] } {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const flags: FlagValues = Object.fromEntries(specs.map((s) => [s.name, s.default]));
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h') {
      flags['help'] = 'true';
      continue;
    }
    if (!a.startsWith('--')) {
      args.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new FlagError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = a.slice(eq + 1);
    else if (spec.type === 'bool') value = 'true';
    else if (i + 1 < argv.length) value = argv[++i]!;
    else throw new FlagError(`flag needs an argument: --${name}`);
    if (spec.type === 'int' && !/^\d+$/.test(value))
      throw new FlagError(`invalid argument "${value}" for "--${name}" flag: parse error`);
    if (spec.type === 'duration' && parseDuration(value) === undefined)
      throw new FlagError(`invalid argument "${value}" for "--${name}" flag: time: invalid duration "${value}"`);
    if (spec.type === 'bool' && !['true', 'false', '1', '0'].includes(value)) {
      throw new FlagError(`invalid argument "${value}" for "--${name}" flag: parse error`);
    }
    flags[name] = value === '1' ? 'true' : value === '0' && spec.type === 'bool' ? 'false' : value;
  }
  return { flags, args };
}

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * A non-negative Go duration (`time.ParseDuration`: `0`, `1m30s`, `1.5h`, `500ms`) in milliseconds;
 * undefined when the text is not one.
 */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let ms = 0;
  let at = 0;
  if (text.length === 0) return undefined;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) return undefined;
    ms += Number(m[1]) * durationUnits[m[2]!]!;
    at = part.lastIndex;
  }
  return ms;
}

/** The `--help` text. */
export function usage(specs: readonly FlagSpec[] = apiserverFlags): string {
  const lines = specs.map((s) => {
    const left = `  --${s.name}${s.type === 'bool' ? '' : `=${s.type}`}`;
    const def = s.default && s.name !== 'help' ? ` (default ${JSON.stringify(s.default)})` : '';
    return `${left.padEnd(42)}${s.help}${def}`;
  });
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
    'Storage forms: memory | redis://[user:pass@]HOST:PORT[/DB] | rediss://... (TLS)',
    '',
    'Example: kevents-apiserver --insecure-port=8080 --secure-port=0',
    '         kubectl --server http://127.0.0.1:8080 get events.events.k8s.io -A',
    '',
  ].join('\n');
}
