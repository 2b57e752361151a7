import { FieldSet } from '../fieldpath/set.js';
import type { Atom } from '../schema/types.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';
import { TypedValueError } from './errors.js';
import type { TypedValueProblem } from './errors.js';
import {
  atomKind,
  childPath,
  describeValue,
  invalidAtomMessage,
  listItemToPathElement,
  validateScalar,
} from './helpers.js';

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * Accept repeated keys in associative lists (`typed.AllowDuplicates`): kube accepts them in
   * stored and updated objects, never in an applied configuration.
   */
  readonly allowDuplicates?: boolean;
}

/**
 * Checks a value against its type (`TypedValue.Validate`): scalar types, list and map shapes,
 * associative-list keys (and their uniqueness unless allowed), fields the schema does not
 * declare. Throws a {@link TypedValueError} listing every problem.
 */
export function validate(value: JsonValue, type: Atom, options: ValidateOptions = {}): void {
  const problems: TypedValueProblem[] = [];
  const walk = (v: JsonValue, t: Atom, path: string): void => {
    switch (atomKind(t, v)) {
      case 'invalid':
        problems.push({ path, message: invalidAtomMessage(t) });
        return;
      case 'scalar': {
        const err = validateScalar(t.scalar!, v, '');
        if (err) problems.push({ path, message: err });
        return;
      }
      case 'list': {
        if (v === null) return;
        if (!Array.isArray(v)) {
          problems.push({ path, message: `expected list, got ${describeValue(v)}` });
          return;
        }
        const list = t.list!;
        const seen = new FieldSet();
        for (let i = 0; i < v.length; i++) {
          const child = v[i]!;
          let elementPath = childPath(path, { kind: 'index', index: i });
          if (list.elementRelationship === 'associative') {
            let pe;
            try {
              pe = listItemToPathElement(list, child);
            } catch (err) {
              problems.push({ path, message: `element ${i}: ${(err as Error).message}` });
              return;
            }
            if (seen.hasMember(pe) && !options.allowDuplicates) {
              problems.push({ path, message: `duplicate entries for key ${childPath('', pe)}` });
            }
            seen.insertMember(pe);
            elementPath = childPath(path, pe);
          }
          walk(child, list.elementType, elementPath);
        }
        return;
      }
      case 'map': {
        if (v === null) return;
        if (!isJsonObject(v)) {
          problems.push({ path, message: `expected map, got ${describeValue(v)}` });
          return;
        }
        const map = t.map!;
        for (const [key, child] of Object.entries(v)) {
          const fieldPath = childPath(path, { kind: 'field', name: key });
          const type = map.fields.get(key)?.type ?? map.elementType;
          if (!type) {
            problems.push({ path: fieldPath, message: 'field not declared in schema' });
            return;
          }
          walk(child, type, fieldPath);
        }
        return;
      }
    }
  };
  walk(value, type, '');
  if (problems.length > 0) throw new TypedValueError(problems);
}
