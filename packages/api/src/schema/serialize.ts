import type { FieldSchema, FieldType, ObjectSchema } from './types.js';

type Write = (v: unknown) => string;

const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);

const isEmptyMap = (v: unknown): boolean => Object.keys(v as object).length === 0;

/** A character JSON.stringify escapes in a string (lone surrogates too; any surrogate here). */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const escaped = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(s)` for a string: the string in quotes when it holds nothing to escape (most
 * strings of an object: names, kinds, times), which skips a call into the runtime.
 */
export const quoteJSON = (s: string): string => (escaped.test(s) ? JSON.stringify(s) : `"${s}"`);

/** `JSON.stringify(v)` for a value of a string field: quoted fast when it is a string. */
const stringValue = (v: unknown): string => (typeof v === 'string' ? quoteJSON(v) : JSON.stringify(v ?? ''));

const writeMap = (v: unknown, values: Write): string => {
  if (v === undefined || v === null) return '{}';
  const m = v as Record<string, unknown>;
  let out = '{';
  for (const k of Object.keys(m).sort()) {
    if (m[k] === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${quoteJSON(k)}:${values(m[k])}`;
  }
  return `${out}}`;
};

/**
 * JSON texts of deeply frozen plain data (objects and arrays with their own data properties
 * only, all frozen, no `toJSON`), which cannot change: writers that share one such value between
 * objects (kevents' apiserver shares each create shape's `fieldsV1`) have it written once.
 * False for frozen values found not to qualify.
 */
const frozenTexts = new WeakMap<object, string | false>();

function frozenData(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (Array.isArray(v) ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const d of Object.values(Object.getOwnPropertyDescriptors(v))) {
    if (!('value' in d)) return false;
    const x: unknown = d.value;
    if (typeof x === 'object' && x !== null && !frozenData(x)) return false;
  }
  return true;
}

/** `JSON.stringify(v ?? null)` for free-form JSON (`fieldsV1`), written once for deeply frozen data. */
const anyJSON = (v: unknown): string => {
  if (typeof v !== 'object' || v === null || !Object.isFrozen(v)) return JSON.stringify(v ?? null);
  let text = frozenTexts.get(v);
  if (text === undefined) {
    text = frozenData(v) ? JSON.stringify(v) : false;
    frozenTexts.set(v, text);
  }
  return text === false ? JSON.stringify(v) : text;
};

const writeArray = (v: unknown, items: Write): string =>
  v === undefined || v === null ? '[]' : `[${(v as unknown[]).map(items).join(',')}]`;

/** The helpers generated code calls, passed in by name. */
const helpers = { isZero, isEmptyMap, writeMap, writeArray, stringValue, anyJSON };

/** A writer for a value of `t` (maps and arrays of objects through the helpers). */
function compileType(t: FieldType): Write {
  switch (t.kind) {
    case 'string':
      return stringValue;
    case 'integer':
      return (v) => JSON.stringify(v ?? 0);
    case 'boolean':
      return (v) => JSON.stringify(v ?? false);
    case 'time':
      return (v) => (v ? stringValue(v) : 'null');
    case 'object': {
      const w = compileSchema(t.schema());
      return (v) => w(v ?? {});
    }
    case 'map': {
      const values = compileType(t.values);
      return (v) => writeMap(v, values);
    }
    case 'array': {
      if (t.items.kind !== 'object') return (v) => (v === undefined || v === null ? '[]' : JSON.stringify(v));
      const items = compileType(t.items);
      return (v) => writeArray(v, items);
    }
    default:
      return anyJSON;
  }
}

/**
 * The JavaScript expression that writes the value in `x` of a field of type `t`; writers it needs
 * (nested objects, map values, array items) are added to `deps` and named `d[i]`.
 */
function valueExpression(t: FieldType, deps: Write[]): string {
  const dep = (w: Write): string => `d[${deps.push(w) - 1}]`;
  switch (t.kind) {
    case 'string':
      return `h.stringValue(x)`;
    case 'integer':
      return 'JSON.stringify(x ?? 0)';
    case 'boolean':
      return 'JSON.stringify(x ?? false)';
    case 'time':
      return `(x ? h.stringValue(x) : 'null')`;
    case 'object':
      return `${dep(compileSchema(t.schema()))}(x ?? {})`;
    case 'map':
      return `h.writeMap(x, ${dep(compileType(t.values))})`;
    case 'array':
      if (t.items.kind !== 'object') return `(x === undefined || x === null ? '[]' : JSON.stringify(x))`;
      return `h.writeArray(x, ${dep(compileType(t.items))})`;
    default:
      return 'h.anyJSON(x)';
  }
}

/** The condition under which a field is left out (`false` for fields always written). */
function omitCondition(f: FieldSchema): string {
  if (f.emit === 'omitempty') return f.type.kind === 'map' ? '(h.isZero(x) || h.isEmptyMap(x))' : 'h.isZero(x)';
  if (f.emit === 'omitnil') return '(x === undefined || x === null)';
  return 'false';
}

/**
 * The body of a schema's writer: one statement per field with the member name as a constant and
 * a property read by name, so each read site sees one object shape (where a loop over the fields
 * reads every property through one megamorphic site). A comma goes before a member once one was
 * written: known when the code is generated after an always-written field, tracked in `c` before.
 */
function writerSource(schema: ObjectSchema, deps: Write[]): string {
  const lines = [`let s = '{', x, c = false;`];
  let written = false;
  for (const f of schema.fields) {
    const name = JSON.stringify(f.name);
    const member = JSON.stringify(`${JSON.stringify(f.name)}:`);
    const withComma = JSON.stringify(`,${JSON.stringify(f.name)}:`);
    const omit = omitCondition(f);
    const prefix = written ? withComma : `(c ? ${withComma} : ${member})`;
    const write = `s += ${prefix} + ${valueExpression(f.type, deps)};${written ? '' : ' c = true;'}`;
    lines.push(`x = o[${name}];`);
    lines.push(omit === 'false' ? write : `if (!${omit}) { ${write} }`);
    if (omit === 'false') written = true;
  }
  lines.push(`return s + '}';`);
  return lines.join('\n');
}

const compiled = new WeakMap<ObjectSchema, Write>();

/**
 * The writer of a schema, generated once per schema. A schema reached again while its writer is
 * being generated (a recursive type) gets a forwarder to the writer being built.
 */
function compileSchema(schema: ObjectSchema): Write {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const pending: { write?: Write } = {};
  compiled.set(schema, (v) => pending.write!(v));
  const deps: Write[] = [];
  const source = writerSource(schema, deps);
  // The source holds only this module's code and JSON-quoted member names of our own schemas.
  const make = new Function('d', 'h', `return function write(o) {\n${source}\n};`) as (
    d: readonly Write[],
    h: typeof helpers,
  ) => Write;
  const write = make(deps, helpers);
  pending.write = write;
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
