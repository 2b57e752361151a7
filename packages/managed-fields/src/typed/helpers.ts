import { keyElement, pathElementString } from '../fieldpath/path-element.js';
import type { KeyField, PathElement } from '../fieldpath/path-element.js';
import type { Atom, ListType, Scalar } from '../schema/types.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';
import { goValueString } from '../value/go-format.js';

/** Which handler a value goes to (`deduceAtom` then `handleAtom`): map first, then scalar, then list. */
export type AtomKind = 'map' | 'scalar' | 'list' | 'invalid';

/** `deduceAtom` + `handleAtom`: the part of the atom the value takes (undefined: any). */
export function atomKind(atom: Atom, v: JsonValue | undefined): AtomKind {
  if (v !== undefined && v !== null) {
    if (typeof v !== 'object') {
      if (atom.scalar) return 'scalar';
    } else if (Array.isArray(v)) {
      if (atom.list) return 'list';
    } else if (atom.map) return 'map';
  }
  if (atom.map) return 'map';
  if (atom.scalar) return 'scalar';
  if (atom.list) return 'list';
  return 'invalid';
}

/** The error for an atom with nothing set. */
export function invalidAtomMessage(atom: Atom): string {
  return `schema error: invalid atom: ${atom.name ? 'named type: ' + atom.name : 'inlined'}`;
}

/** A short rendering of a value for error texts. */
export function describeValue(v: JsonValue | undefined): string {
  return v === undefined ? '<nil>' : goValueString(v);
}

/** `validateScalar`: undefined when the value fits (absent and null always fit). */
export function validateScalar(t: Scalar, v: JsonValue | undefined, prefix: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  switch (t) {
    case 'numeric':
      return typeof v === 'number' ? undefined : `${prefix}expected numeric (int or float), got ${describeValue(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `${prefix}expected string, got ${describeValue(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `${prefix}expected boolean, got ${describeValue(v)}`;
    case 'untyped':
      return typeof v !== 'object' ? undefined : `${prefix}expected any scalar, got ${describeValue(v)}`;
  }
}

/** A list item's path element could not be made. */
export class ListItemError extends Error {}

function goQuoteList(keys: readonly string[]): string {
  return '[' + keys.map((k) => JSON.stringify(k)).join(' ') + ']';
}

/** `listItemToPathElement`: the key (`k:`) or value (`v:`) element of an associative list item. */
export function listItemToPathElement(list: ListType, child: JsonValue): PathElement {
  if (list.elementRelationship !== 'associative') throw new ListItemError('invalid indexing of non-associative list');
  if (list.keys.length > 0) {
    if (child === null) throw new ListItemError('associative list with keys may not have a null element');
    if (!isJsonObject(child)) throw new ListItemError('associative list with keys may not have non-map elements');
    const fields: KeyField[] = [];
    for (const name of list.keys) {
      if (Object.hasOwn(child, name)) {
        fields.push({ name, value: child[name]! });
        continue;
      }
      const elementMap = list.elementType.map;
      if (!elementMap) {
        throw new ListItemError(`couldn't find default value for ${name}: associative list may not have non-map types`);
      }
      const def = elementMap.fields.get(name)?.default;
      if (def !== undefined && def !== null) fields.push({ name, value: def });
    }
    if (fields.length === 0) {
      throw new ListItemError(
        `associative list with keys has an element that omits all key fields ${goQuoteList(list.keys)} (and doesn't have default values for any key fields)`,
      );
    }
    return keyElement(fields);
  }
  if (isJsonObject(child)) throw new ListItemError("associative list without keys has an element that's a map type");
  if (Array.isArray(child)) throw new ListItemError('not supported: associative list with lists as elements');
  if (child === null) throw new ListItemError("associative list without keys has an element that's an explicit null");
  return { kind: 'value', value: child };
}

/** The type of a map's key: its struct field's, else the element type, else unknown. */
export function mapFieldType(atom: Atom, key: string): Atom {
  const map = atom.map!;
  return map.fields.get(key)?.type ?? map.elementType ?? {};
}

/** Appends one element's string to a path string. */
export function childPath(path: string, pe: PathElement): string {
  return path + pathElementString(pe);
}

/** The keys of two maps as `MapZip` with `Unordered` visits them: the left's, then the right's others. */
export function zipKeys(
  l: Readonly<Record<string, unknown>> | undefined,
  r: Readonly<Record<string, unknown>> | undefined,
): string[] {
  const keys = l ? Object.keys(l) : [];
  if (r) for (const k of Object.keys(r)) if (!l || !Object.hasOwn(l, k)) keys.push(k);
  return keys;
}
