import { describe, expect, it } from '@jest/globals';
import type { APIResource } from '@kevents/api';
import fc from 'fast-check';
import type { ApiError } from '../errors/api-error.js';
import { aggregatedDiscovery, aggregatedDiscoveryV2, aggregatedDiscoveryV2Beta1 } from './aggregated.js';
import { negotiateAggregated, negotiateLegacyDiscovery } from './negotiate.js';
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
    // kube strips the core group's apiVersion (stripVersionEncoder), keeps the others'.
    expect([core.kind, core.apiVersion, core.groupVersion]).toEqual(['APIResourceList', undefined, 'v1']);
    expect(index().resourceList('events.k8s.io', 'v1')!.apiVersion).toBe('v1');
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
  it('negotiateAggregated: the first aggregated clause in goautoneg’s order, JSON, YAML or protobuf', () => {
    const agg = (h: string | undefined, beta = false): string | undefined => {
      const n = negotiateAggregated(h, beta);
      return n && `${n.mediaType} ${n.version}${n.pretty ? ' pretty' : ''}`;
    };
    const yaml = 'application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    const pb = 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    expect(agg(undefined)).toBeUndefined();
    expect(agg('')).toBeUndefined();
    expect(agg(aggregatedDiscoveryV2)).toBe('application/json v2');
    expect(agg(`${aggregatedDiscoveryV2},application/json`)).toBe('application/json v2');
    // kube 1.33+: v2beta1 is no aggregated clause (served only where asked for).
    expect(agg(aggregatedDiscoveryV2Beta1)).toBeUndefined();
    expect(agg(aggregatedDiscoveryV2Beta1, true)).toBe('application/json v2beta1');
    expect(agg(`${aggregatedDiscoveryV2Beta1},${aggregatedDiscoveryV2}`)).toBe('application/json v2');
    // Plain clauses are passed over, wherever they stand; q orders the rest.
    expect(agg(`application/json, ${aggregatedDiscoveryV2}`)).toBe('application/json v2');
    expect(agg(`${aggregatedDiscoveryV2};q=0.5, ${yaml}`)).toBe('application/yaml v2');
    expect(agg(`text/html, ${pb};pretty=1`)).toBe('application/vnd.kubernetes.protobuf v2 pretty');
    expect(agg('*/*;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).toBe('application/json v2');
    // Values are case-sensitive; stream only `watch` on a streaming type; no sv.
    expect(agg('application/json;g=apidiscovery.k8s.io;v=v2;as=apigroupdiscoverylist')).toBeUndefined();
    expect(agg('application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList')).toBeUndefined();
    expect(agg('application/json;g=other;v=v2;as=APIGroupDiscoveryList')).toBeUndefined();
    expect(agg(`${yaml};stream=watch`)).toBeUndefined();
    expect(agg(`${aggregatedDiscoveryV2};stream=watch`)).toBe('application/json v2');
    expect(agg(`${aggregatedDiscoveryV2};sv=v1`)).toBeUndefined();
    expect(agg('application/json ; g = apidiscovery.k8s.io ; v = v2 ; as = APIGroupDiscoveryList')).toBe(
      'application/json v2',
    );
  });

  it('negotiateLegacyDiscovery: the default restrictions, 406 listing JSON, YAML and protobuf', () => {
    expect(negotiateLegacyDiscovery(undefined).mediaType).toBe('application/json');
    expect(negotiateLegacyDiscovery('application/vnd.kubernetes.protobuf, */*').mediaType).toBe(
      'application/vnd.kubernetes.protobuf',
    );
    expect(negotiateLegacyDiscovery(`${aggregatedDiscoveryV2},application/yaml`).mediaType).toBe('application/yaml');
    expect(() => negotiateLegacyDiscovery(aggregatedDiscoveryV2)).toThrow(
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
  });

  it('no Accept header makes either throw anything but a 406', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (h) => {
        negotiateAggregated(h, true);
        try {
          negotiateLegacyDiscovery(h);
        } catch (e) {
          expect((e as ApiError).code).toBe(406);
        }
      }),
    );
  });
});
