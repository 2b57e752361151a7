import * as k8s from '@kubernetes/client-node';
import type { Event, Lease } from '@kevents/api';
import { RestClient } from '../client/rest-client.js';
import { ResourceClient } from '../client/resource-client.js';

/** A client-node KubeConfig for a plain-HTTP test server (anonymous). */
export function testKubeConfig(server: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

/** events.k8s.io/v1 events. */
export const eventsResource = { group: 'events.k8s.io', version: 'v1', resource: 'events', namespaced: true } as const;
/** coordination.k8s.io/v1 leases. */
export const leasesResource = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  namespaced: true,
} as const;

/** Resource clients for events and leases on one server. */
export function testClients(server: string): {
  rest: RestClient;
  events: ResourceClient<Event>;
  leases: ResourceClient<Lease>;
} {
  const rest = new RestClient(testKubeConfig(server));
  return {
    rest,
    events: new ResourceClient<Event>(rest, eventsResource),
    leases: new ResourceClient<Lease>(rest, leasesResource),
  };
}

/** A valid events.k8s.io/v1 Event. */
export function testEvent(name: string, namespace: string, extra: Partial<Event> = {}): Event {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace },
    eventTime: new Date().toISOString().replace('Z', '000Z'),
    reportingController: 'example.com/tests',
    reportingInstance: 'tests-1',
    action: 'Tested',
    reason: 'Testing',
    type: 'Normal',
    note: `event ${name}`,
    regarding: { kind: 'Pod', name: 'web-0', namespace },
    ...extra,
  };
}
