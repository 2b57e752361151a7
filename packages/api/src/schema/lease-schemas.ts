import { coordinationGroup } from '../constants.js';
import { arrayOf, field, int32, microTime, obj, str } from './types.js';
import type { ObjectSchema } from './types.js';
import { listMetaSchema, objectMetaSchema, typeMetaFields } from './meta-schemas.js';

/*
 * coordination.k8s.io/v1 Lease, LeaseSpec and LeaseList, in Go field order
 * (k8s.io/api/coordination/v1/types.go), with the descriptions of Kubernetes' OpenAPI document.
 * Every LeaseSpec field is a pointer with `omitempty`: emitted whenever set, zero included.
 * The group in `gvk` is the default domain's; the OpenAPI generators take the served group from
 * their input, so `--group-domain` is followed there, as for events.
 */

const typeMeta = typeMetaFields(true);

export const leaseSpecSchema: ObjectSchema = {
  id: 'io.k8s.api.coordination.v1.LeaseSpec',
  goType: 'LeaseSpec',
  description: 'LeaseSpec is a specification of a Lease.',
  fields: [
    field(
      'holderIdentity',
      str(),
      'omitnil',
      'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
    ),
    field(
      'leaseDurationSeconds',
      int32,
      'omitnil',
      'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.',
    ),
    field('acquireTime', microTime, 'omitnil', 'acquireTime is a time when the current lease was acquired.'),
    field(
      'renewTime',
      microTime,
      'omitnil',
      'renewTime is a time when the current holder of a lease has last updated the lease.',
    ),
    field(
      'leaseTransitions',
      int32,
      'omitnil',
      'leaseTransitions is the number of transitions of a lease between holders.',
    ),
    field(
      'strategy',
      str(),
      'omitnil',
      'Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.',
    ),
    field(
      'preferredHolder',
      str(),
      'omitnil',
      'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.',
    ),
  ],
};

export const leaseSchema: ObjectSchema = {
  id: 'io.k8s.api.coordination.v1.Lease',
  goType: 'Lease',
  description: 'Lease defines a lease concept.',
  gvk: { group: coordinationGroup(), version: 'v1', kind: 'Lease' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => objectMetaSchema),
      'always',
      'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    ),
    field(
      'spec',
      obj(() => leaseSpecSchema),
      'always',
      'spec contains the specification of the Lease. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
    ),
  ],
};

export const leaseListSchema: ObjectSchema = {
  id: 'io.k8s.api.coordination.v1.LeaseList',
  goType: 'LeaseList',
  description: 'LeaseList is a list of Lease objects.',
  gvk: { group: coordinationGroup(), version: 'v1', kind: 'LeaseList' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => listMetaSchema),
      'always',
      'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    ),
    field('items', arrayOf(obj(() => leaseSchema)), 'always', 'items is a list of schema objects.', {
      required: true,
    }),
  ],
};
