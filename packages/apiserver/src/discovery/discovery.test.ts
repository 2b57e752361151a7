import { describe, expect, it } from '@jest/globals';
import type { APIResource } from '@kevents/api';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryV2,
  aggregatedDiscoveryV2Beta1,
  discoveryRepresentation,
} from './aggregated.js';
import { DiscoveryIndex } from './discovery.js';

const res = (name: string, o: Partial<APIResource> = {}): APIResource => ({
  name,
  singularName: name.replace(/s$/, ''),
  namespaced: true,
  kind: name[0]!.toUpperCase() + name.slice(1, -1),
  verbs: ['get', 'list'],
  ...o,
});

function index(): DiscoveryIndex {
  const i = new DiscoveryIndex();
  i.add({ group: 'events.k8s.io', version: 'v1', resource: res('events') });
  i.add({ group: '', version: 'v1', resource: res('pods', { shortNames: ['po'], categories: ['all'] }) });
  i.add({ group: 'coordination.k8s.io', version: 'v1', resource: res('leases') });
  i.add({ group: '', version: 'v1', resource: res('events', { shortNames: [] }) });
  i.add({ group: 'events.k8s.io', version: 'v1beta1', resource: res('events') });
  i.add({ group: '', version: 'v1', resource: res('nodes', { namespaced: false }) });
  return i;
}

describe('DiscoveryIndex', () => {
  it('lists group versions core first, then groups in registration order', () => {
    expect(
      index()
        .groupVersions()
        .map((g) => `${g.group}/${g.version}`),
    ).toEqual(['/v1', 'events.k8s.io/v1', 'coordination.k8s.io/v1', 'events.k8s.io/v1beta1']);
  });
  it('groups with the first version preferred', () => {
    expect(index().apiGroupList()).toEqual({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        {
          name: 'events.k8s.io',
          versions: [
            { groupVersion: 'events.k8s.io/v1', version: 'v1' },
            { groupVersion: 'events.k8s.io/v1beta1', version: 'v1beta1' },
          ],
          preferredVersion: { groupVersion: 'events.k8s.io/v1', version: 'v1' },
        },
        {
          name: 'coordination.k8s.io',
          versions: [{ groupVersion: 'coordination.k8s.io/v1', version: 'v1' }],
          preferredVersion: { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
        },
      ],
    });
    expect(new DiscoveryIndex().groups()).toEqual([]);
  });
  it('/api and resource lists sorted by name', () => {
    expect(index().apiVersions('1.2.3.4:6443')).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '1.2.3.4:6443' }],
    });
    const core = index().resourceList('', 'v1')!;
    expect([core.kind, core.apiVersion, core.groupVersion]).toEqual(['APIResourceList', 'v1', 'v1']);
    expect(core.resources.map((r) => r.name)).toEqual(['events', 'nodes', 'pods']);
    expect(index().resourceList('events.k8s.io', 'v1')!.groupVersion).toBe('events.k8s.io/v1');
    expect(index().resourceList('events.k8s.io', 'v2')).toBeUndefined();
    expect(index().resourceList('', 'v2')).toBeUndefined();
  });
});

describe('aggregated discovery', () => {
  it('the core document', () => {
    expect(aggregatedDiscovery(index(), true, 'v2')).toEqual({
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: [
        {
          metadata: { creationTimestamp: null },
          versions: [
            {
              version: 'v1',
              freshness: 'Current',
              resources: [
                {
                  resource: 'events',
                  responseKind: { group: '', version: 'v1', kind: 'Event' },
                  scope: 'Namespaced',
                  singularResource: 'event',
                  verbs: ['get', 'list'],
                },
                {
                  resource: 'nodes',
                  responseKind: { group: '', version: 'v1', kind: 'Node' },
                  scope: 'Cluster',
                  singularResource: 'node',
                  verbs: ['get', 'list'],
                },
                {
                  resource: 'pods',
                  responseKind: { group: '', version: 'v1', kind: 'Pod' },
                  scope: 'Namespaced',
                  singularResource: 'pod',
                  verbs: ['get', 'list'],
                  shortNames: ['po'],
                  categories: ['all'],
                },
              ],
            },
          ],
        },
      ],
    });
  });
  it('the groups document', () => {
    const doc = aggregatedDiscovery(index(), false, 'v2beta1') as {
      apiVersion: string;
      items: {
        metadata: unknown;
        versions: { version: string; resources: { resource: string; responseKind: unknown }[] }[];
      }[];
    };
    expect(doc.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(doc.items.map((i) => [i.metadata, i.versions.map((v) => v.version)])).toEqual([
      [{ name: 'events.k8s.io', creationTimestamp: null }, ['v1', 'v1beta1']],
      [{ name: 'coordination.k8s.io', creationTimestamp: null }, ['v1']],
    ]);
    expect(doc.items[0]!.versions[1]!.resources[0]!.responseKind).toEqual({
      group: 'events.k8s.io',
      version: 'v1beta1',
      kind: 'Event',
    });
  });
  it('discoveryRepresentation', () => {
    expect(discoveryRepresentation(undefined)).toBe('legacy');
    expect(discoveryRepresentation('')).toBe('legacy');
    expect(discoveryRepresentation(aggregatedDiscoveryV2)).toBe('v2');
    expect(discoveryRepresentation(aggregatedDiscoveryV2Beta1)).toBe('v2beta1');
    expect(
      discoveryRepresentation('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'),
    ).toBe('v2');
    expect(discoveryRepresentation(`${aggregatedDiscoveryV2Beta1},${aggregatedDiscoveryV2}`)).toBe('v2beta1');
    expect(discoveryRepresentation(`application/json, ${aggregatedDiscoveryV2}`)).toBe('legacy');
    expect(discoveryRepresentation(`text/html, ${aggregatedDiscoveryV2}`)).toBe('v2');
    expect(discoveryRepresentation('*/*;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).toBe('v2');
    expect(discoveryRepresentation('application/*;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList')).toBe(
      'v2beta1',
    );
    expect(discoveryRepresentation('application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList')).toBe(
      'legacy',
    );
    expect(discoveryRepresentation('application/json;g=other;v=v2;as=APIGroupDiscoveryList')).toBe('legacy');
    expect(discoveryRepresentation('application/json;g=apidiscovery.k8s.io;v=v2;as=Table')).toBe('legacy');
    expect(
      discoveryRepresentation('application/json ; g = apidiscovery.k8s.io ; v = v2 ; as = APIGroupDiscoveryList'),
    ).toBe('v2');
  });
});
