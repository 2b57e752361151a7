import {
  coordinationGroup,
  defaultGroupDomain,
  leaseListSchema,
  leaseSchema,
  leasesStorageVersionHash,
} from '@kevents/api';
import type { Lease } from '@kevents/api';
import { defineResource } from '../../registry/resource.js';
import type { ResourceDefinition } from '../../registry/resource.js';
import { schemaView } from '../../registry/schema-view.js';
import { leaseStrategy } from './strategy.js';

/**
 * Leases, served as `coordination.<domain>/v1` (`coordination.k8s.io/v1` by default), as
 * kube-apiserver serves them: what client-go's and controller-runtime's leader election use.
 * Add it to `resources` of `buildApiServer` to give controllers of your kinds leader election.
 */
export function leasesResource(groupDomain: string = defaultGroupDomain): ResourceDefinition<Lease> {
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
        goType: 'coordination.Lease',
        protobuf: { object: 'coordination/v1.Lease', list: 'coordination/v1.LeaseList' },
        schema: leaseSchema,
        listSchema: leaseListSchema,
      }),
    ],
  });
}
