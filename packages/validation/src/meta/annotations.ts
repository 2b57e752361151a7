import { invalidEach, tooLong, type FieldError } from '../field/error.js';
import type { FieldPath } from '../field/path.js';
import { goLen } from './messages.js';
import { isQualifiedName } from './qualified-name.js';

/** `TotalAnnotationSizeLimitB`: 256 KiB over all keys and values, in bytes. */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

/**
 * `ValidateAnnotations`: keys are qualified names compared case-insensitively, and the keys and
 * values together are at most 256 KiB (`Too long: may not be more than 262144 bytes`).
 */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    errs.push(...invalidEach(path, k, isQualifiedName(k.toLowerCase())));
    size += goLen(k) + goLen(v);
  }
  if (size > totalAnnotationSizeLimitBytes) errs.push(tooLong(path, '', totalAnnotationSizeLimitBytes));
  return errs;
}
