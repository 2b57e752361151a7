import type { FieldType, ObjectSchema } from './types.js';
import { parseMicroTime } from '../meta/micro-time.js';
import { normalizeTime } from '../meta/time.js';

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

/** Sets a member as plain data: `__proto__` becomes an own key, never the prototype. */
const setOwn = (o: Record<string, unknown>, k: string, v: unknown): void => {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
};

const int32Range = (n: number): boolean => n >= -2147483648 && n <= 2147483647;

class Decoder {
  readonly unknownFields: string[] = [];
  readonly errors: string[] = [];
  readonly #root: string;
  /** Where the decoder is: field names (`true`) and list indexes or map keys (`false`). */
  readonly #keys: string[] = [];
  readonly #isField: boolean[] = [];

  constructor(root: string) {
    this.#root = root;
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

  object(v: Record<string, unknown>, schema: ObjectSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const fields = fieldIndex(schema);
    for (const key of Object.keys(v)) {
      const f = fields.get(key);
      if (!f) {
        const p = this.#path();
        this.unknownFields.push(p ? `${p}.${key}` : key);
        continue;
      }
      const x = v[key];
      let d: unknown;
      if (f.type.kind === 'string' && typeof x === 'string') d = x;
      else {
        this.#keys.push(key);
        this.#isField.push(true);
        d = this.value(x, f.type);
        this.#keys.pop();
        this.#isField.pop();
      }
      if (d !== undefined) out[key] = d;
    }
    return out;
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

/**
 * Decodes parsed JSON against a schema the way Kubernetes' strict JSON decoder does: values of
 * the wrong type are errors, unknown fields are collected (not dropped silently), nulls read
 * as absent, and times are normalized to their canonical form.
 */
export function decodeObject<T>(value: unknown, schema: ObjectSchema): DecodeResult<T> {
  const d = new Decoder(schema.goType);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    d.mismatch(value, { kind: 'object', schema: () => schema });
    return { value: {} as T, unknownFields: d.unknownFields, errors: d.errors };
  }
  const out = d.object(value as Record<string, unknown>, schema);
  return { value: out as T, unknownFields: d.unknownFields, errors: d.errors };
}
