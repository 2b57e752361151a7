import { invalid, type FieldError } from '../field/error.js';
import type { FieldPath } from '../field/path.js';
import { deepEqual } from './deep-equal.js';

/** `FieldImmutableErrorMsg` */
export const fieldImmutableErrorMsg = 'field is immutable';

/**
 * `ValidateImmutableField`: `<path>: Invalid value: <new>: field is immutable` when the values differ.
 * Pass values in the form Go would compare and print (see `goTime`, `goObjectReference`);
 * `badValue` overrides what is printed when comparison and printing need different forms.
 */
export function validateImmutableField(
  newValue: unknown,
  oldValue: unknown,
  path: FieldPath,
  badValue: unknown = newValue,
): FieldError[] {
  return deepEqual(newValue, oldValue) ? [] : [invalid(path, badValue, fieldImmutableErrorMsg)];
}
