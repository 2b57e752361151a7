import type { FieldType, ObjectSchema } from './types.js';
import { parseMicroTime } from '../meta/micro-time.js';
import { normalizeTime } from '../meta/time.js';
import { setOwn } from '../json/own.js';

/** The outcome of a strict decode: the typed object, unknown fields and type errors. */
export interface DecodeResult<T> {
  readonly value: T;
  /** Paths of fields the schema does not know (`metadata.foo`, `regarding.bar`). */
  readonly unknownFields: string[];
  /** Type errors, worded like Go's encoding/json (`json: cannot unmarshal ...`). */
  readonly errors: string[];
}

const jsonTypeName = (v: unknown): string => {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return `number ${String(v)}`;
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
};

const goTypeName = (t: FieldType, schemaName?: string): string => {
  switch (t.kind) {
    case 'string':
      return 'string';
    case 'integer':
      return t.format;
    case 'boolean':
      return 'bool';
    case 'time':
      return t.precision === 'micros' ? 'v1.MicroTime' : 'v1.Time';
    case 'object':
      return schemaName ?? t.schema().goType;
    case 'map':
      return `map[string]${goTypeName(t.values)}`;
    case 'array':
      return `[]${goTypeName(t.items)}`;
    default:
      return 'interface {}';
  }
};

const int32Range = (n: number): boolean => n >= -2147483648 && n <= 2147483647;

class Decoder {
  readonly unknownFields: string[] = [];
  readonly errors: string[] = [];
  readonly #root: string;
  /** Where the decoder is: field names (`true`) and list indexes or map keys (`false`). */
  readonly #keys: string[] = [];
  readonly #isField: boolean[] = [];
  readonly #interpreted: boolean;

  constructor(root: string, interpreted = false) {
    this.#root = root;
    this.#interpreted = interpreted;
  }

  /** The structural path of the current position (`metadata.labels[a]`), built only when needed. */
  #path(): string {
    let out = '';
    for (let i = 0; i < this.#keys.length; i++) {
      out += this.#isField[i] ? (out ? `.${this.#keys[i]}` : this.#keys[i]) : `[${this.#keys[i]}]`;
    }
    return out;
  }

  /** The Go struct-field path of the current position (`involvedObject.kind`). */
  #goPath(): string {
    return this.#keys.filter((_, i) => this.#isField[i]).join('.');
  }

  mismatch(v: unknown, t: FieldType): undefined {
    const goPath = this.#goPath();
    const where = goPath ? `Go struct field ${this.#root}.${goPath}` : 'Go value';
    this.errors.push(
      `json: cannot unmarshal ${jsonTypeName(v).replace(/^number .*/, (m) => (t.kind === 'integer' ? m : 'number'))} into ${where} of type ${goTypeName(t)}`,
    );
    return undefined;
  }

  #at<R>(key: string, field: boolean, fn: () => R): R {
    this.#keys.push(key);
    this.#isField.push(field);
    try {
      return fn();
    } finally {
      this.#keys.pop();
      this.#isField.pop();
    }
  }

  value(v: unknown, t: FieldType): unknown {
    if (v === null || v === undefined) return undefined;
    switch (t.kind) {
      case 'string':
        return typeof v === 'string' ? v : this.mismatch(v, t);
      case 'boolean':
        return typeof v === 'boolean' ? v : this.mismatch(v, t);
      case 'integer':
        if (typeof v !== 'number' || !Number.isInteger(v) || (t.format === 'int32' && !int32Range(v))) {
          return this.mismatch(v, t);
        }
        return v;
      case 'time': {
        if (typeof v !== 'string') return this.mismatch(v, t);
        if (v === '') return undefined;
        if (t.precision === 'micros') {
          const parsed = parseMicroTime(v);
          if (parsed.error !== undefined) this.errors.push(parsed.error);
          return parsed.value;
        }
        const n = normalizeTime(v);
        if (n === undefined) {
          this.errors.push(
            `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`,
          );
        }
        return n;
      }
      case 'object':
        if (typeof v !== 'object' || Array.isArray(v)) return this.mismatch(v, t);
        return this.object(v as Record<string, unknown>, t.schema());
      case 'map': {
        if (typeof v !== 'object' || Array.isArray(v)) return this.mismatch(v, t);
        const out: Record<string, unknown> = {};
        const m = v as Record<string, unknown>;
        for (const k of Object.keys(m)) {
          const item = m[k];
          let d: unknown;
          if (item === null) d = t.values.kind === 'string' ? '' : undefined;
          else if (t.values.kind === 'string' && typeof item === 'string') d = item;
          else d = this.#at(k, false, () => this.value(item, t.values));
          if (d !== undefined) setOwn(out, k, d);
        }
        return out;
      }
      case 'array': {
        if (!Array.isArray(v)) return this.mismatch(v, t);
        return v.map((item, i) => this.#at(String(i), false, () => this.value(item, t.items)) ?? zeroOf(t.items));
      }
      default:
        return v;
    }
  }

  /** Decodes an object of `schema` through the code generated for it (see {@link compileObject}). */
  object(v: Record<string, unknown>, schema: ObjectSchema): Record<string, unknown> {
    return this.#interpreted ? this.objectInterpreted(v, schema) : compileObject(schema)(v, this);
  }

  /**
   * The same decoding as the generated code, by a loop over the schema's fields: the reference
   * the generated decoders are tested against (`decodeObjectInterpreted`).
   */
  objectInterpreted(v: Record<string, unknown>, schema: ObjectSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const fields = fieldIndex(schema);
    for (const key of Object.keys(v)) {
      const f = fields.get(key);
      if (!f) {
        this.unknown(key);
        continue;
      }
      const x = v[key];
      const d = f.type.kind === 'string' && typeof x === 'string' ? x : this.field(key, x, f.type);
      if (d !== undefined) out[key] = d;
    }
    return out;
  }

  /** Records a member the schema does not know, with the path of the object it is in. */
  unknown(key: string): void {
    const p = this.#path();
    this.unknownFields.push(p ? `${p}.${key}` : key);
  }

  /** Decodes the value of field `key` of the current object. */
  field(key: string, x: unknown, t: FieldType): unknown {
    this.#keys.push(key);
    this.#isField.push(true);
    const d = this.value(x, t);
    this.#keys.pop();
    this.#isField.pop();
    return d;
  }
}

const zeroOf = (t: FieldType): unknown => {
  switch (t.kind) {
    case 'string':
      return '';
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'object':
    case 'map':
      return {};
    case 'array':
      return [];
    default:
      return null;
  }
};

const indexes = new WeakMap<ObjectSchema, Map<string, ObjectSchema['fields'][number]>>();
const fieldIndex = (schema: ObjectSchema): Map<string, ObjectSchema['fields'][number]> => {
  let m = indexes.get(schema);
  if (!m) {
    m = new Map(schema.fields.map((f) => [f.name, f]));
    indexes.set(schema, m);
  }
  return m;
};

type ObjectDecoder = (v: Record<string, unknown>, d: Decoder) => Record<string, unknown>;

/** The test that takes a value of `t` as it is, without the decoder (`undefined`: always call it). */
function fastPath(t: FieldType): string | undefined {
  switch (t.kind) {
    case 'string':
      return `typeof x === 'string'`;
    case 'boolean':
      return `typeof x === 'boolean'`;
    case 'integer':
      return t.format === 'int32'
        ? `typeof x === 'number' && Number.isInteger(x) && x >= -2147483648 && x <= 2147483647`
        : `typeof x === 'number' && Number.isInteger(x)`;
    default:
      return undefined;
  }
}

/**
 * The body of a schema's decoder: the members in input order (unknown fields and errors are
 * reported in that order, and the output keeps it), one `case` per field with its name as a
 * constant, so that no lookup in a field map and no property store by a computed key is left.
 */
function decoderSource(schema: ObjectSchema, types: FieldType[]): string {
  const lines = [
    'const out = {};',
    'const keys = Object.keys(v);',
    'for (let i = 0; i < keys.length; i++) {',
    'const key = keys[i];',
    'let x;',
    'switch (key) {',
  ];
  for (const f of schema.fields) {
    const name = JSON.stringify(f.name);
    const type = `t[${types.push(f.type) - 1}]`;
    const fast = fastPath(f.type);
    const slow = `{ const r = d.field(${name}, x, ${type}); if (r !== undefined) out[${name}] = r; }`;
    lines.push(`case ${name}:`, `x = v[${name}];`);
    lines.push(fast === undefined ? slow : `if (${fast}) out[${name}] = x; else ${slow}`);
    lines.push('break;');
  }
  lines.push('default:', 'd.unknown(key);', '}', '}', 'return out;');
  return lines.join('\n');
}

const decoders = new WeakMap<ObjectSchema, ObjectDecoder>();

/**
 * The decoder of a schema's objects, generated once per schema (as the serializer is). Nested
 * objects, maps, arrays, times and values of the wrong type go through the {@link Decoder}, which
 * keeps the path for messages.
 */
function compileObject(schema: ObjectSchema): ObjectDecoder {
  const cached = decoders.get(schema);
  if (cached) return cached;
  const types: FieldType[] = [];
  const source = decoderSource(schema, types);
  // The source holds only this module's code and JSON-quoted field names of our own schemas.
  const make = new Function('t', `return function decode(v, d) {\n${source}\n};`) as (
    t: readonly FieldType[],
  ) => ObjectDecoder;
  const decode = make(types);
  decoders.set(schema, decode);
  return decode;
}

function decodeWith<T>(d: Decoder, value: unknown, schema: ObjectSchema): DecodeResult<T> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    d.mismatch(value, { kind: 'object', schema: () => schema });
    return { value: {} as T, unknownFields: d.unknownFields, errors: d.errors };
  }
  const out = d.object(value as Record<string, unknown>, schema);
  return { value: out as T, unknownFields: d.unknownFields, errors: d.errors };
}

/**
 * Decodes parsed JSON against a schema the way Kubernetes' strict JSON decoder does: values of
 * the wrong type are errors, unknown fields are collected (not dropped silently), nulls read
 * as absent, and times are normalized to their canonical form.
 */
export function decodeObject<T>(value: unknown, schema: ObjectSchema): DecodeResult<T> {
  return decodeWith<T>(new Decoder(schema.goType), value, schema);
}

/**
 * {@link decodeObject} without generated code: a loop over each schema's fields. The same
 * result, slower; kept as the reference for the generated decoders' tests.
 */
export function decodeObjectInterpreted<T>(value: unknown, schema: ObjectSchema): DecodeResult<T> {
  return decodeWith<T>(new Decoder(schema.goType, true), value, schema);
}
