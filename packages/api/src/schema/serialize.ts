import type { FieldType, ObjectSchema } from './types.js';

type Write = (v: unknown) => string;

const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);

const sortedKeys = (m: object): string[] => Object.keys(m).sort();

function compileType(t: FieldType): Write {
  switch (t.kind) {
    case 'string':
      return (v) => JSON.stringify(v ?? '');
    case 'integer':
      return (v) => String(v ?? 0);
    case 'boolean':
      return (v) => (v ? 'true' : 'false');
    case 'time':
      return (v) => (v ? JSON.stringify(v) : 'null');
    case 'object': {
      let w: Write | undefined;
      return (v) => (w ??= compileSchema(t.schema()))(v ?? {});
    }
    case 'map': {
      const values = compileType(t.values);
      return (v) => {
        if (v === undefined || v === null) return '{}';
        const m = v as Record<string, unknown>;
        let out = '{';
        for (const k of sortedKeys(m)) {
          if (m[k] === undefined) continue;
          out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${values(m[k])}`;
        }
        return `${out}}`;
      };
    }
    case 'array': {
      if (t.items.kind !== 'object') return (v) => (v === undefined || v === null ? '[]' : JSON.stringify(v));
      const items = compileType(t.items);
      return (v) => (v === undefined || v === null ? '[]' : `[${(v as unknown[]).map(items).join(',')}]`);
    }
    default:
      return (v) => JSON.stringify(v ?? null);
  }
}

const compiled = new WeakMap<ObjectSchema, Write>();

function compileSchema(schema: ObjectSchema): Write {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const fields = schema.fields.map((f) => ({
    name: f.name,
    prefix: `${JSON.stringify(f.name)}:`,
    omit: f.emit === 'omitempty',
    omitNil: f.emit === 'omitnil',
    isMap: f.type.kind === 'map',
    write: compileType(f.type),
  }));
  const write: Write = (v) => {
    const o = v as Record<string, unknown>;
    let out = '{';
    for (const f of fields) {
      const x = o[f.name];
      if (f.omit && (isZero(x) || (f.isMap && Object.keys(x as object).length === 0))) continue;
      if (f.omitNil && (x === undefined || x === null)) continue;
      out += `${out.length > 1 ? ',' : ''}${f.prefix}${f.write(x)}`;
    }
    return `${out}}`;
  };
  compiled.set(schema, write);
  return write;
}

/**
 * Serializes an object to JSON text in one pass, exactly as `JSON.stringify(encodeObject(obj,
 * schema))` would — Go's field order, omitempty and zero-value rules, map keys sorted as Go sorts
 * them — without building the intermediate object. Used on the hot paths (responses, list items,
 * watch lines).
 */
export function serializeObject(obj: object, schema: ObjectSchema): string {
  return compileSchema(schema)(obj);
}
