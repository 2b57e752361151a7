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

/** One field of an object. */
export interface FieldSchema {
  readonly name: string;
  readonly type: FieldType;
  readonly emit: Emit;
  readonly description: string;
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
}

/** Builds a field. */
export function field(
  name: string,
  type: FieldType,
  emit: Emit,
  description: string,
  extra: { required?: boolean; goName?: string } = {},
): FieldSchema {
  return { name, type, emit, description, ...extra };
}

export const str = (format?: string): FieldType => (format ? { kind: 'string', format } : { kind: 'string' });
export const int32: FieldType = { kind: 'integer', format: 'int32' };
export const int64: FieldType = { kind: 'integer', format: 'int64' };
export const bool: FieldType = { kind: 'boolean' };
export const time: FieldType = { kind: 'time', precision: 'seconds' };
export const microTime: FieldType = { kind: 'time', precision: 'micros' };
export const obj = (schema: () => ObjectSchema): FieldType => ({ kind: 'object', schema });
export const mapOf = (values: FieldType): FieldType => ({ kind: 'map', values });
export const arrayOf = (items: FieldType): FieldType => ({ kind: 'array', items });
export const anyJSON: FieldType = { kind: 'any' };
