import { coordinationGroup, leaseListSchema, leaseSchema, leasesStorageVersionHash } from '@kevents/api';
import type { Lease } from '@kevents/api';
import { defineResource, schemaView } from '@kevents/apiserver';
import type { ResourceDefinition } from '@kevents/apiserver';
import { leaseStrategy } from './strategy.js';

/** Leases, served as `coordination.<domain>/v1` (what leader election uses). */
export function leasesResource(groupDomain: string): ResourceDefinition<Lease> {
  const group = coordinationGroup(groupDomain);
  return defineResource({
    resource: 'leases',
    strategy: leaseStrategy(group),
    views: [
      schemaView<Lease>({
        group,
        version: 'v1',
        kind: 'Lease',
        resource: 'leases',
        singularName: 'lease',
        storageVersionHash: leasesStorageVersionHash,
        schema: leaseSchema,
        listSchema: leaseListSchema,
      }),
    ],
  });
}
