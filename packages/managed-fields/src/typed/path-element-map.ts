import { goJSON } from '../value/go-json.js';
import type { JsonValue } from '../value/json-value.js';
import type { PathElement } from '../fieldpath/path-element.js';

/**
 * A text that two path elements share exactly when `pathElementsEqual` holds: the kind, then a
 * field's name, an index, a scalar value (numbers as JavaScript prints them, so `-0` is `0`), or
 * the JSON of a composite value or of a key's fields in order, nested object keys sorted. A
 * `Set` of these finds repeated list items in constant time a lookup.
 */
export function pathElementIdentity(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return 'f' + pe.name;
    case 'index':
      return 'i' + String(pe.index);
    case 'value':
      return 'v' + valueIdentity(pe.value);
    case 'key':
      return 'k' + JSON.stringify(pe.fields.map((f) => [f.name, valueIdentity(f.value)]));
  }
}

const valueIdentity = (v: JsonValue): string =>
  typeof v === 'string'
    ? 's' + v
    : typeof v === 'number'
      ? 'n' + String(v)
      : typeof v === 'boolean'
        ? 'b' + String(v)
        : v === null
          ? 'z'
          : 'j' + goJSON(v);

/**
 * A map keyed by path elements (`fieldpath.PathElementValueMap`). Hashed by each element's
 * identity: a list of 4,500 set items (finalizers) was a sorted array, each insert a binary search
 * of string comparisons and a splice, 50-100 ms of an apply.
 */
export class PathElementMap<V> {
  private readonly entries = new Map<string, V>();

  /** Whether `pe` has a value. */
  has(pe: PathElement): boolean {
    return this.entries.has(pathElementIdentity(pe));
  }

  /** The value of `pe`, if any. */
  get(pe: PathElement): V | undefined {
    return this.entries.get(pathElementIdentity(pe));
  }

  /** Sets the value of `pe`. */
  set(pe: PathElement, value: V): void {
    this.entries.set(pathElementIdentity(pe), value);
  }
}
