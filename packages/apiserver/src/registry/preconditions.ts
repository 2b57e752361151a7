import type { KubeObject } from '@kevents/api';
import { resourceVersionPreconditionError, uidConflictError } from '@kevents/storage';
import type { ObjectKey, Preconditions } from '@kevents/storage';

/**
 * `storage.Preconditions.Check`: the uid and resourceVersion preconditions of a write against the
 * object read, failing with the Storage contract's Conflict errors (as a store checks them).
 */
export function checkPreconditions(key: ObjectKey, obj: KubeObject, p: Preconditions | undefined): void {
  if (p?.uid && p.uid !== obj.metadata.uid) throw uidConflictError(key, p.uid, obj.metadata.uid ?? '');
  if (p?.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw resourceVersionPreconditionError(key, p.resourceVersion, obj.metadata.resourceVersion ?? '');
  }
}
