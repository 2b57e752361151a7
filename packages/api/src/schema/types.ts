/**
 * A small schema language describing every served kind once. The strict decoder, the
 * canonical encoder (Go field order and omitempty rules) and the OpenAPI documents are all
 * derived from these descriptions, so the wire shape has one source of truth.
 */

/** How a field is emitted when it holds its zero value, following Go's encoding/json. */
export type Emit =
  /** `omitempty` on a scalar, map, slice or pointer to a struct: left out when zero/empty/absent. */
  | 'omitempty'
  /**
   * `omitempty` on a pointer to a scalar (`*int32`, `*string`, `*metav1.MicroTime`): left out
   * only when nil (absent or null); a zero value behind the pointer (`0`, `""`) is emitted.
   */
  | 'omitnil'
  /** No `omitempty`, or a non-pointer struct: always emitted (zero value when absent). */
  | 'always';

/** A field's type. */
export type FieldType =
  | { readonly kind: 'string'; readonly format?: string; readonly enum?: readonly string[] }
  | { readonly kind: 'integer'; readonly format: 'int32' | 'int64' }
  | { readonly kind: 'boolean' }
  /** `metav1.Time` (seconds) or `metav1.MicroTime` (microseconds); zero encodes as null. */
  | { readonly kind: 'time'; readonly precision: 'seconds' | 'micros' }
  | { readonly kind: 'object'; readonly schema: () => ObjectSchema }
  | { readonly kind: 'map'; readonly values: FieldType }
  | { readonly kind: 'array'; readonly items: FieldType }
  /** Free-form JSON (`fieldsV1`). */
  | { readonly kind: 'any' };

/** One field of an object (build one with {@link field}). */
export interface FieldSchema {
  /** The JSON name. */
  readonly name: string;
  readonly type: FieldType;
  readonly emit: Emit;
  /** The OpenAPI description. */
  readonly description: string;
  /**
   * Listed in the OpenAPI schema's `required`; enforced (`Required value`) in kinds whose
   * schema is {@link ObjectSchema.structural}.
   */
  readonly required?: boolean;
  /** The Go field name, for decode error texts (`Go struct field Event.count`). */
  readonly goName?: string;
}

/** An object type, named like its OpenAPI definition (`io.k8s.api.events.v1.Event`). */
export interface ObjectSchema {
  readonly id: string;
  /** The Go type name (`Event`), used in decode error texts. */
  readonly goType: string;
  readonly description: string;
  readonly fields: readonly FieldSchema[];
  /** Group/version/kind for top-level kinds (the `x-kubernetes-group-version-kind` extension). */
  readonly gvk?: { readonly group: string; readonly version: string; readonly kind: string };
  /**
   * On a top-level kind: objects are also validated against the schema's `required` fields and
   * string `enum`s, as kube-apiserver validates a custom resource against its structural schema
   * (`spec.color: Required value`, `spec.color: Unsupported value: "x": supported values: "a",
   * "b"`), in every object under it but the root's `metadata` (which the strategy validates, as
   * `ValidateObjectMeta` does for custom resources). `@kevents/apiserver`'s `defineResource`
   * adds it to the strategy's validation: a violation is a 422 Invalid, after the checks that
   * come first (decoding, NotFound, uid and resourceVersion conflicts). Built-in kinds (Events,
   * Leases) leave it unset: Go's decoder and validation of a built-in type enforce neither.
   */
  readonly structural?: boolean;
}

/**
 * Builds a field (the schema kit: `field`, the type helpers below and {@link typeMetaFields},
 * `kindSchema` and `kindListSchema` describe a new kind without field literals).
 *
 * @param name - the JSON name (`holderIdentity`)
 * @param type - the value's type: {@link str}, {@link int32}, {@link obj}, {@link arrayOf}, ...
 * @param emit - how a zero value is written, as Go's `omitempty` would ({@link Emit})
 * @param description - the OpenAPI description
 * @param extra - `required` (listed as required in OpenAPI; enforced when the kind is
 *   `structural`) and `goName` (the Go field name in decode errors, when not the JSON name
 *   capitalized)
 * @example
 * ```ts
 * field('color', enumOf(['red', 'green']), 'omitempty', 'color of the widget.', { required: true })
 * ```
 */
export function field(
  name: string,
  type: FieldType,
  emit: Emit,
  description: string,
  extra: { required?: boolean; goName?: string } = {},
): FieldSchema {
  return { name, type, emit, description, ...extra };
}

/** A string; `format` is OpenAPI's (`date-time`, `byte`, ...). */
export const str = (format?: string): FieldType => (format ? { kind: 'string', format } : { kind: 'string' });
/**
 * A string that must be one of `values`: OpenAPI's `enum`, enforced when the kind is
 * `structural` (`Unsupported value: "x": supported values: "a", "b"`).
 */
export const enumOf = (values: readonly string[]): FieldType => ({ kind: 'string', enum: values });
/** A Go `int32` (a larger number or a fraction is a decode error). */
export const int32: FieldType = { kind: 'integer', format: 'int32' };
/** A Go `int64`. */
export const int64: FieldType = { kind: 'integer', format: 'int64' };
/** A Go `bool`. */
export const bool: FieldType = { kind: 'boolean' };
/** A `metav1.Time` (RFC 3339, seconds). */
export const time: FieldType = { kind: 'time', precision: 'seconds' };
/** A `metav1.MicroTime` (RFC 3339 with six fractional digits). */
export const microTime: FieldType = { kind: 'time', precision: 'micros' };
/** A nested object of another schema (a function, so schemas may refer to each other). */
export const obj = (schema: () => ObjectSchema): FieldType => ({ kind: 'object', schema });
/** A `map[string]V`. */
export const mapOf = (values: FieldType): FieldType => ({ kind: 'map', values });
/** A `[]T`. */
export const arrayOf = (items: FieldType): FieldType => ({ kind: 'array', items });
/** Free-form JSON (`fieldsV1`, `runtime.RawExtension`). */
export const anyJSON: FieldType = { kind: 'any' };
