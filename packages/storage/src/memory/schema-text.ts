import { jsonStringEnd, serializeObject } from '@kevents/api';
import type { Emit, FieldType, ObjectSchema } from '@kevents/api';
import type { TextShape } from '../interface.js';
import { internedTemplate, internMark, writeInterned } from './interned-managed-fields.js';
import type { Template } from './interned-managed-fields.js';
import { packedKeys, uuidMark } from './packed-body.js';

/*
 * A packed body (packed-body.ts) written as the text a schema's serializer writes of its object
 * (`serializeObject` of @kevents/api: Go's field order, omitempty, maps sorted), straight from the
 * packed characters into one byte buffer: member values are copied as the packed body holds them
 * (JSON.stringify wrote them, as the serializer writes them), members are put in the schema's
 * order, zero values left out or filled in as the schema says. Where a body is not what this
 * copies exactly (a value of a stray type, an unsorted map, an escape in a member name, a
 * character past U+00FF), the writer gives up and the caller encodes the decoded object.
 */

/**
 * How one value of a field type is written: the type's kind, a map's values and an array's items,
 * an object's plan (made when first needed: schemas may refer to themselves). One shape for all
 * kinds, so that the writer's reads of it stay monomorphic.
 */
interface TypePlan {
  readonly kind: FieldType['kind'];
  readonly values: TypePlan | undefined;
  readonly items: TypePlan | undefined;
  readonly makePlan: (() => ObjectPlan) | undefined;
  plan: ObjectPlan | undefined;
}

const scalarPlan = (kind: FieldType['kind']): TypePlan => ({
  kind,
  values: undefined,
  items: undefined,
  makePlan: undefined,
  plan: undefined,
});

/** The object plan of an `object` type plan. */
const planOf = (t: TypePlan): ObjectPlan => (t.plan ??= t.makePlan!());

interface FieldPlan {
  /** `"<name>":` as bytes. */
  readonly head: Uint8Array;
  /** `,"<name>":` as bytes. */
  readonly next: Uint8Array;
  readonly emit: Emit;
  readonly type: TypePlan;
  /** ObjectMeta's `resourceVersion` in a plan of `metadata`: written from the revision, the stored one ignored. */
  readonly resourceVersion: boolean;
}

interface ObjectPlan {
  readonly schema: ObjectSchema;
  readonly fields: readonly FieldPlan[];
  /** The field each packed member-name token (by char code) is read into; -1: none. */
  readonly byToken: Int16Array;
  /** The field each other member name is read into. */
  readonly byName: ReadonlyMap<string, number>;
  /** Where each field's value starts and ends in the body being written (-1: absent); scratch. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Whether a write of this plan is under way (a recursive type reached itself: the writer gives up). */
  busy: boolean;
}

/** The compiled plan of a {@link TextShape}. */
const shapes = new WeakMap<TextShape, ObjectPlan>();
/** Plans of nested object schemas, without and with the revision's resourceVersion. */
const plans = new WeakMap<ObjectSchema, ObjectPlan>();
const metadataPlans = new WeakMap<ObjectSchema, ObjectPlan>();

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

function typePlan(t: FieldType): TypePlan {
  switch (t.kind) {
    case 'object': {
      const schema = t.schema;
      return { ...scalarPlan('object'), makePlan: () => objectPlan(schema()) };
    }
    case 'map':
      return { ...scalarPlan('map'), values: typePlan(t.values) };
    case 'array':
      return { ...scalarPlan('array'), items: typePlan(t.items) };
    default:
      return scalarPlan(t.kind);
  }
}

/** A plan whose fields are read from the members named `members` gives them (field name to member name). */
function buildPlan(
  schema: ObjectSchema,
  members: (field: string) => string | undefined,
  metadata: boolean,
  top: boolean,
): ObjectPlan {
  const fields: FieldPlan[] = [];
  const byToken = new Int16Array(32).fill(-1);
  const byName = new Map<string, number>();
  for (const f of schema.fields) {
    const member = members(f.name);
    const index = fields.length;
    const rv = metadata && f.name === 'resourceVersion';
    let type = typePlan(f.type);
    if (top && f.name === 'metadata' && f.type.kind === 'object') {
      const nested = f.type.schema;
      type = { ...scalarPlan('object'), makePlan: () => metadataPlan(nested()) };
    }
    const head = `${JSON.stringify(f.name)}:`;
    fields.push({ head: ascii(head), next: ascii(`,${head}`), emit: f.emit, type, resourceVersion: rv });
    if (member === undefined || rv) continue;
    const token = packedKeys.indexOf(member as (typeof packedKeys)[number]);
    if (token >= 0) {
      if (byToken[token + 1] !== -1) throw new Error(`two fields read member ${member}`);
      byToken[token + 1] = index;
    } else {
      if (byName.has(member)) throw new Error(`two fields read member ${member}`);
      byName.set(member, index);
    }
  }
  const n = fields.length;
  return { schema, fields, byToken, byName, starts: new Int32Array(n), ends: new Int32Array(n), busy: false };
}

function objectPlan(schema: ObjectSchema): ObjectPlan {
  let plan = plans.get(schema);
  if (plan === undefined) plans.set(schema, (plan = buildPlan(schema, (f) => f, false, false)));
  return plan;
}

function metadataPlan(schema: ObjectSchema): ObjectPlan {
  let plan = metadataPlans.get(schema);
  if (plan === undefined) metadataPlans.set(schema, (plan = buildPlan(schema, (f) => f, true, false)));
  return plan;
}

function shapePlan(shape: TextShape): ObjectPlan {
  let plan = shapes.get(shape);
  if (plan === undefined) {
    const { members } = shape;
    const own = (f: string): string | undefined => (Object.hasOwn(members, f) ? members[f] : undefined);
    shapes.set(shape, (plan = buildPlan(shape.schema, own, false, true)));
  }
  return plan;
}

/*
 * The body being written, the output buffer and where the writer is in it, the revision's
 * resourceVersion as bytes, and the next backslash at or after a position (-1: none): module
 * state, as the writer calls nothing that writes again.
 */
let body = '';
let buf = Buffer.allocUnsafeSlow(16 * 1024);
let n = 0;
let rv = '';
let slash = -1;
/** Where the search that found `slash` started: it is the first backslash from there. */
let slashFrom = 0;
/** The plans whose writes are under way. */
const entered: ObjectPlan[] = [];

/** The most bytes the buffer grows to: larger texts are left to the serializer. */
const maxBytes = 1 << 20;

/** A character the one-byte buffer cannot hold. */
// eslint-disable-next-line no-control-regex -- the range starts at U+0000 on purpose
const beyondLatin1 = /[^\u0000-\u00ff]/;

/**
 * A lone surrogate as JSON.stringify escapes it: the decoder reads it as U+FFFD, as Go does, so
 * the decoded object's text differs from the stored one.
 */
const surrogateEscape = /\\u[dD][89a-fA-F]/;

class GiveUp extends Error {}
const giveUp = new GiveUp();

/** Makes room for `more` bytes past `n`. */
function room(more: number): void {
  if (n + more <= buf.length) return;
  const want = Math.max(n + more, buf.length * 2);
  if (want > maxBytes) throw giveUp;
  const grown = Buffer.allocUnsafeSlow(want);
  buf.copy(grown, 0, 0, n);
  buf = grown;
}

function put(bytes: Uint8Array): void {
  room(bytes.length);
  const b = buf;
  let at = n;
  for (let i = 0; i < bytes.length; i++) b[at++] = bytes[i]!;
  n = at;
}

/** Copies the string whose quotes are at `s` and `e - 1` as it is (nothing in it is packed). */
function copyString(s: number, e: number): void {
  room(e - s);
  if (e - s >= nativeRun) {
    n += buf.write(body.slice(s, e), n, 'latin1');
    return;
  }
  const b = buf;
  let at = n;
  for (let i = s; i < e; i++) b[at++] = body.charCodeAt(i);
  n = at;
}

/** Writes the revision's resourceVersion, quoted (digits: nothing to escape). */
function putResourceVersion(): void {
  room(rv.length + 2);
  buf[n++] = 34;
  for (let i = 0; i < rv.length; i++) buf[n++] = rv.charCodeAt(i);
  buf[n++] = 34;
}

const emptyString = ascii('""');
const zero = ascii('0');
const falseText = ascii('false');
const nullText = ascii('null');
const emptyMap = ascii('{}');
const emptyArray = ascii('[]');
const memberNames: readonly Uint8Array[] = packedKeys.map((k) => ascii(`"${k}":`));
const hexDigit = ascii('0123456789abcdef');

/**
 * The text `serializeObject` writes (see @kevents/api) of the object a packed body decodes to
 * (`fromBody`: its `metadata.resourceVersion` is `resourceVersion`), with the fields of
 * `shape.schema` read from the members `shape.members` names; undefined where this does not write
 * it exactly (the caller then serializes the decoded object).
 */
export function writeSchemaText(packed: string, resourceVersion: string, shape: TextShape): string | undefined {
  if (packed.charCodeAt(0) !== 123) return undefined;
  const plan = shapePlan(shape);
  body = packed;
  n = 0;
  if (beyondLatin1.test(packed)) return undefined;
  rv = resourceVersion;
  slash = packed.indexOf('\\');
  slashFrom = 0;
  try {
    if (writeObject(plan, 0) !== packed.length) return undefined;
    return buf.toString('latin1', 0, n);
  } catch (err) {
    if (err === giveUp) return undefined;
    throw err;
  } finally {
    body = '';
    for (const p of entered) p.busy = false;
    entered.length = 0;
  }
}

/** The end of the string whose opening quote is at `at` (past its closing quote). */
function stringEnd(at: number): number {
  const q = body.indexOf('"', at + 1);
  if (q < 0) throw giveUp;
  if (slashFrom > at + 1 || (slash >= 0 && slash <= at)) {
    slashFrom = at + 1;
    slash = body.indexOf('\\', slashFrom);
  }
  if (slash < 0 || slash > q) return q + 1;
  const end = jsonStringEnd(body, at + 1);
  if (end < 0 || surrogateEscape.test(body.slice(slash, end))) throw giveUp;
  return end + 1;
}

/** The end of the value at `at`, without writing it. */
function valueEnd(at: number): number {
  const c = body.charCodeAt(at);
  if (c === 34) return stringEnd(at);
  if (c === internMark) return at + internedTemplate(body, at).length;
  if (c === uuidMark) return at + 17;
  if (c === 123 || c === 91) {
    const close = c === 123 ? 125 : 93;
    let i = at + 1;
    if (body.charCodeAt(i) === close) return i + 1;
    for (;;) {
      if (c === 123) i = nameEnd(i);
      i = valueEnd(i);
      const next = body.charCodeAt(i++);
      if (next === close) return i;
      if (next !== 44) throw giveUp;
    }
  }
  let j = at;
  for (;;) {
    const d = body.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || Number.isNaN(d)) break;
    j++;
  }
  if (j === at) throw giveUp;
  return j;
}

/** The end of the member name at `at` (past its colon): a token or a string without escape. */
function nameEnd(at: number): number {
  const c = body.charCodeAt(at);
  if (c > internMark && c < uuidMark) return at + 1;
  if (c !== 34) throw giveUp;
  const end = stringEnd(at);
  if ((slash >= 0 && slash < end) || body.charCodeAt(end) !== 58) throw giveUp;
  return end + 1;
}

/** The name of the member at `at` as a string (for names that are no token). */
function nameAt(at: number, end: number): string {
  const name = body.slice(at + 1, end - 2);
  if (name === '__proto__') throw giveUp;
  return name;
}

/** Whether the value at `[s, e)` is one `omitempty` leaves out (`map`: `{}` too). */
function zeroValue(s: number, e: number, map: boolean): boolean {
  const c = body.charCodeAt(s);
  if (e - s === 2) {
    const d = body.charCodeAt(s + 1);
    return (c === 34 && d === 34) || (c === 91 && d === 93) || (map && c === 123 && d === 125);
  }
  if (c === internMark) {
    const { value, texts } = internedTemplate(body, s);
    return value === 'empty' || (texts.length === 1 && texts[0] === '[]');
  }
  return (
    (e - s === 1 && c === 48) ||
    (e - s === 4 && body.startsWith('null', s)) ||
    (e - s === 5 && body.startsWith('false', s))
  );
}

const internedIsEmptyString = (at: number): boolean => internedTemplate(body, at).value === 'empty';

const isNull = (s: number, e: number): boolean => e - s === 4 && body.startsWith('null', s);

/** Writes the object at `at` (or, at -1, an empty one) by `plan`; returns where it ends. */
function writeObject(plan: ObjectPlan, at: number): number {
  if (plan.busy) throw giveUp;
  plan.busy = true;
  entered.push(plan);
  const { starts, ends, fields } = plan;
  starts.fill(-1);
  let end = at + 1;
  if (at >= 0 && body.charCodeAt(end) === 125) end++;
  else if (at >= 0) {
    for (;;) {
      const c = body.charCodeAt(end);
      const valueAt = nameEnd(end);
      const field = c < uuidMark ? plan.byToken[c]! : (plan.byName.get(nameAt(end, valueAt)) ?? -1);
      const valueStop = valueEnd(valueAt);
      if (field >= 0) {
        if (starts[field] !== -1) throw giveUp;
        starts[field] = valueAt;
        ends[field] = valueStop;
      }
      const next = body.charCodeAt(valueStop);
      end = valueStop + 1;
      if (next === 125) break;
      if (next !== 44) throw giveUp;
    }
  }
  room(1);
  buf[n++] = 123;
  let first = true;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const s = starts[i]!;
    const e = ends[i]!;
    if (f.resourceVersion) {
      if (rv === '' && f.emit === 'omitempty') continue;
      put(first ? f.head : f.next);
      first = false;
      putResourceVersion();
      continue;
    }
    if (s < 0) {
      if (f.emit !== 'always') continue;
      put(first ? f.head : f.next);
      first = false;
      writeZero(f.type);
      continue;
    }
    if (f.emit === 'omitempty' ? zeroValue(s, e, f.type.kind === 'map') : f.emit === 'omitnil' && isNull(s, e))
      continue;
    put(first ? f.head : f.next);
    first = false;
    writeValue(f.type, s, e);
  }
  room(1);
  buf[n++] = 125;
  plan.busy = false;
  entered.pop();
  return end;
}

/** Writes the zero value of a type (an `always` field that is absent or null). */
function writeZero(t: TypePlan): void {
  switch (t.kind) {
    case 'string':
      return put(emptyString);
    case 'integer':
      return put(zero);
    case 'boolean':
      return put(falseText);
    case 'time':
    case 'any':
      return put(nullText);
    case 'map':
      return put(emptyMap);
    case 'array':
      return put(emptyArray);
    case 'object':
      writeObject(planOf(t), -1);
  }
}

/** Writes the value at `[s, e)` as a value of `t`. */
function writeValue(t: TypePlan, s: number, e: number): void {
  const c = body.charCodeAt(s);
  if (isNull(s, e) && t.kind !== 'any') return writeZero(t);
  switch (t.kind) {
    case 'string':
      if (c === 34) return copyString(s, e);
      if (c === uuidMark) return copy(s, e);
      if (c === internMark && internedString(s)) return copy(s, e);
      throw giveUp;
    case 'integer':
      if (c === 45 || (c >= 48 && c <= 57)) return copy(s, e);
      throw giveUp;
    case 'boolean':
      if (c === 116 || c === 102) return copy(s, e);
      throw giveUp;
    case 'time':
      if (c === 34) return e - s === 2 ? put(nullText) : copyString(s, e);
      if (c === internMark && internedString(s)) return internedIsEmptyString(s) ? put(nullText) : copy(s, e);
      throw giveUp;
    case 'any':
      return copy(s, e);
    case 'object':
      if (c !== 123) throw giveUp;
      writeObject(planOf(t), s);
      return;
    case 'map':
      if (c !== 123) throw giveUp;
      return writeMap(t.values!, s);
    case 'array':
      return writeArray(t.items!, s, e);
  }
}

/** Whether the interned value at `at` is a quoted string: a plain value's or a time's template. */
function internedString(at: number): boolean {
  const { value } = internedTemplate(body, at);
  return value === 'string' || value === 'empty' || value === 'time';
}

/** Writes a map whose keys are in the serializer's order (sorted by UTF-16 code units), or gives up. */
function writeMap(values: TypePlan, at: number): void {
  room(1);
  buf[n++] = 123;
  let i = at + 1;
  if (body.charCodeAt(i) === 125) {
    room(1);
    buf[n++] = 125;
    return;
  }
  let last: string | undefined;
  for (;;) {
    const c = body.charCodeAt(i);
    const valueAt = nameEnd(i);
    const key = c < uuidMark ? packedKeys[c - 1]! : nameAt(i, valueAt);
    if (last !== undefined && !(last < key)) throw giveUp;
    last = key;
    if (c < uuidMark) put(memberNames[c - 1]!);
    else copy(i, valueAt);
    const valueStop = valueEnd(valueAt);
    writeValue(values, valueAt, valueStop);
    const next = body.charCodeAt(valueStop);
    room(1);
    buf[n++] = next;
    i = valueStop + 1;
    if (next === 125) return;
    if (next !== 44) throw giveUp;
  }
}

/** Writes an array: of objects item by item, of anything else as it is. */
function writeArray(items: TypePlan, s: number, e: number): void {
  const c = body.charCodeAt(s);
  if (c === internMark) {
    if (items.kind !== 'object' || !internedArrayCanonical(s, planOf(items))) throw giveUp;
    return copy(s, e);
  }
  if (c !== 91) throw giveUp;
  if (items.kind !== 'object') return copy(s, e);
  const plan = planOf(items);
  room(1);
  buf[n++] = 91;
  let i = s + 1;
  if (body.charCodeAt(i) === 93) {
    room(1);
    buf[n++] = 93;
    return;
  }
  for (;;) {
    const d = body.charCodeAt(i);
    let stop: number;
    if (d === 123) stop = writeObject(plan, i);
    else if (body.startsWith('null', i)) {
      writeObject(plan, -1);
      stop = i + 4;
    } else throw giveUp;
    const next = body.charCodeAt(stop);
    room(1);
    buf[n++] = next;
    i = stop + 1;
    if (next === 93) return;
    if (next !== 44) throw giveUp;
  }
}

/**
 * Whether an interned array's template writes what the serializer writes of its items (checked
 * once per template and item schema, with the times of the first body met: a time is a quoted
 * RFC 3339 text whatever its value).
 */
const canonicalTemplates = new WeakMap<Template, WeakMap<ObjectSchema, boolean>>();

function internedArrayCanonical(at: number, plan: ObjectPlan): boolean {
  const template = internedTemplate(body, at);
  const { length } = template;
  let bySchema = canonicalTemplates.get(template);
  if (bySchema === undefined) canonicalTemplates.set(template, (bySchema = new WeakMap()));
  let known = bySchema.get(plan.schema);
  if (known === undefined) {
    const start = n;
    room(template.bytes + length * 32);
    n = writeInterned(body, at, template, buf, n);
    const text = buf.toString('latin1', start, n);
    n = start;
    known = serializedArray(text, plan.schema) === text;
    bySchema.set(plan.schema, known);
  }
  return known;
}

function serializedArray(text: string, schema: ObjectSchema): string | undefined {
  try {
    const items = JSON.parse(text) as unknown;
    if (!Array.isArray(items)) return undefined;
    const written: string[] = [];
    for (const item of items) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
      written.push(serializeObject(item as object, schema));
    }
    return `[${written.join(',')}]`;
  } catch {
    return undefined;
  }
}

/** Below this many characters a run is copied a character at a time, else by `Buffer.write`. */
const nativeRun = 24;

/**
 * Copies the packed characters `[s, e)` as JSON text (member-name tokens, UUIDs and interned
 * values written out); every character is below U+0100 (checked once per body).
 */
function copy(s: number, e: number): void {
  room(e - s + 64);
  for (let i = s; i < e; i++) {
    const c = body.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(i);
      if (end - i >= nativeRun) n += buf.write(body.slice(i, end), n, 'latin1');
      else for (let k = i; k < end; k++) buf[n++] = body.charCodeAt(k);
      i = end - 1;
      continue;
    }
    if (c >= 32) {
      buf[n++] = c;
      continue;
    }
    room(e - i + 64);
    if (c === internMark) {
      const template = internedTemplate(body, i);
      room(template.bytes + template.length * 32 + e - i);
      if (template.value === 'string' && template.bytes < nativeRun) {
        const piece = template.pieces[0]!;
        const b = buf;
        for (let k = 0; k < piece.length; k++) b[n++] = piece[k]!;
      } else n = writeInterned(body, i, template, buf, n);
      i += template.length - 1;
    } else if (c === uuidMark) {
      buf[n++] = 34;
      for (let b = 1; b <= 16; b++) {
        if (b === 5 || b === 7 || b === 9 || b === 11) buf[n++] = 45;
        const v = body.charCodeAt(i + b);
        buf[n++] = hexDigit[(v >> 4) & 15]!;
        buf[n++] = hexDigit[v & 15]!;
      }
      buf[n++] = 34;
      i += 16;
    } else {
      const name = memberNames[c - 1]!;
      for (let k = 0; k < name.length; k++) buf[n++] = name[k]!;
    }
  }
}
