import type { ManagedFieldsEntry } from '@kevents/api';
import { invalid, notSupported, required, tooLong, type FieldError } from '../field/error.js';
import type { FieldPath } from '../field/path.js';
import { goLen } from './messages.js';

/** `FieldManagerMaxLength` */
export const fieldManagerMaxLength = 128;
/** `MaxSubresourceNameLength` */
export const maxSubresourceNameLength = 256;

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
/** Go's `%#U`: `U+0007`, or `U+00E9 'é'` for a printable rune. */
const goRune = (ch: string): string => {
  const hex = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return printable.test(ch) ? `U+${hex} '${ch}'` : `U+${hex}`;
};

/** `ValidateFieldManager`: at most 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (goLen(manager) > fieldManagerMaxLength) errs.push(tooLong(path, '', fieldManagerMaxLength));
  let pos = 0;
  for (const ch of manager) {
    if (!printable.test(ch)) errs.push(invalid(path, manager, `invalid character ${goRune(ch)} (at position ${pos})`));
    pos += goLen(ch);
  }
  return errs;
}

/** `ValidateManagedFields`: operation Apply|Update, fieldsType FieldsV1, a sane manager and subresource. */
export function validateManagedFields(
  entries: readonly ManagedFieldsEntry[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const p = path.index(i);
    const op: string = e.operation ?? '';
    if (op === '') errs.push(required(p.child('operation'), 'must not be empty'));
    else if (op !== 'Apply' && op !== 'Update') errs.push(notSupported(p.child('operation'), op, ['Apply', 'Update']));
    if (e.fieldsType && e.fieldsType !== 'FieldsV1')
      errs.push(invalid(p.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager ?? '', p.child('manager')));
    if (goLen(e.subresource ?? '') > maxSubresourceNameLength)
      errs.push(tooLong(p.child('subresource'), '', maxSubresourceNameLength));
  });
  return errs;
}
