import type { ObjectMeta } from '@kevents/api';
import { invalid, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { validateAnnotations } from './annotations.js';
import { validateNoNewFinalizers } from './finalizers.js';
import { goTime, isZeroTime, timeKey } from './go-time.js';
import { validateImmutableField } from './immutable.js';
import { validateLabels } from './labels.js';
import { validateManagedFields } from './managed-fields.js';
import { validateNonnegative } from './object-meta.js';
import { validateOwnerReferences } from './owner-references.js';

/**
 * `ValidateObjectMetaUpdate` (apimachinery): metadata on update. A deleting object may not gain
 * finalizers; resourceVersion must be set (the server fills it in first for unconditional updates);
 * generation may not decrease; name, namespace, uid, creationTimestamp, deletionTimestamp and
 * deletionGracePeriodSeconds are immutable (`field is immutable`); labels, annotations,
 * ownerReferences and managedFields are re-validated. generateName is not checked.
 */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  path: FieldPath = FieldPath.root('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  if (!isZeroTime(oldMeta.deletionTimestamp)) {
    errs.push(...validateNoNewFinalizers(newMeta.finalizers, oldMeta.finalizers, path.child('finalizers')));
  }
  const rv = newMeta.resourceVersion ?? '';
  if (!rv) errs.push(invalid(path.child('resourceVersion'), rv, 'must be specified for an update'));
  const gen = newMeta.generation ?? 0;
  errs.push(...validateNonnegative(gen, path.child('generation')));
  if (gen < (oldMeta.generation ?? 0)) errs.push(invalid(path.child('generation'), gen, 'must not be decremented'));

  const str = (v: string | undefined) => v ?? '';
  errs.push(...validateImmutableField(str(newMeta.name), str(oldMeta.name), path.child('name')));
  errs.push(...validateImmutableField(str(newMeta.namespace), str(oldMeta.namespace), path.child('namespace')));
  errs.push(...validateImmutableField(str(newMeta.uid), str(oldMeta.uid), path.child('uid')));
  for (const f of ['creationTimestamp', 'deletionTimestamp'] as const) {
    errs.push(...validateImmutableField(timeKey(newMeta[f]), timeKey(oldMeta[f]), path.child(f), goTime(newMeta[f])));
  }
  const grace = (m: ObjectMeta) => m.deletionGracePeriodSeconds ?? null;
  errs.push(...validateImmutableField(grace(newMeta), grace(oldMeta), path.child('deletionGracePeriodSeconds')));

  errs.push(...validateLabels(newMeta.labels, path.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, path.child('managedFields')));
  return errs;
}
