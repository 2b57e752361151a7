import type { Lease } from '@kevents/api';
import type { ResourceStrategy } from '../../registry/strategy.js';
import { validateLease, validateLeaseUpdate } from '@kevents/validation';
import { leaseTable } from './table.js';

/**
 * Leases (`pkg/registry/coordination/lease/strategy.go`): namespaced, created by PUT too, but
 * never updated without a resourceVersion (leader election depends on it); validated as
 * `ValidateLease`/`ValidateLeaseUpdate`.
 */
export function leaseStrategy(group: string): ResourceStrategy<Lease> {
  return {
    namespaced: true,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
    qualifiedKind: { group, kind: 'Lease' },
    newObject: () => ({ metadata: {}, spec: {} }),
    validate: (l) => validateLease(l),
    validateUpdate: (l, old) => validateLeaseUpdate(l, old),
    fieldValue: () => '',
    table: leaseTable,
  };
}
