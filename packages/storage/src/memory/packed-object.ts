import type { KubeObject } from '@kevents/api';
import { toBody } from '../body.js';
import { internFrozenEntry, internManagedFields, internValue } from './interned-managed-fields.js';
import { internedValueToken, managedFieldsToken, packBody, packedKeys, uuidBytes, uuidMark } from './packed-body.js';

/** The packed token (a byte below 0x20) of each packed member name (see {@link packBody}). */
const tokens = new Map<string, number>(packedKeys.map((k, i) => [k, i + 1]));
const uidToken = tokens.get('uid')!;

const quote = 34;
const backslash = 92;
const comma = 44;
const colon = 58;

/** Thrown inside the walk at what it does not write itself; {@link packObject} then takes the long way. */
const longWay = Symbol('longWay');

/** The most bytes the shared buffer grows to: a larger object takes the long way. */
const maxBytes = 1 << 20;

/**
 * The packed text is written byte by byte into one shared buffer and read out as one Latin-1
 * string: no string per member and no rope to flatten. A character above U+00FF does not fit in
 * a byte: the object then takes the long way.
 */
let buf = Buffer.allocUnsafeSlow(16 * 1024);
let n = 0;
/** A walk is in progress (a getter that packs an object would write into the same buffer). */
let busy = false;

function reserve(bytes: number): void {
  if (n + bytes <= buf.length) return;
  const size = Math.max(buf.length * 2, n + bytes);
  if (size > maxBytes) throw longWay;
  const grown = Buffer.allocUnsafeSlow(size);
  buf.copy(grown, 0, 0, n);
  buf = grown;
}

function byte(b: number): void {
  if (n === buf.length) reserve(1);
  buf[n++] = b;
}

/** Writes text that needs no escaping (JSON.stringify's output, numbers, literals). */
function raw(s: string): void {
  const len = s.length;
  reserve(len);
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) throw longWay;
    buf[n++] = c;
  }
}

/** Writes a string as JSON.stringify quotes it: as it is when nothing in it needs escaping. */
function string(s: string): void {
  const len = s.length;
  reserve(len + 2);
  const start = n;
  buf[n++] = quote;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === quote || c === backslash || c > 0xff) {
      n = start;
      raw(JSON.stringify(s));
      return;
    }
    buf[n++] = c;
  }
  buf[n++] = quote;
}

/** Writes a `uid` value: U+001F and the 16 bytes of a canonical UUID, else the quoted string. */
function uid(s: string): void {
  reserve(17);
  if (s.length === 36 && uuidBytes(s, 0, buf, n + 1)) {
    buf[n] = uuidMark;
    n += 17;
  } else string(s);
}

/** Writes a string value interned when it can be (see `internValue`), else quoted. */
function interned(s: string): void {
  const packed = internValue(s);
  if (packed === undefined) return string(s);
  reserve(packed.length);
  for (let i = 0; i < packed.length; i++) buf[n++] = packed.charCodeAt(i);
}

function plain(o: object): boolean {
  const p = Object.getPrototypeOf(o) as unknown;
  return (p === Object.prototype || p === null) && typeof (o as { toJSON?: unknown }).toJSON !== 'function';
}

function value(v: unknown): void {
  switch (typeof v) {
    case 'string':
      return string(v);
    case 'number':
      return raw(Number.isFinite(v) ? String(v) : 'null');
    case 'boolean':
      return raw(v ? 'true' : 'false');
    case 'object':
      if (v === null) return raw('null');
      if (Array.isArray(v)) return array(v);
      return object(v, false);
    default:
      throw longWay;
  }
}

function array(a: unknown[]): void {
  if (Object.getPrototypeOf(a) !== Array.prototype || typeof (a as { toJSON?: unknown }).toJSON === 'function')
    throw longWay;
  byte(91);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (i > 0) byte(comma);
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') raw('null');
    else value(x);
  }
  byte(93);
}

/** Writes a managedFields array interned when it can be (as packBody does with its JSON text), else as any array. */
function managedFields(a: unknown[]): void {
  const frozen = internFrozenEntry(a);
  if (frozen !== undefined) {
    reserve(frozen.length);
    for (let i = 0; i < frozen.length; i++) buf[n++] = frozen.charCodeAt(i);
    return;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(a);
  } catch {
    throw longWay;
  }
  const interned = text === undefined ? undefined : internManagedFields(text);
  if (interned === undefined) return array(a);
  reserve(interned.length);
  for (let i = 0; i < interned.length; i++) buf[n++] = interned.charCodeAt(i);
}

/**
 * Writes an object without its member `skip`, member names of {@link packedKeys} as their
 * tokens. At the top (`top`), `metadata.resourceVersion` is left out, as {@link toBody} leaves it out.
 */
function object(o: object, top: boolean, skip?: string): void {
  if (!plain(o)) throw longWay;
  const m = o as Record<string, unknown>;
  byte(123);
  const first = n;
  // Names and values in two arrays: reading each member by name would go through one
  // megamorphic load for every shape of object packed. A getter that removed a member while
  // they were read would leave them out of step (JSON.stringify skips the member): the long way.
  const keys = Object.keys(m);
  const values = Object.values(m);
  if (values.length !== keys.length) throw longWay;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = values[i];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol' || k === skip) continue;
    if (n > first) byte(comma);
    const token = tokens.get(k);
    if (token === undefined) {
      string(k);
      byte(colon);
    } else byte(token);
    if (token === uidToken && typeof x === 'string') uid(x);
    else if (token !== undefined && internedValueToken[token] && typeof x === 'string') interned(x);
    else if (token === managedFieldsToken && Array.isArray(x)) managedFields(x);
    else if (top && k === 'metadata' && typeof x === 'object' && x !== null && !Array.isArray(x))
      object(x, false, 'resourceVersion');
    else value(x);
  }
  byte(125);
}

/**
 * The memory store's stored form of an object: exactly `packBody(toBody(obj))` (its JSON text
 * without `metadata.resourceVersion`, member names and UIDs packed), written in one walk instead
 * of `JSON.stringify` and a scan of its text. Objects holding anything but plain JSON data
 * (class instances, `toJSON`, BigInts, cycles), characters above U+00FF or more than a megabyte
 * take that long way, with its errors.
 */
export function packObject(obj: KubeObject): string {
  if (typeof obj === 'object' && obj !== null && !busy) {
    busy = true;
    n = 0;
    try {
      object(obj, true);
      return buf.toString('latin1', 0, n);
    } catch (err) {
      if (err !== longWay && !(err instanceof RangeError)) throw err;
    } finally {
      busy = false;
    }
  }
  return packBody(toBody(obj));
}
