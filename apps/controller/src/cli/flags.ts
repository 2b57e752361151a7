import { FlagError, flagHelp, logFlags, parseCommandLine } from '@kevents/cli';
import type { FlagSpecs, OptionsOf } from '@kevents/cli';

/**
 * The flags of `kevents-controller` (the command-line contract of docs/architecture.md and
 * docs/configuration.md), by the key each fills in {@link ControllerOptions}. Durations are
 * milliseconds.
 */
export const controllerFlags = {
  kubeconfig: {
    name: 'kubeconfig',
    type: 'string',
    default: '',
    help: 'Path to a kubeconfig file. Without it and without --server: $KUBECONFIG, in-cluster config, then ~/.kube/config.',
  },
  context: {
    name: 'context',
    type: 'string',
    default: '',
    help: 'The kubeconfig context to use (default: its current context).',
  },
  server: { name: 'server', type: 'string', default: '', help: 'The API server URL (instead of a kubeconfig).' },
  token: { name: 'token', type: 'string', default: '', help: 'Bearer token for --server.' },
  clientCertificate: {
    name: 'client-certificate',
    type: 'string',
    default: '',
    help: 'Client certificate file (PEM) for --server.',
  },
  clientKey: { name: 'client-key', type: 'string', default: '', help: 'Client key file (PEM) for --server.' },
  certificateAuthority: {
    name: 'certificate-authority',
    type: 'string',
    default: '',
    help: 'CA file (PEM) that verifies --server.',
  },
  insecureSkipTlsVerify: {
    name: 'insecure-skip-tls-verify',
    type: 'bool',
    default: 'false',
    help: 'Do not verify the server certificate of --server (tests only).',
  },
  groupDomain: {
    name: 'group-domain',
    type: 'string',
    default: 'k8s.io',
    help: 'API group domain of the server (as kevents-apiserver --group-domain): reads and writes events.<domain> and takes the leader lease in coordination.<domain>. Mirror sources are clusters and are always read through events.k8s.io.',
  },
  eventTtlMs: {
    name: 'event-ttl',
    type: 'duration',
    default: '1h',
    help: 'How long an event is kept after its last observation, unless a retention rule says otherwise (as kube-apiserver --event-ttl).',
  },
  seriesWindowMs: {
    name: 'series-window',
    type: 'duration',
    default: '6m',
    help: "An event first observed within this window of a series' last observation joins that series (client-go: 6m).",
  },
  retentionConfig: {
    name: 'retention-config',
    type: 'string',
    default: '',
    help: 'File with an EventRetentionConfiguration (controller.config.kevents.io/v1alpha1): TTLs by type, reason, reportingController, namespace.',
  },
  controllers: {
    name: 'controllers',
    type: 'stringSlice',
    default: 'series,retention',
    help: 'Controllers to run: series, retention (comma-separated). The mirror runs whenever --mirror-source is given.',
  },
  mirrorSource: {
    name: 'mirror-source',
    type: 'stringArray',
    default: '',
    help: "Mirror this cluster's events into the server, repeatable: NAME=KUBECONFIG (the file's current context) or NAME=in-cluster (the pod's service account). NAME, a DNS-1123 label, becomes the label kevents.io/cluster=NAME; the copies also carry the annotations kevents.io/source-uid and kevents.io/source-resource-version. A copy keeps its source name, or is named <name>.<NAME>.<uid prefix> when kevents already has another event of that name.",
  },
  namespace: {
    name: 'namespace',
    type: 'string',
    default: '',
    help: 'Watch events in this namespace only (default: all namespaces).',
  },
  workers: { name: 'workers', type: 'int', default: '4', help: 'Parallel reconciles per controller.' },
  mirrorWorkers: {
    name: 'mirror-workers',
    type: 'int',
    default: '16',
    help: 'Parallel writes into the server per mirror source (each source has its own work queue and connections).',
  },
  leaderElect: {
    name: 'leader-elect',
    type: 'bool',
    default: 'true',
    help: 'Run the controllers only while holding the leader lease (coordination.k8s.io/v1).',
  },
  leaderElectionNamespace: {
    name: 'leader-election-namespace',
    type: 'string',
    default: 'kube-system',
    help: 'Namespace of the leader lease.',
  },
  leaderElectionId: {
    name: 'leader-election-id',
    type: 'string',
    default: 'kevents-controller',
    help: 'Name of the leader lease.',
  },
  leaderElectionIdentity: {
    name: 'leader-election-identity',
    type: 'string',
    default: '',
    help: "This candidate's identity (default: hostname_<random>).",
  },
  leaderElectLeaseDurationMs: {
    name: 'leader-elect-lease-duration',
    type: 'duration',
    default: '15s',
    help: 'How long candidates wait after the last observed renewal before taking the lease.',
  },
  leaderElectRenewDeadlineMs: {
    name: 'leader-elect-renew-deadline',
    type: 'duration',
    default: '10s',
    help: 'How long the leader tries to renew before it gives up leading.',
  },
  leaderElectRetryPeriodMs: {
    name: 'leader-elect-retry-period',
    type: 'duration',
    default: '2s',
    help: 'How often candidates try to acquire or renew.',
  },
  healthProbeBindAddress: {
    name: 'health-probe-bind-address',
    type: 'string',
    default: ':8081',
    help: 'host:port of /healthz, /readyz and /metrics; "0" turns it off.',
  },
  ...logFlags,
} as const satisfies FlagSpecs;

/** The typed options of `kevents-controller`: one key per flag of {@link controllerFlags}. */
export type ControllerOptions = OptionsOf<typeof controllerFlags>;

/**
 * Parses the command line of `kevents-controller`; `help` says `--help` was given.
 * @throws FlagError for an unknown flag, a bad value or an argument that is not a flag (main prints it and exits 2).
 */
export function parseControllerFlags(argv: readonly string[]): { options: ControllerOptions; help: boolean } {
  const { options, args, help } = parseCommandLine(argv, controllerFlags);
  if (args.length > 0) throw new FlagError(`unexpected argument: ${args[0]}`);
  return { options, help };
}

/** The `--help` text. */
export function usage(): string {
  const lines = flagHelp(controllerFlags, 40);
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
