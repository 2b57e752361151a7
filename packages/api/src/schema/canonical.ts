import { serializeObject } from './serialize.js';
import type { FieldSchema, FieldType, ObjectSchema } from './types.js';

/** Whether a value is to be taken as a plain data object (what `JSON.parse` and object literals make). */
const plain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);

/** A value `JSON.stringify` writes as the serializer does (it would write a function or symbol as nothing). */
const jsonData = (v: unknown): boolean => typeof v !== 'function' && typeof v !== 'symbol' && v !== undefined;

type Check = (v: unknown) => boolean;
type Canon = (o: Record<string, unknown>) => Record<string, unknown> | undefined;

/**
 * Whether a map's keys are in the order the serializer sorts them (by UTF-16 code units, as
 * `Array.prototype.sort` and Go do) and every value is canonical; its keys as `Object.keys`
 * enumerates them (array indices first, in numeric order), so a map whose index-like keys a
 * string sort would order otherwise is not.
 */
function sortedMap(m: Record<string, unknown>, value: Check, nonEmpty: boolean): boolean {
  const keys = Object.keys(m);
  if (nonEmpty && keys.length === 0) return false;
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1]! < keys[i]!)) return false;
    if (!value(m[keys[i]!])) return false;
  }
  return true;
}

/** Whether every element of an array is present and canonical. */
function everyItem(a: readonly unknown[], item: Check): boolean {
  for (let i = 0; i < a.length; i++) if (!item(a[i])) return false;
  return true;
}

/** An array of objects made canonical: itself when every element is, undefined when one cannot be. */
function canonItems(a: readonly unknown[], item: Canon): unknown[] | undefined {
  let out: unknown[] | undefined;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    const c = plain(v) ? item(v) : undefined;
    if (c === undefined) return undefined;
    if (c !== v) (out ??= a.slice(0, i)).push(c);
    else out?.push(c);
  }
  return out ?? (a as unknown[]);
}

const emptyObject: Readonly<Record<string, never>> = Object.freeze({});
const emptyArray: readonly never[] = Object.freeze([]);

/** The helpers generated code calls, passed in by name. */
const helpers = { plain, isZero, jsonData, sortedMap, everyItem, canonItems, emptyObject, emptyArray };

interface Compiled {
  /** Whether an object is canonical (`JSON.stringify` of it is the serializer's text). */
  readonly check: Check;
  /** A canonical object of the same text, or undefined when one is not made here. */
  readonly canon: Canon;
  /** The canonical object of `{}` (its `always` fields at their zero values), made when first asked for. */
  readonly zero: () => Record<string, unknown> | undefined;
}

const compiled = new WeakMap<ObjectSchema, Compiled>();

/** A check of one value of type `t` written where the serializer writes it whatever it is (map values, array items). */
function valueCheck(t: FieldType): Check {
  switch (t.kind) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'integer':
      return (v) => typeof v === 'number';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'time':
      return (v) => v === null || (typeof v === 'string' && v !== '');
    case 'object': {
      const sub = compile(t.schema());
      return (v) => plain(v) && sub.check(v);
    }
    case 'map': {
      const values = valueCheck(t.values);
      return (v) => plain(v) && sortedMap(v, values, false);
    }
    case 'array': {
      if (t.items.kind !== 'object') return (v) => Array.isArray(v);
      const items = valueCheck(t.items);
      return (v) => Array.isArray(v) && everyItem(v, items);
    }
    default:
      return (v) => jsonData(v);
  }
}

const valueChecks = new WeakMap<FieldType, Check>();

/**
 * Whether `JSON.stringify(v)` writes a value of type `t` as the serializer does where it writes
 * the value whatever it is (a map's value, an array's item): what {@link canonicalObject} leaves
 * as it is there.
 */
export function isCanonicalValue(v: unknown, t: FieldType): boolean {
  let check = valueChecks.get(t);
  if (check === undefined) valueChecks.set(t, (check = valueCheck(t)));
  return check(v);
}

/**
 * The condition under which a present value (not undefined) of a field is written by
 * `JSON.stringify` as the serializer writes it; `dep` names a function the code needs.
 */
function presentCondition(f: FieldSchema, dep: (fn: unknown) => string): string {
  const t = f.type;
  const omitempty = f.emit === 'omitempty';
  switch (t.kind) {
    case 'string':
      return omitempty ? `(typeof x === 'string' && x !== '')` : `typeof x === 'string'`;
    case 'integer':
      return omitempty ? `(typeof x === 'number' && x !== 0)` : `typeof x === 'number'`;
    case 'boolean':
      return omitempty ? `x === true` : `typeof x === 'boolean'`;
    case 'time':
      return f.emit === 'always'
        ? `(x === null || (typeof x === 'string' && x !== ''))`
        : `(typeof x === 'string' && x !== '')`;
    case 'object':
      return `(h.plain(x) && ${dep(compile(t.schema()).check)}(x))`;
    case 'map':
      return `(h.plain(x) && h.sortedMap(x, ${dep(valueCheck(t.values))}, ${String(omitempty)}))`;
    case 'array': {
      const length = omitempty ? ' && x.length > 0' : '';
      if (t.items.kind !== 'object') return `(Array.isArray(x)${length})`;
      return `(Array.isArray(x)${length} && h.everyItem(x, ${dep(valueCheck(t.items))}))`;
    }
    default:
      if (omitempty) return `(!h.isZero(x) && h.jsonData(x))`;
      return f.emit === 'omitnil' ? `(x !== null && h.jsonData(x))` : `h.jsonData(x)`;
  }
}

/**
 * The check's source: every present field in schema order (an own member the schema does not
 * know, or one out of order, fails it), each with a value `JSON.stringify` writes as the
 * serializer does; an `always` field must be present.
 */
function checkSource(schema: ObjectSchema, deps: unknown[]): string {
  const dep = (fn: unknown): string => `d[${deps.push(fn) - 1}]`;
  const lines = [`const k = Object.keys(o); let i = 0, x;`];
  for (const f of schema.fields) {
    const name = JSON.stringify(f.name);
    lines.push(`x = o[${name}];`);
    lines.push(
      `if (x === undefined) { ${f.emit === 'always' ? 'return false;' : ''} }` +
        ` else { if (k[i] !== ${name} || !(${presentCondition(f, dep)})) return false; i++; }`,
    );
  }
  lines.push('return i === k.length;');
  return lines.join('\n');
}

/** The condition under which the serializer leaves a field out. */
function omitted(f: FieldSchema): string {
  if (f.emit === 'omitempty')
    return f.type.kind === 'map' ? `(h.isZero(x) || (h.plain(x) && Object.keys(x).length === 0))` : 'h.isZero(x)';
  if (f.emit === 'omitnil') return '(x === undefined || x === null)';
  return 'false';
}

/**
 * The expression of the canonical value of a written field from `x` (absent or null when the
 * field is `always`): undefined where this does not make one (stray types, unsorted maps).
 */
function canonExpression(t: FieldType, dep: (fn: unknown) => string): string {
  switch (t.kind) {
    case 'string':
      return `(typeof x === 'string' ? x : x == null ? '' : undefined)`;
    case 'integer':
      return `(typeof x === 'number' ? x : x == null ? 0 : undefined)`;
    case 'boolean':
      return `(typeof x === 'boolean' ? x : x == null ? false : undefined)`;
    case 'time':
      return `(typeof x === 'string' && x !== '' ? x : !x ? null : undefined)`;
    case 'object': {
      const sub = compile(t.schema());
      return `(x == null ? ${dep(sub.zero)}() : h.plain(x) ? ${dep(sub.canon)}(x) : undefined)`;
    }
    case 'map':
      return `(x == null ? h.emptyObject : h.plain(x) && h.sortedMap(x, ${dep(valueCheck(t.values))}, false) ? x : undefined)`;
    case 'array':
      if (t.items.kind !== 'object') return `(x == null ? h.emptyArray : Array.isArray(x) ? x : undefined)`;
      return `(x == null ? h.emptyArray : Array.isArray(x) ? h.canonItems(x, ${dep(compile(t.items.schema()).canon)}) : undefined)`;
    default:
      return `(x === undefined ? null : h.jsonData(x) ? x : undefined)`;
  }
}

/** The source of a new object of the schema's written fields in order, each canonical. */
function rebuildSource(schema: ObjectSchema, deps: unknown[]): string {
  const dep = (fn: unknown): string => `d[${deps.push(fn) - 1}]`;
  const lines = [`const out = {}; let x, y;`];
  for (const f of schema.fields) {
    const name = JSON.stringify(f.name);
    lines.push(`x = o[${name}];`);
    const write = `y = ${canonExpression(f.type, dep)}; if (y === undefined) return undefined; out[${name}] = y;`;
    const omit = omitted(f);
    lines.push(omit === 'false' ? write : `if (!${omit}) { ${write} }`);
  }
  lines.push('return out;');
  return lines.join('\n');
}

/**
 * The check and canonicalizer of a schema, generated once per schema (one property read by name
 * per field, as the serializer's writers do). A schema reached again while its code is being
 * generated (a recursive type) gets forwarders to the functions being built.
 */
function compile(schema: ObjectSchema): Compiled {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const built: { check?: Check; canon?: Canon } = {};
  let zero: Record<string, unknown> | undefined | null = null;
  const forward: Compiled = {
    check: (v) => built.check!(v),
    canon: (o) => built.canon!(o),
    zero: () => (zero === null ? (zero = Object.freeze(built.canon!({}))) : zero),
  };
  compiled.set(schema, forward);
  const checkDeps: unknown[] = [];
  const rebuildDeps: unknown[] = [];
  const check = checkSource(schema, checkDeps);
  const rebuild = rebuildSource(schema, rebuildDeps);
  // The sources hold only this module's code and JSON-quoted member names of our own schemas.
  const makeCheck = new Function('d', 'h', `return function check(o) {\n${check}\n};`) as (
    d: readonly unknown[],
    h: typeof helpers,
  ) => (o: Record<string, unknown>) => boolean;
  const makeRebuild = new Function('d', 'h', `return function rebuild(o) {\n${rebuild}\n};`) as (
    d: readonly unknown[],
    h: typeof helpers,
  ) => Canon;
  const checkObject = makeCheck(checkDeps, helpers);
  const rebuildObject = makeRebuild(rebuildDeps, helpers);
  built.check = checkObject as Check;
  built.canon = (o) => (checkObject(o) ? o : rebuildObject(o));
  return forward;
}

/**
 * An object whose `JSON.stringify` text is `serializeObject(obj, schema)`'s: `obj` itself when it
 * already is one (its members in Go's order, none the schema does not know, no zero value of an
 * `omitempty` field, `always` fields present, map keys sorted, every value of its field's type,
 * all the way down), else a copy of the levels that are not, sharing the values that are;
 * undefined when this does not make one (a value of a stray type, a map whose keys are out of
 * order).
 */
export function canonicalObject(obj: object, schema: ObjectSchema): Record<string, unknown> | undefined {
  return plain(obj) ? compile(schema).canon(obj) : undefined;
}

/**
 * `serializeObject(obj, schema)`, by `JSON.stringify` of its {@link canonicalObject} where there
 * is one: V8 writes the whole text natively into one flat string, where the serializer builds it
 * of many concatenated pieces (a rope that is flattened, copied again, when it is written out).
 * For objects that are nearly canonical already, as those parsed from stored JSON text are.
 */
export function stringifyObject(obj: object, schema: ObjectSchema): string {
  const c = canonicalObject(obj, schema);
  return c === undefined ? serializeObject(obj, schema) : JSON.stringify(c);
}
