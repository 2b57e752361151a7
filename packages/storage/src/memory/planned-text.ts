import { goEscapeJSON, hasSurrogateEscape, isCanonicalValue, needsGoEscapes, parseJson } from '@kevents/api';
import type { FieldType, StoredTextPlan } from '@kevents/api';
import { internedAt, internedText, internMark, slotTime } from './interned-managed-fields.js';
import type { Template } from './interned-managed-fields.js';
import { packedKeys, uuidMark } from './packed-body.js';
import { convertedMember, planShape, tokenOf, unknownMember } from './text-plan-shape.js';
import type { Shape } from './text-plan-shape.js';

/*
 * A view's JSON text written straight from a packed body (packed-body.ts), without decoding it to
 * objects and encoding those again. Each object is written as `canonicalObject` rebuilds it: its
 * schema's fields in order, a stored `null` as no member, an `omitempty` zero left out, an absent
 * field that is always written as its zero, members the schema does not know dropped; each value
 * is the stored text where the canonical encoder would keep the value as it is. Where it would
 * not (a value of another type, a map out of order, a time that is an empty string), and where
 * the decoder would not read the body straight (a member name with an escape or `__proto__`),
 * this gives up and the caller takes the long way. The text is made of slices of the packed body
 * and constant pieces, joined by V8 as a rope: no character is copied here one at a time.
 */

/** Thrown where the packed body is not what this writes: the caller takes the long way. */
const giveUp = Symbol('giveUp');

let body = '';
let at = 0;
/** Whether the packed body holds a character Go's JSON encoder escapes anywhere (a UUID's or a template index's bytes too). */
let suspect = false;
/** Whether the text holds one (in a string or name copied from the body, or a template's text): it is escaped at the end. */
let html = false;
/** The next backslash at or after `at` (-1: none). */
let slash = -1;

const tokenTexts: readonly string[] = packedKeys.map((k) => `"${k}":`);
const metadataToken = tokenOf('metadata');

/**
 * `JSON.stringify(canonicalObject(converted, plan.schema))` of the object a packed body holds,
 * its metadata given `resourceVersion` (see {@link StoredTextPlan}), with Go's escapes
 * (`goEscapeJSON`), made from the packed body's text; undefined where this cannot say it. A text
 * that needs no escape is returned as the rope it was made as (whoever writes it out flattens it
 * once; an escape's scan would flatten it first).
 */
export function plannedText(packed: string, resourceVersion: number, plan: StoredTextPlan): string | undefined {
  const shape = planShape(plan);
  if (packed.charCodeAt(0) !== 123) return undefined;
  body = packed;
  at = 0;
  slash = packed.indexOf('\\');
  suspect = needsGoEscapes(packed);
  html = false;
  try {
    const text = object(shape, -1, resourceVersion);
    if (at !== body.length) return undefined;
    return html ? goEscapeJSON(text) : text;
  } catch (err) {
    // A RangeError: a text past V8's longest string, or a stack too deep (the decoder then decides).
    if (err === giveUp || err instanceof RangeError) return undefined;
    throw err;
  } finally {
    body = '';
  }
}

/**
 * The object at the decoder as the canonical encoder rebuilds it. `resourceVersion` (≥ 0): the
 * value of its `resourceVersion` field, a stored one dropped (ObjectMeta); `metadataVersion`: the
 * same for its member `metadata` (the top of a body).
 */
function object(shape: Shape, resourceVersion: number, metadataVersion: number): string {
  const { fields, index, byToken } = shape;
  const rvField = resourceVersion >= 0 ? shape.resourceVersionField : -1;
  if (resourceVersion >= 0 && rvField < 0) throw giveUp;
  // Each field's value text; '' for a stored null (no JSON value is an empty text).
  const values = new Array<string | undefined>(fields.length);
  let metadataRead = false;
  at++;
  if (body.charCodeAt(at) === 125) at++;
  else
    for (;;) {
      const key = readName();
      const i = nameToken > 0 ? byToken[nameToken]! : (index.get(key) ?? unknownMember);
      if (i === convertedMember) {
        if (!literal('null')) throw giveUp;
      } else if (i < 0 || i === rvField) anyValue();
      else {
        if (values[i] !== undefined) throw giveUp;
        if (literal('null')) values[i] = '';
        else {
          const f = fields[i]!;
          const version = metadataVersion >= 0 && key === 'metadata' ? metadataVersion : -1;
          if (version >= 0 && (f.shape.kind !== 'object' || body.charCodeAt(at) !== 123)) throw giveUp;
          if (version >= 0) metadataRead = true;
          values[i] = value(f.shape, version);
        }
      }
      if (endOfObject()) break;
    }
  if (rvField >= 0) values[rvField] = `"${resourceVersion}"`;
  // The decoder gives a body without a metadata object one of its resourceVersion alone.
  if (metadataVersion >= 0 && !metadataRead && (byToken[metadataToken] ?? unknownMember) >= 0) throw giveUp;
  let out = '{';
  let first = true;
  for (let j = 0; j < fields.length; j++) {
    const f = fields[j]!;
    let v = values[j];
    if (v === undefined || v === '') {
      if (f.emit !== 'always') continue;
      v = f.zero;
    } else if (f.emit === 'omitempty' && omitted(v, f.shape.kind === 'map')) continue;
    out += first ? f.name + v : f.commaName + v;
    first = false;
  }
  return `${out}}`;
}

/** Whether a value text is one `omitempty` leaves out: `""`, `0`, `false`, `[]` (and `{}` for a map). */
const omitted = (v: string, map: boolean): boolean =>
  v === '""' || v === '0' || v === 'false' || v === '[]' || (map && v === '{}');

/** The comma or closing brace after a member: true at the brace (the decoder past it). */
function endOfObject(): boolean {
  const c = body.charCodeAt(at++);
  if (c === 125) return true;
  if (c !== 44) throw giveUp;
  return false;
}

/** Whether the packed body has `word` at the decoder (then past it). */
function literal(word: string): boolean {
  if (!body.startsWith(word, at)) return false;
  at += word.length;
  return true;
}

/** The token of the member name {@link readName} read last (0: a quoted name, `[nameStart, nameEnd)` with its colon). */
let nameToken = 0;
let nameStart = 0;
let nameEnd = 0;

/** Reads the member name at the decoder (a token or a string without escape), moving past its colon; returns it. */
function readName(): string {
  const c = body.charCodeAt(at);
  if (c > internMark && c < uuidMark) {
    at++;
    nameToken = c;
    return packedKeys[c - 1]!;
  }
  if (c !== 34) throw giveUp;
  const end = body.indexOf('"', at + 1);
  if (end < 0 || escapeBefore(end) || body.charCodeAt(end + 1) !== 58) throw giveUp;
  const key = body.slice(at + 1, end);
  if (key === '__proto__') throw giveUp;
  nameToken = 0;
  nameStart = at;
  nameEnd = end + 2;
  at = end + 2;
  return key;
}

/** The text of the member name {@link readName} read last, with its colon. */
const nameText = (): string => (nameToken > 0 ? tokenTexts[nameToken - 1]! : bodyText(nameStart, nameEnd));

/** The packed body's characters `[from, to)` (a string's or a name's text), noting one Go escapes. */
function bodyText(from: number, to: number): string {
  const text = body.slice(from, to);
  // A lone surrogate's escape: the decoders read it as U+FFFD (Go's reading), which this does not spell.
  if (slash >= from && slash < to && hasSurrogateEscape(text)) throw giveUp;
  if (suspect && !html && needsGoEscapes(text)) html = true;
  return text;
}

/** Whether a backslash comes before `end` (from where the decoder is). */
function escapeBefore(end: number): boolean {
  if (slash >= 0 && slash < at) slash = body.indexOf('\\', at);
  return slash >= 0 && slash < end;
}

/** The closing quote of the string at the decoder (JSON.stringify's text: a quote after an even run of backslashes). */
function stringEnd(): number {
  let end = body.indexOf('"', at + 1);
  if (end >= 0 && escapeBefore(end))
    for (;;) {
      let b = end - 1;
      while (body.charCodeAt(b) === 92) b--;
      if ((end - b) % 2 === 1) break;
      end = body.indexOf('"', end + 1);
      if (end < 0) break;
    }
  if (end < 0) throw giveUp;
  return end;
}

/** Whether an interned array's JSON is canonical for an array type, by template (its times do not change that). */
const arrayChecks = new WeakMap<Template, Map<FieldType, boolean>>();
/** The last template {@link canonicalArray} was asked about, with the type and the answer (a store's items mostly share one). */
let lastArrayTemplate: Template | undefined;
let lastArrayType: FieldType | undefined;
let lastArrayCanonical = false;

function canonicalArray(t: Template, type: FieldType): boolean {
  if (t === lastArrayTemplate && type === lastArrayType) return lastArrayCanonical;
  let checks = arrayChecks.get(t);
  if (checks === undefined) arrayChecks.set(t, (checks = new Map()));
  let ok = checks.get(type);
  if (ok === undefined) {
    ok = isCanonicalValue(parseJson(internedText(body, at, t)), type);
    checks.set(type, ok);
  }
  lastArrayTemplate = t;
  lastArrayType = type;
  lastArrayCanonical = ok;
  return ok;
}

/** The text of the interned value at the decoder (moving past it); undefined where its template writes other JSON. */
function interned(): string | undefined {
  const { template, length } = internedAt(body, at);
  if (template.html) html = true;
  if (template.surrogateEscape) throw giveUp;
  let text: string | undefined;
  switch (template.writes) {
    case 'string':
    case 'empty':
      text = template.texts[0]!;
      break;
    case 'time':
      text = `"${slotTime(body, at, template, 0)}"`;
      break;
    case 'array':
      text = internedText(body, at, template);
      break;
    default:
      return undefined;
  }
  at += length;
  return text;
}

const hexDigit = Uint8Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
/** A quoted UUID's 38 character codes, reused. */
const uuidCodes: number[] = new Array<number>(38).fill(45);
uuidCodes[0] = uuidCodes[37] = 34;

/**
 * The text of a string value at the decoder: a quoted string, a UUID, or an interned string or
 * time; undefined where there is none. `nonEmpty`: an empty string is not one.
 */
function stringValue(nonEmpty: boolean): string | undefined {
  const c = body.charCodeAt(at);
  if (c === 34) {
    const end = stringEnd();
    if (nonEmpty && end === at + 1) return undefined;
    const text = bodyText(at, end + 1);
    at = end + 1;
    return text;
  }
  if (c === uuidMark) {
    let k = 1;
    for (let b = 1; b <= 16; b++) {
      if (b === 5 || b === 7 || b === 9 || b === 11) k++;
      const v = body.charCodeAt(at + b);
      uuidCodes[k++] = hexDigit[(v >> 4) & 15]!;
      uuidCodes[k++] = hexDigit[v & 15]!;
    }
    at += 17;
    return String.fromCharCode(...uuidCodes);
  }
  if (c === internMark) {
    const writes = internedAt(body, at).template.writes;
    if (writes !== 'string' && writes !== 'time' && (writes !== 'empty' || nonEmpty)) return undefined;
    return interned();
  }
  return undefined;
}

/** The text of a number at the decoder (as JSON.stringify wrote it); undefined where there is none. */
function numberText(): string | undefined {
  let j = at;
  for (;;) {
    const d = body.charCodeAt(j);
    if ((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69) j++;
    else break;
  }
  const text = body.slice(at, j);
  if (j === at || Number.isNaN(Number(text))) return undefined;
  at = j;
  return text;
}

/** `true` or `false` at the decoder, or undefined. */
const booleanText = (): string | undefined => (literal('true') ? 'true' : literal('false') ? 'false' : undefined);

/**
 * A field's value text (the value not null), as the canonical encoder rebuilds it;
 * `metadataVersion`: see {@link object}. `inMap`: a map's value, which the canonical encoder
 * checks and keeps as it is (a time may be null; an object, or an array of them, gives up).
 */
function value(shape: Shape, metadataVersion: number, inMap = false): string {
  let text: string | undefined;
  switch (shape.kind) {
    case 'string':
      text = stringValue(false);
      break;
    case 'integer':
      text = numberText();
      break;
    case 'boolean':
      text = booleanText();
      break;
    case 'time':
      text = inMap && literal('null') ? 'null' : stringValue(true);
      break;
    case 'object':
      if (!inMap && body.charCodeAt(at) === 123) text = object(shape, metadataVersion, -1);
      break;
    case 'map':
      if (body.charCodeAt(at) === 123) text = map(shape.inner!);
      break;
    case 'array':
      if (!inMap || shape.inner!.kind !== 'object') text = array(shape);
      break;
    default:
      text = anyValue();
  }
  if (text === undefined) throw giveUp;
  return text;
}

/** A map at the decoder: its keys sorted (none an array index), each value kept as it is. */
function map(values: Shape): string {
  at++;
  if (body.charCodeAt(at) === 125) {
    at++;
    return '{}';
  }
  let out = '{';
  let prev: string | undefined;
  for (;;) {
    const key = readName();
    const c = key.charCodeAt(0);
    if ((c >= 48 && c <= 57) || (prev !== undefined && !(prev < key))) throw giveUp;
    out += prev === undefined ? nameText() : `,${nameText()}`;
    prev = key;
    out += value(values, -1, true);
    if (endOfObject()) break;
  }
  return `${out}}`;
}

/** An array at the decoder (an interned one too), its objects as the canonical encoder rebuilds them; undefined where there is none. */
function array(shape: Shape): string | undefined {
  const c = body.charCodeAt(at);
  if (c === internMark) {
    const { template } = internedAt(body, at);
    if (template.writes !== 'array' || !canonicalArray(template, shape.type)) return undefined;
    return interned();
  }
  if (c !== 91) return undefined;
  const items = shape.inner!;
  if (items.kind !== 'object') return anyValue();
  at++;
  if (body.charCodeAt(at) === 93) {
    at++;
    return '[]';
  }
  let out = '[';
  for (;;) {
    if (body.charCodeAt(at) !== 123) return undefined;
    out += object(items, -1, -1);
    const d = body.charCodeAt(at++);
    if (d === 93) break;
    if (d !== 44) throw giveUp;
    out += ',';
  }
  return `${out}]`;
}

/** Any JSON value at the decoder, as `JSON.stringify` of its decoded value writes it. */
function anyValue(): string {
  const c = body.charCodeAt(at);
  if (c === 123 || c === 91) {
    const close = c === 123 ? 125 : 93;
    at++;
    if (body.charCodeAt(at) === close) {
      at++;
      return c === 123 ? '{}' : '[]';
    }
    let out = c === 123 ? '{' : '[';
    for (;;) {
      if (c === 123) {
        readName();
        out += nameText();
      }
      out += anyValue();
      const d = body.charCodeAt(at++);
      if (d === close) break;
      if (d !== 44) throw giveUp;
      out += ',';
    }
    return out + (c === 123 ? '}' : ']');
  }
  const text =
    c === internMark
      ? interned()
      : (stringValue(false) ?? booleanText() ?? (literal('null') ? 'null' : undefined) ?? numberText());
  if (text === undefined) throw giveUp;
  return text;
}
