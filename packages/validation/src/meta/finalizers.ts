import { forbidden, goQuote, invalid, invalidEach, type FieldError } from '../field/error.js';
import type { FieldPath } from '../field/path.js';
import { isQualifiedName } from './qualified-name.js';

/** `metav1.FinalizerOrphanDependents` */
export const finalizerOrphanDependents = 'orphan';
/** `metav1.FinalizerDeleteDependents` */
export const finalizerDeleteDependents = 'foregroundDeletion';
const standardFinalizers = new Set(['kubernetes', finalizerOrphanDependents, finalizerDeleteDependents]);

/**
 * `ValidateFinalizers`: each finalizer is a qualified name (errors at the unindexed list path), and
 * `orphan` and `foregroundDeletion` exclude each other.
 */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const list = finalizers ?? [];
  const errs: FieldError[] = [];
  for (const f of list) errs.push(...invalidEach(path, f, isQualifiedName(f)));
  if (list.includes(finalizerOrphanDependents) && list.includes(finalizerDeleteDependents)) {
    errs.push(
      invalid(path, list, `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`),
    );
  }
  return errs;
}

/**
 * The core API's extra finalizer check (`validateKubeFinalizerName`, run by the core `ValidateObjectMeta`
 * and `ValidateObjectMetaUpdate`): a name without `/` must be one of the standard finalizers.
 */
export function validateKubeFinalizerNames(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  return (finalizers ?? []).flatMap((f, i) =>
    !f.includes('/') && !standardFinalizers.has(f)
      ? [invalid(path.index(i), f, 'name is neither a standard finalizer name nor is it fully qualified')]
      : [],
  );
}

/** Go's `%#v` of a `[]string`: `[]string{"a", "b"}`. */
const goStringSlice = (xs: readonly string[]): string => `[]string{${xs.map(goQuote).join(', ')}}`;

/** `ValidateNoNewFinalizers`: an object being deleted may not gain finalizers. */
export function validateNoNewFinalizers(
  newFinalizers: readonly string[] | undefined,
  oldFinalizers: readonly string[] | undefined,
  path: FieldPath,
): FieldError[] {
  const old = new Set(oldFinalizers ?? []);
  const extra = [...new Set((newFinalizers ?? []).filter((f) => !old.has(f)))].sort();
  return extra.length
    ? [
        forbidden(
          path,
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`,
        ),
      ]
    : [];
}
