import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { eventsStorageVersionHash, leasesStorageVersionHash } from './constants.js';

/** k8s.io/apiserver discovery.StorageVersionHash: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>"). */
const storageVersionHash = (group: string, version: string, kind: string): string =>
  createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');

describe('storage version hashes', () => {
  it("are Kubernetes' hashes of the kinds it stores (pkg/controlplane/storageversionhashdata)", () => {
    // events are stored as core/v1 Event in both groups, so both publish the hash of "/v1/Event"
    expect(storageVersionHash('', 'v1', 'Event')).toBe(eventsStorageVersionHash);
    expect(storageVersionHash('coordination.k8s.io', 'v1', 'Lease')).toBe(leasesStorageVersionHash);
    expect(leasesStorageVersionHash).toBe('gqkMMb/YqFM=');
  });
});
