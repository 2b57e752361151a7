import type { KubeObject, RestConformanceTarget } from '@kevents/apiserver/testing';
import type { Storage } from '@kevents/storage';

/** A valid coordination.k8s.io/v1 Lease as a client (leader election) writes it. */
export function sampleLease(name: string, namespace: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
    spec: {
      holderIdentity: `${name}-holder`,
      leaseDurationSeconds: 15,
      acquireTime: '2026-01-02T03:04:05.123456Z',
      renewTime: '2026-01-02T03:04:05.123456Z',
      leaseTransitions: 0,
      ...spec,
    },
  };
}

/** coordination.k8s.io/v1 Leases as the REST conformance suite sees them. */
export function leasesV1Target(server: () => string, storage: () => Storage): RestConformanceTarget {
  return {
    title: 'coordination.k8s.io/v1 Leases',
    group: 'coordination.k8s.io',
    version: 'v1',
    resource: 'leases',
    kind: 'Lease',
    listKind: 'LeaseList',
    namespaced: true,
    internalGroup: 'coordination.k8s.io',
    newObject: (name, namespace) => sampleLease(name, namespace),
    mutate: (obj) => {
      const spec = (obj['spec'] ?? {}) as Record<string, unknown>;
      const transitions = (Number(spec['leaseTransitions']) || 0) + 1;
      return {
        ...obj,
        spec: {
          ...spec,
          holderIdentity: `holder-${transitions}`,
          leaseTransitions: transitions,
          renewTime: `2026-01-02T03:04:${String(transitions % 60).padStart(2, '0')}.654321Z`,
        },
      };
    },
    invalidObject: (name, namespace) => sampleLease(name, namespace, { leaseDurationSeconds: 0 }),
    fieldSelectors: {},
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
    server,
    compact: async () => {
      const s = storage();
      await s.compact(await s.currentResourceVersion());
    },
  };
}
