import type { ObjectMeta } from '@kevents/api';
import { forbidden, invalid, pushInvalid, required, type FieldError } from '../field/error.js';
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

/** `metadata`, the default root of {@link validateObjectMeta}'s paths. */
const metadataPath = FieldPath.root('metadata');

/** Appends `more` to `errs` (most validators find nothing). */
function append(errs: FieldError[], more: readonly FieldError[]): void {
  for (const e of more) errs.push(e);
}

/**
 * `ValidateObjectMeta` (apimachinery, `ValidateObjectMetaAccessor`): metadata on create, after name
 * generation. Checks generateName and name with `nameFn`, the namespace, generation, labels,
 * annotations, ownerReferences, finalizers and managedFields, in Kubernetes' order.
 */
export function validateObjectMeta(
  meta: ObjectMeta,
  opts: ObjectMetaOptions,
  path: FieldPath = metadataPath,
): FieldError[] {
  const errs = validateObjectMetaNames(meta, opts.nameFn, path);
  validateObjectMetaCommon(errs, meta, opts.namespaced, path);
  return errs;
}

/**
 * The first part of {@link validateObjectMeta}: generateName and name by `nameFn` (a name is
 * required). What a second `ValidateObjectMeta` with another name rule finds beyond the first.
 */
export function validateObjectMetaNames(
  meta: ObjectMeta,
  nameFn: ValidateNameFunc,
  path: FieldPath = metadataPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  const name = meta.name ?? '';
  if (generateName) pushInvalid(errs, nameFn(generateName, true), () => path.child('generateName'), generateName);
  if (!name) errs.push(required(path.child('name'), 'name or generateName is required'));
  else pushInvalid(errs, nameFn(name, false), () => path.child('name'), name);
  return errs;
}

/** The rest of {@link validateObjectMeta}, appended to `errs`; fields that are absent are not visited. */
function validateObjectMetaCommon(errs: FieldError[], meta: ObjectMeta, namespaced: boolean, path: FieldPath): void {
  const ns = meta.namespace ?? '';
  if (namespaced) {
    if (!ns) errs.push(required(path.child('namespace')));
    else pushInvalid(errs, validateNamespaceName(ns, false), () => path.child('namespace'), ns);
  } else if (ns) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) append(errs, validateNonnegative(meta.generation!, path.child('generation')));
  if (meta.labels != null) append(errs, validateLabels(meta.labels, path.child('labels')));
  if (meta.annotations != null) append(errs, validateAnnotations(meta.annotations, path.child('annotations')));
  if (meta.ownerReferences != null)
    append(errs, validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  if (meta.finalizers != null) append(errs, validateFinalizers(meta.finalizers, path.child('finalizers')));
  if (meta.managedFields != null) append(errs, validateManagedFields(meta.managedFields, path.child('managedFields')));
}

/** `ValidateNonnegativeField` */
export const validateNonnegative = (value: number, path: FieldPath): FieldError[] =>
  value < 0 ? [invalid(path, value, isNegativeErrorMsg)] : [];
