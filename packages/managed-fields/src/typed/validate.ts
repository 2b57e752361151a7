import { pathElementIdentity } from './path-element-map.js';
import type { PathElement } from '../fieldpath/path-element.js';
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

/** Where the walk is: the parent's place and this element (rendered only for a problem). */
interface Place {
  readonly parent: Place | undefined;
  readonly pe: PathElement;
}

function placeText(p: Place | undefined): string {
  const elements: PathElement[] = [];
  for (let q = p; q !== undefined; q = q.parent) elements.push(q.pe);
  let text = '';
  for (let i = elements.length - 1; i >= 0; i--) text = childPath(text, elements[i]!);
  return text;
}

/**
 * Checks a value against its type (`TypedValue.Validate`): scalar types, list and map shapes,
 * associative-list keys (and their uniqueness unless allowed), fields the schema does not
 * declare. Throws a {@link TypedValueError} listing every problem.
 */
export function validate(value: JsonValue, type: Atom, options: ValidateOptions = {}): void {
  const problems: TypedValueProblem[] = [];
  const walk = (v: JsonValue, t: Atom, place: Place | undefined): void => {
    switch (atomKind(t, v)) {
      case 'invalid':
        problems.push({ path: placeText(place), message: invalidAtomMessage(t) });
        return;
      case 'scalar': {
        const err = validateScalar(t.scalar!, v, '');
        if (err) problems.push({ path: placeText(place), message: err });
        return;
      }
      case 'list': {
        if (v === null) return;
        if (!Array.isArray(v)) {
          problems.push({ path: placeText(place), message: `expected list, got ${describeValue(v)}` });
          return;
        }
        const list = t.list!;
        const associative = list.elementRelationship === 'associative';
        const seen = associative ? new Set<string>() : undefined;
        for (let i = 0; i < v.length; i++) {
          const child = v[i]!;
          let pe: PathElement = { kind: 'index', index: i };
          if (seen !== undefined) {
            try {
              pe = listItemToPathElement(list, child);
            } catch (err) {
              problems.push({ path: placeText(place), message: `element ${i}: ${(err as Error).message}` });
              return;
            }
            const id = pathElementIdentity(pe);
            if (seen.has(id) && !options.allowDuplicates) {
              problems.push({ path: placeText(place), message: `duplicate entries for key ${childPath('', pe)}` });
            }
            seen.add(id);
          }
          walk(child, list.elementType, { parent: place, pe });
        }
        return;
      }
      case 'map': {
        if (v === null) return;
        if (!isJsonObject(v)) {
          problems.push({ path: placeText(place), message: `expected map, got ${describeValue(v)}` });
          return;
        }
        const map = t.map!;
        for (const key in v) {
          if (!Object.hasOwn(v, key)) continue;
          const type = map.fields.get(key)?.type ?? map.elementType;
          if (!type) {
            problems.push({
              path: placeText({ parent: place, pe: { kind: 'field', name: key } }),
              message: 'field not declared in schema',
            });
            return;
          }
          walk(v[key]!, type, { parent: place, pe: { kind: 'field', name: key } });
        }
        return;
      }
    }
  };
  walk(value, type, undefined);
  if (problems.length > 0) throw new TypedValueError(problems);
}
