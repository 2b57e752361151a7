import type { JsonValue } from '../value/json-value.js';

/** Scalar kinds (`schema.Scalar`). `untyped` accepts any scalar. */
export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';

/**
 * How a list's or map's items relate (`schema.ElementRelationship`): `atomic` (the whole value is
 * one field, replaced on apply), `associative` (lists: items identified by key fields, or by
 * value for a set), `separable` (maps and structs: each field owned on its own).
 */
export type ElementRelationship = 'associative' | 'atomic' | 'separable';

/** A struct field: its type and the default used for a missing associative-list key. */
export interface StructField {
  readonly type: Atom;
  readonly default?: JsonValue;
}

/** A map or struct (`schema.Map`): named fields, and the type of every other key. */
export interface MapType {
  readonly fields: ReadonlyMap<string, StructField>;
  /** The type of keys not in `fields`; undefined means such keys are a schema error. */
  readonly elementType?: Atom;
  readonly elementRelationship: ElementRelationship;
}

/** A list (`schema.List`). `keys` is set for an associative list of maps (`x-kubernetes-list-map-keys`). */
export interface ListType {
  readonly elementType: Atom;
  readonly elementRelationship: ElementRelationship;
  readonly keys: readonly string[];
}

/**
 * A type (`schema.Atom`; also stands for a resolved `schema.TypeRef`). At least one of the three
 * should be set; when several are (untyped and deduced types), the value's own shape picks one.
 * An atom with none is an unknown type and a schema error wherever a value meets it. Atoms may
 * refer to themselves (recursive types), so never walk one without a value to guide the walk.
 */
export interface Atom {
  readonly scalar?: Scalar;
  readonly list?: ListType;
  readonly map?: MapType;
  /** A name for error texts (the definition id or type name). */
  readonly name?: string;
}

/** The type of nothing known: every use of it is a schema error (an unknown field). */
export const unknownType: Atom = {};
