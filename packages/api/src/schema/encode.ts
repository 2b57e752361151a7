import type { FieldType, ObjectSchema } from './types.js';

const isZero = (v: unknown): boolean => {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return false;
};

function encodeValue(v: unknown, t: FieldType): unknown {
  switch (t.kind) {
    case 'object':
      return encodeObject((v ?? {}) as Record<string, unknown>, t.schema());
    case 'map':
      if (v === undefined || v === null) return {};
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, encodeValue((v as Record<string, unknown>)[k], t.values)]),
      );
    case 'array':
      if (v === undefined || v === null) return [];
      if (t.items.kind !== 'object') return v;
      return (v as unknown[]).map((x) => encodeValue(x, t.items));
    case 'time':
      return v || null;
    case 'string':
      return v ?? '';
    case 'integer':
      return v ?? 0;
    case 'boolean':
      return v ?? false;
    default:
      return v ?? null;
  }
}

/**
 * Encodes an object in Go's field order with Go's omitempty rules: `omitempty` fields are
 * left out when zero, `omitnil` fields (pointers to scalars) only when absent, `always` fields appear with their zero value (`""`, `{}`, or `null` for
 * times), map keys are sorted (as Go's encoding/json sorts them), and fields the schema does not
 * know are dropped.
 */
export function encodeObject(value: Record<string, unknown>, schema: ObjectSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of schema.fields) {
    const v = value[f.name];
    if (f.emit === 'omitempty') {
      if (isZero(v)) continue;
      if (f.type.kind === 'map' && Object.keys(v as object).length === 0) continue;
    } else if (f.emit === 'omitnil' && (v === undefined || v === null)) {
      continue;
    }
    out[f.name] = encodeValue(v, f.type);
  }
  return out;
}
