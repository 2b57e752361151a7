import { describe, expect, it } from '@jest/globals';
import { leasesStorageVersionHash } from '../constants.js';
import { aggregatedDiscoveryMediaType } from './aggregated-discovery.js';
import type { APIGroupDiscoveryList } from './aggregated-discovery.js';

describe('apidiscovery.k8s.io/v2 types', () => {
  it('describe the document kube-apiserver serves for /apis (coordination.k8s.io shown)', () => {
    const doc: APIGroupDiscoveryList = {
      apiVersion: 'apidiscovery.k8s.io/v2',
      kind: 'APIGroupDiscoveryList',
      metadata: {},
      items: [
        {
          metadata: { name: 'coordination.k8s.io', creationTimestamp: null },
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'leases',
                  responseKind: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' },
                  scope: 'Namespaced',
                  singularResource: 'lease',
                  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
                },
              ],
              freshness: 'Current',
            },
          ],
        },
      ],
    };
    const resource = doc.items[0]!.versions![0]!.resources![0]!;
    expect(Object.keys(resource)).toEqual(['resource', 'responseKind', 'scope', 'singularResource', 'verbs']);
    // aggregated discovery has no storageVersionHash; the per-group-version APIResourceList has
    expect('storageVersionHash' in resource).toBe(false);
    expect(leasesStorageVersionHash).toBe('gqkMMb/YqFM=');
    expect(aggregatedDiscoveryMediaType).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  });
});
