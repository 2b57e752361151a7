/** One command-line flag of kevents-controller. */
export interface FlagSpec {
  readonly name: string;
  /** `stringArray` may be given several times; its values are joined by newlines (see {@link flagValues}). */
  readonly type: 'string' | 'int' | 'bool' | 'duration' | 'stringArray';
  readonly default: string;
  readonly help: string;
}

/** The flags of `kevents-controller` (the command-line contract of docs/architecture.md §6). */
export const controllerFlags: readonly FlagSpec[] = [
  {
    name: 'kubeconfig',
    type: 'string',
    default: '',
    help: 'Path to a kubeconfig file. Without it and without --server: $KUBECONFIG, in-cluster config, then ~/.kube/config.',
  },
  {
    name: 'context',
    type: 'string',
    default: '',
    help: 'The kubeconfig context to use (default: its current context).',
  },
  { name: 'server', type: 'string', default: '', help: 'The API server URL (instead of a kubeconfig).' },
  { name: 'token', type: 'string', default: '', help: 'Bearer token for --server.' },
  { name: 'client-certificate', type: 'string', default: '', help: 'Client certificate file (PEM) for --server.' },
  { name: 'client-key', type: 'string', default: '', help: 'Client key file (PEM) for --server.' },
  { name: 'certificate-authority', type: 'string', default: '', help: 'CA file (PEM) that verifies --server.' },
  {
    name: 'insecure-skip-tls-verify',
    type: 'bool',
    default: 'false',
    help: 'Do not verify the server certificate of --server (tests only).',
  },
  {
    name: 'group-domain',
    type: 'string',
    default: 'k8s.io',
    help: 'API group domain of the server (as kevents-apiserver --group-domain): reads and writes events.<domain> and takes the leader lease in coordination.<domain>. Mirror sources are clusters and are always read through events.k8s.io.',
  },
  {
    name: 'event-ttl',
    type: 'duration',
    default: '1h',
    help: 'How long an event is kept after its last observation, unless a retention rule says otherwise (as kube-apiserver --event-ttl).',
  },
  {
    name: 'series-window',
    type: 'duration',
    default: '6m',
    help: "An event first observed within this window of a series' last observation joins that series (client-go: 6m).",
  },
  {
    name: 'retention-config',
    type: 'string',
    default: '',
    help: 'File with an EventRetentionConfiguration (controller.config.kevents.io/v1alpha1): TTLs by type, reason, reportingController, namespace.',
  },
  {
    name: 'controllers',
    type: 'string',
    default: 'series,retention',
    help: 'Controllers to run: series, retention (comma-separated). The mirror runs whenever --mirror-source is given.',
  },
  {
    name: 'mirror-source',
    type: 'stringArray',
    default: '',
    help: "Mirror this cluster's events into the server, repeatable: NAME=KUBECONFIG (the file's current context) or NAME=in-cluster (the pod's service account). NAME, a DNS-1123 label, becomes the label kevents.io/cluster=NAME; the copies also carry the annotations kevents.io/source-uid and kevents.io/source-resource-version. A copy keeps its source name, or is named <name>.<NAME>.<uid prefix> when kevents already has another event of that name.",
  },
  {
    name: 'namespace',
    type: 'string',
    default: '',
    help: 'Watch events in this namespace only (default: all namespaces).',
  },
  { name: 'workers', type: 'int', default: '4', help: 'Parallel reconciles per controller.' },
  {
    name: 'mirror-workers',
    type: 'int',
    default: '16',
    help: 'Parallel writes into the server per mirror source (each source has its own work queue and connections).',
  },
  {
    name: 'leader-elect',
    type: 'bool',
    default: 'true',
    help: 'Run the controllers only while holding the leader lease (coordination.k8s.io/v1).',
  },
  { name: 'leader-election-namespace', type: 'string', default: 'kube-system', help: 'Namespace of the leader lease.' },
  { name: 'leader-election-id', type: 'string', default: 'kevents-controller', help: 'Name of the leader lease.' },
  {
    name: 'leader-election-identity',
    type: 'string',
    default: '',
    help: "This candidate's identity (default: hostname_<random>).",
  },
  {
    name: 'leader-elect-lease-duration',
    type: 'duration',
    default: '15s',
    help: 'How long candidates wait after the last observed renewal before taking the lease.',
  },
  {
    name: 'leader-elect-renew-deadline',
    type: 'duration',
    default: '10s',
    help: 'How long the leader tries to renew before it gives up leading.',
  },
  {
    name: 'leader-elect-retry-period',
    type: 'duration',
    default: '2s',
    help: 'How often candidates try to acquire or renew.',
  },
  {
    name: 'health-probe-bind-address',
    type: 'string',
    default: ':8081',
    help: 'host:port of /healthz, /readyz and /metrics; "0" turns it off.',
  },
  { name: 'log-format', type: 'string', default: 'json', help: 'json (one object per line) or text.' },
  { name: 'help', type: 'bool', default: 'false', help: 'Print this help and exit.' },
];

export type FlagValues = Record<string, string>;

/** An unknown flag or a bad value. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

const durationRe = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

/** Parses `--name=value`, `--name value` and bare boolean `--name`. */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[] = controllerFlags): FlagValues {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const flags: FlagValues = Object.fromEntries(specs.map((s) => [s.name, s.default]));
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h') {
      flags['help'] = 'true';
      continue;
    }
    if (!a.startsWith('--')) throw new FlagError(`unexpected argument: ${a}`);
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new FlagError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = a.slice(eq + 1);
    else if (spec.type === 'bool') value = 'true';
    else if (i + 1 < argv.length) value = argv[++i]!;
    else throw new FlagError(`flag needs an argument: --${name}`);
    const bad = (): FlagError => new FlagError(`invalid argument "${value}" for "--${name}" flag: parse error`);
    if (spec.type === 'int' && !/^\d+$/.test(value)) throw bad();
    if (spec.type === 'bool' && !['true', 'false', '1', '0'].includes(value)) throw bad();
    if (spec.type === 'duration' && !durationRe.test(value)) throw bad();
    if (spec.type === 'stringArray') flags[name] = flags[name] && seen.has(name) ? `${flags[name]}\n${value}` : value;
    else flags[name] = spec.type === 'bool' ? String(value === 'true' || value === '1') : value;
    seen.add(name);
  }
  return flags;
}

/** The values of a repeatable (`stringArray`) flag, in the order given. */
export function flagValues(flags: FlagValues, name: string): string[] {
  return (flags[name] ?? '').split('\n').filter(Boolean);
}

/** The `--help` text. */
export function usage(specs: readonly FlagSpec[] = controllerFlags): string {
  const lines = specs.map((s) => {
    const left = `  --${s.name}${s.type === 'bool' ? '' : `=${s.type === 'stringArray' ? 'string (repeatable)' : s.type}`}`;
    const def = s.default && s.name !== 'help' ? ` (default ${JSON.stringify(s.default)})` : '';
    return `${left.padEnd(40)}${s.help}${def}`;
  });
  return [
    'kevents-controller: folds repeated events into one Event with a series, deletes events whose retention has run out,',
    "and mirrors other clusters' events into the server (--mirror-source).",
    'It speaks only the Kubernetes API, so it runs against kevents-apiserver or a real cluster.',
    '',
    'Usage:',
    '  kevents-controller [flags]',
    '',
    'Flags:',
    ...lines,
    '',
    'Examples:',
    '  kevents-controller --server=http://127.0.0.1:8080 --leader-elect=false',
    '  kevents-controller --kubeconfig=$HOME/.kube/config --retention-config=retention.yaml',
    '  kevents-controller --server=http://127.0.0.1:8080 --mirror-source=prod=$HOME/.kube/prod.yaml --mirror-source=dev=dev.yaml',
    '',
  ].join('\n');
}
