import type { KubeObject, RestConformanceTarget } from '@kevents/apiserver/testing';
import type { Storage } from '@kevents/storage';
import { sampleEvent } from '../testing/server.js';

/** Compacts the history of a store up to its current resourceVersion. */
const compactor = (storage: () => Storage) => async (): Promise<void> => {
  const s = storage();
  await s.compact(await s.currentResourceVersion());
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** events.k8s.io/v1 Events as the REST conformance suite sees them. */
export function eventsV1Target(server: () => string, storage: () => Storage): RestConformanceTarget {
  return {
    title: 'events.k8s.io/v1 Events',
    group: 'events.k8s.io',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    listKind: 'EventList',
    namespaced: true,
    internalGroup: '',
    newObject: (name, namespace) => sampleEvent(name, namespace),
    mutate: (obj) => {
      const count = ((obj['series'] as { count?: number } | undefined)?.count ?? 1) + 1;
      return {
        ...obj,
        series: { count, lastObservedTime: `2026-01-02T03:04:${String(count % 60).padStart(2, '0')}.000000Z` },
      };
    },
    invalidObject: (name, namespace) => {
      const e: KubeObject = sampleEvent(name, namespace);
      delete e['reportingController'];
      delete e['eventTime'];
      return e;
    },
    fieldSelectors: {
      'regarding.kind': (o) => str(o['regarding']?.kind),
      'regarding.name': (o) => str(o['regarding']?.name),
      'regarding.namespace': (o) => str(o['regarding']?.namespace),
      reason: (o) => str(o['reason']),
      type: (o) => str(o['type']),
      reportingController: (o) => str(o['reportingController']),
    },
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    server,
    compact: compactor(storage),
  };
}

/** A valid core/v1 Event. */
export function coreEvent(name: string, namespace: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: { kind: 'Pod', name: 'web-0', namespace, apiVersion: 'v1' },
    reason: 'BackOff',
    message: `event ${name}`,
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:10:00Z',
    count: 1,
    type: 'Warning',
  };
}

/** core v1 Events as the REST conformance suite sees them. */
export function coreV1Target(server: () => string, storage: () => Storage): RestConformanceTarget {
  return {
    title: 'core v1 Events',
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    listKind: 'EventList',
    namespaced: true,
    newObject: coreEvent,
    mutate: (obj) => ({ ...obj, count: (Number(obj['count']) || 1) + 1, message: `${str(obj['message'])}!` }),
    invalidObject: (name, namespace) => ({
      ...coreEvent(name, namespace),
      involvedObject: { kind: 'Pod', name: 'web-0', namespace: `${namespace}-elsewhere`, apiVersion: 'v1' },
    }),
    fieldSelectors: {
      'involvedObject.kind': (o) => str(o['involvedObject']?.kind),
      'involvedObject.name': (o) => str(o['involvedObject']?.name),
      'involvedObject.namespace': (o) => str(o['involvedObject']?.namespace),
      'involvedObject.apiVersion': (o) => str(o['involvedObject']?.apiVersion),
      reason: (o) => str(o['reason']),
      type: (o) => str(o['type']),
      source: (o) => str(o['source']?.component) || str(o['reportingComponent']),
      reportingComponent: (o) => str(o['reportingComponent']),
    },
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    server,
    compact: compactor(storage),
  };
}
