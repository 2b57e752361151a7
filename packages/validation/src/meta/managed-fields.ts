import type { ManagedFieldsEntry } from '@kevents/api';
import { invalid, notSupported, omitValue, required, tooLong, type FieldError } from '../field/error.js';
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

/** Whether a string is printable ASCII (U+0020–U+007E: letters, digits, punctuation, symbols and the space). */
const printableASCII = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
};

/** `ValidateFieldManager`: at most 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, path: FieldPath): FieldError[] {
  if (manager.length <= fieldManagerMaxLength && printableASCII(manager)) return [];
  const errs: FieldError[] = [];
  if (goLen(manager) > fieldManagerMaxLength) errs.push(tooLong(path, '', fieldManagerMaxLength));
  let pos = 0;
  for (const ch of manager) {
    if (!printable.test(ch)) errs.push(invalid(path, manager, `invalid character ${goRune(ch)} (at position ${pos})`));
    pos += goLen(ch);
  }
  return errs;
}

/**
 * The deepest `fieldsV1` kevents stores (a kevents bound; kube-apiserver has none below its JSON
 * nesting limit). Real field sets nest about as deep as their object (an Event's 4, a Pod's
 * ~12); a `fieldsV1` nested a thousand deep turns into hundreds of MB of indented JSON or YAML.
 */
export const fieldsV1MaxDepth = 64;

/**
 * Deeply frozen values found nested at most {@link fieldsV1MaxDepth} deep: they cannot change, and
 * the field manager stamps every create of one shape with the same frozen `fieldsV1`.
 */
const shallowFrozen = new WeakSet<object>();

/** Whether a JSON value nests objects or arrays more than `limit` deep (level by level, no recursion). */
function depthPast(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === fieldsV1MaxDepth && shallowFrozen.has(value)) return false;
  let frozen = true;
  let level: object[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return true;
    const next: object[] = [];
    for (const v of level) {
      if (frozen && !Object.isFrozen(v)) frozen = false;
      for (const child of Object.values(v)) if (child !== null && typeof child === 'object') next.push(child);
    }
    level = next;
  }
  if (frozen && limit === fieldsV1MaxDepth) shallowFrozen.add(value);
  return false;
}

/**
 * `ValidateManagedFields`: operation Apply|Update, fieldsType FieldsV1, a sane manager and
 * subresource; and (kevents) a `fieldsV1` nested at most {@link fieldsV1MaxDepth} deep.
 */
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
    if (e.fieldsV1 !== undefined && depthPast(e.fieldsV1, fieldsV1MaxDepth))
      errs.push(
        invalid(p.child('fieldsV1'), omitValue, `must not be nested more than ${fieldsV1MaxDepth} levels deep`),
      );
  });
  return errs;
}
