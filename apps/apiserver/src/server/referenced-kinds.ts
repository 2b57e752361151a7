import type { APIResource } from '@kevents/api';

/** A kind that events commonly regard, listed in discovery so clients can resolve its name. */
export interface ReferencedKind {
  readonly group: string;
  readonly version: string;
  readonly resource: APIResource;
}

const ref = (
  group: string,
  version: string,
  name: string,
  kind: string,
  namespaced: boolean,
  shortNames?: string[],
): ReferencedKind => ({
  group,
  version,
  resource: {
    name,
    singularName: kind.toLowerCase(),
    namespaced,
    kind,
    verbs: [],
    ...(shortNames ? { shortNames } : {}),
  },
});

/**
 * Kinds that Events point at (`regarding`/`involvedObject`) but kevents does not serve. They
 * appear in discovery with an empty verb list — the way Kubernetes lists resources it offers no
 * operation on — so that kubectl's RESTMapper resolves `kubectl events --for pod/web-0` and
 * `kubectl get events --field-selector` helpers; every request to them is answered 404.
 */
export const referencedKinds: readonly ReferencedKind[] = [
  ref('', 'v1', 'configmaps', 'ConfigMap', true, ['cm']),
  ref('', 'v1', 'endpoints', 'Endpoints', true, ['ep']),
  ref('', 'v1', 'nodes', 'Node', false, ['no']),
  ref('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']),
  ref('', 'v1', 'persistentvolumes', 'PersistentVolume', false, ['pv']),
  ref('', 'v1', 'pods', 'Pod', true, ['po']),
  ref('', 'v1', 'replicationcontrollers', 'ReplicationController', true, ['rc']),
  ref('', 'v1', 'serviceaccounts', 'ServiceAccount', true, ['sa']),
  ref('', 'v1', 'services', 'Service', true, ['svc']),
  ref('apps', 'v1', 'daemonsets', 'DaemonSet', true, ['ds']),
  ref('apps', 'v1', 'deployments', 'Deployment', true, ['deploy']),
  ref('apps', 'v1', 'replicasets', 'ReplicaSet', true, ['rs']),
  ref('apps', 'v1', 'statefulsets', 'StatefulSet', true, ['sts']),
  ref('batch', 'v1', 'cronjobs', 'CronJob', true, ['cj']),
  ref('batch', 'v1', 'jobs', 'Job', true),
];
