import type { Lease, LeaseSpec } from '@kevents/api';
import { forbidden, invalid, invalidEach, notSupported, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { nameIsDNSSubdomain } from '../meta/name-functions.js';
import { validateObjectMeta } from '../meta/object-meta.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-update.js';
import { isQualifiedName } from '../meta/qualified-name.js';

/** The strategies Kubernetes defines by a bare name (`coordination.OldestEmulationVersion`). */
export const validLeaseStrategies: readonly string[] = ['OldestEmulationVersion'];

/**
 * `ValidateLease` (pkg/apis/coordination/validation): metadata as apimachinery's
 * `ValidateObjectMeta` checks it, namespaced, with a DNS-subdomain name (unlike core kinds,
 * finalizer names get no extra Kubernetes-finalizer check), then the spec.
 */
export function validateLease(lease: Lease): FieldError[] {
  const errs = validateObjectMeta(lease.metadata ?? {}, { namespaced: true, nameFn: nameIsDNSSubdomain });
  return errs.concat(validateLeaseSpec(lease.spec ?? {}, FieldPath.root('spec')));
}

/**
 * `ValidateLeaseUpdate`: apimachinery's `ValidateObjectMetaUpdate`, then the new spec is
 * validated as on create. No spec field is immutable.
 */
export function validateLeaseUpdate(lease: Lease, old: Lease): FieldError[] {
  const errs = validateObjectMetaUpdate(lease.metadata ?? {}, old.metadata ?? {});
  return errs.concat(validateLeaseSpec(lease.spec ?? {}, FieldPath.root('spec')));
}

/**
 * `ValidateLeaseSpec`: `leaseDurationSeconds` > 0 and `leaseTransitions` >= 0 when set; a set
 * `strategy` must be a Kubernetes strategy or a prefixed qualified name; a non-empty
 * `preferredHolder` needs a non-empty `strategy`. Times need no check.
 */
export function validateLeaseSpec(spec: LeaseSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(invalid(path.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(invalid(path.child('leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec.strategy !== undefined) {
    errs.push(...validateCoordinatedLeaseStrategy(spec.strategy, path.child('strategy')));
  }
  if (spec.preferredHolder && !spec.strategy) {
    errs.push(forbidden(path.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

/**
 * `ValidateCoordinatedLeaseStrategy`. Kubernetes appends `strategy` to the path it is given, and
 * `ValidateLeaseSpec` already gives it `spec.strategy`: the errors name `spec.strategy.strategy`.
 */
export function validateCoordinatedLeaseStrategy(strategy: string, path: FieldPath): FieldError[] {
  const at = path.child('strategy');
  if (!strategy.includes('/')) {
    return validLeaseStrategies.includes(strategy) ? [] : [notSupported(at, strategy, validLeaseStrategies)];
  }
  return invalidEach(at, strategy, isQualifiedName(strategy));
}
