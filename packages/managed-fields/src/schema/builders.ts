import type { JsonValue } from '../value/json-value.js';
import type { Atom, ElementRelationship, ListType, MapType, Scalar, StructField } from './types.js';

/** A scalar type. */
export function scalarType(scalar: Scalar): Atom {
  return { scalar };
}

/** A struct field map entry; `default` is the value a missing list-map key takes. */
export function structField(type: Atom, defaultValue?: JsonValue): StructField {
  return defaultValue === undefined ? { type } : { type, default: defaultValue };
}

/** A struct (map with named fields), granular unless `atomic` (`x-kubernetes-map-type`). */
export function structType(
  fields: Readonly<Record<string, Atom>>,
  options: {
    /** The type of keys other than `fields` (undefined: they are schema errors). */
    elementType?: Atom;
    elementRelationship?: ElementRelationship;
    name?: string;
    /** Field defaults, used for missing associative-list keys. */
    defaults?: Readonly<Record<string, JsonValue>>;
  } = {},
): Atom {
  const m = new Map<string, StructField>();
  for (const [name, type] of Object.entries(fields)) m.set(name, structField(type, options.defaults?.[name]));
  const map: MapType = {
    fields: m,
    elementRelationship: options.elementRelationship ?? 'separable',
    ...(options.elementType ? { elementType: options.elementType } : {}),
  };
  return options.name ? { map, name: options.name } : { map };
}

/** A map from strings to `values` (`additionalProperties`), granular unless `atomic`. */
export function mapType(values: Atom, elementRelationship: ElementRelationship = 'separable'): Atom {
  return { map: { fields: new Map(), elementType: values, elementRelationship } };
}

function list(elementType: Atom, elementRelationship: ElementRelationship, keys: readonly string[] = []): Atom {
  const l: ListType = { elementType, elementRelationship, keys };
  return { list: l };
}

/** An atomic list (`x-kubernetes-list-type: atomic`, and every list that says nothing). */
export function atomicList(items: Atom): Atom {
  return list(items, 'atomic');
}

/** A set of scalars (`x-kubernetes-list-type: set`). */
export function setList(items: Atom): Atom {
  return list(items, 'associative');
}

/** An associative list keyed by `keys` (`x-kubernetes-list-type: map`, `x-kubernetes-list-map-keys`). */
export function mapList(items: Atom, keys: readonly string[]): Atom {
  return list(items, 'associative', keys);
}

/** The same map or list type with another element relationship (a `TypeRef`'s override). */
export function withElementRelationship(t: Atom, elementRelationship: ElementRelationship): Atom {
  if (t.map) return { ...t, map: { ...t.map, elementRelationship } };
  if (t.list) return { ...t, list: { ...t.list, elementRelationship } };
  return t;
}
