import type { ObjectMeta } from '@kevents/api';
import { forbidden, invalid, required, type FieldError } from '../field/error.js';
import { FieldPath } from '../field/path.js';
import { validateAnnotations } from './annotations.js';
import { validateFinalizers } from './finalizers.js';
import { validateLabels } from './labels.js';
import { validateManagedFields } from './managed-fields.js';
import { validateNamespaceName, type ValidateNameFunc } from './name-functions.js';
import { validateOwnerReferences } from './owner-references.js';

/** `IsNegativeErrorMsg` */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';

/** Options of {@link validateObjectMeta}. */
export interface ObjectMetaOptions {
  /** The resource is namespaced: the namespace is required and must be a DNS-1123 label. */
  namespaced: boolean;
  /** The name rule, e.g. `nameIsDNSSubdomain` or `nameIsPathSegment`. */
  nameFn: ValidateNameFunc;
}

/**
 * `ValidateObjectMeta` (apimachinery, `ValidateObjectMetaAccessor`): metadata on create, after name
 * generation. Checks generateName and name with `nameFn`, the namespace, generation, labels,
 * annotations, ownerReferences, finalizers and managedFields, in Kubernetes' order.
 */
export function validateObjectMeta(
  meta: ObjectMeta,
  opts: ObjectMetaOptions,
  path: FieldPath = FieldPath.root('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  const name = meta.name ?? '';
  if (generateName) {
    errs.push(...opts.nameFn(generateName, true).map((m) => invalid(path.child('generateName'), generateName, m)));
  }
  if (!name) errs.push(required(path.child('name'), 'name or generateName is required'));
  else errs.push(...opts.nameFn(name, false).map((m) => invalid(path.child('name'), name, m)));
  return errs.concat(validateObjectMetaCommon(meta, opts.namespaced, path));
}

function validateObjectMetaCommon(meta: ObjectMeta, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ns = meta.namespace ?? '';
  if (namespaced) {
    if (!ns) errs.push(required(path.child('namespace')));
    else errs.push(...validateNamespaceName(ns, false).map((m) => invalid(path.child('namespace'), ns, m)));
  } else if (ns) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegative(meta.generation ?? 0, path.child('generation')));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, path.child('managedFields')));
  return errs;
}

/** `ValidateNonnegativeField` */
export const validateNonnegative = (value: number, path: FieldPath): FieldError[] =>
  value < 0 ? [invalid(path, value, isNegativeErrorMsg)] : [];
