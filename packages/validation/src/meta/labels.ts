import { invalidEach, type FieldError } from '../field/error.js';
import type { FieldPath } from '../field/path.js';
import { isQualifiedName, isValidLabelValue } from './qualified-name.js';

/** `ValidateLabelName`: a label key must be a qualified name. */
export function validateLabelName(key: string, path: FieldPath): FieldError[] {
  return invalidEach(path, key, isQualifiedName(key));
}

/**
 * `ValidateLabels`: qualified-name keys and valid values. Every error is reported at the map's own
 * path (`metadata.labels`), as in Kubernetes, with the bad key or value.
 */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    errs.push(...invalidEach(path, v, isValidLabelValue(v)));
  }
  return errs;
}
