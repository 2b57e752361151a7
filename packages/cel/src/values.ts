import { Optional } from '@marcbachmann/cel-js';

/**
 * Turns decoded JSON into CEL input the way Kubernetes' unstructured data does: integral numbers
 * become int64 (`bigint`), other numbers stay double. Objects and arrays are copied.
 */
export function toCelValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCelValue);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCelValue(v);
    return out;
  }
  return value;
}

/**
 * Turns a CEL result back into plain JSON data: `bigint` becomes a number (or a decimal string
 * when it does not fit a double exactly), Maps become objects, present optionals their value.
 */
export function fromCelValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(fromCelValue);
  if (value instanceof Optional) return value.hasValue() ? fromCelValue(value.value()) : null;
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = fromCelValue(v);
    return out;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && value.constructor === Object) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromCelValue(v);
    return out;
  }
  return value;
}

/** The CEL type name of a runtime value, in cel-go notation (`string`, `int`, `list`, ...). */
export function celTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null_type';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof Uint8Array) return 'bytes';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Optional) return 'optional_type';
  if (typeof value === 'object' && value.constructor && value.constructor.name === 'UnsignedInt') return 'uint';
  return 'map';
}
