import { quoteJSON } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import { toBody } from '../body.js';
import { packBody, packedKeys, packUUIDValue } from './packed-body.js';

/** The packed token of each packed member name (see {@link packBody}). */
const tokens = new Map<string, string>(packedKeys.map((k, i) => [k, String.fromCharCode(i + 1)]));
const uidToken = tokens.get('uid')!;

/** Thrown inside the walk at a value it does not write itself; {@link packObject} then takes the long way. */
const longWay = Symbol('longWay');

function plain(o: object): boolean {
  const p = Object.getPrototypeOf(o) as unknown;
  return (p === Object.prototype || p === null) && typeof (o as { toJSON?: unknown }).toJSON !== 'function';
}

function valueText(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return quoteJSON(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (v === null) return 'null';
      if (Array.isArray(v)) return arrayText(v);
      return objectText(v, false);
    default:
      throw longWay;
  }
}

function arrayText(a: unknown[]): string {
  if (!plainArray(a)) throw longWay;
  let s = '[';
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (i > 0) s += ',';
    s += x === undefined || typeof x === 'function' || typeof x === 'symbol' ? 'null' : valueText(x);
  }
  return `${s}]`;
}

const plainArray = (a: unknown[]): boolean =>
  Object.getPrototypeOf(a) === Array.prototype && typeof (a as { toJSON?: unknown }).toJSON !== 'function';

/**
 * An object's packed text without its member `skip`. At the top (`top`),
 * `metadata.resourceVersion` is left out, as {@link toBody} leaves it out.
 */
function objectText(o: object, top: boolean, skip?: string): string {
  if (!plain(o)) throw longWay;
  const m = o as Record<string, unknown>;
  let s = '{';
  const keys = Object.keys(m);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = m[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol' || k === skip) continue;
    const token = tokens.get(k);
    if (s.length > 1) s += ',';
    s += token ?? `${quoteJSON(k)}:`;
    if (token === uidToken && typeof x === 'string') s += packUUIDValue(x) ?? quoteJSON(x);
    else if (top && k === 'metadata' && typeof x === 'object' && x !== null && !Array.isArray(x))
      s += objectText(x, false, 'resourceVersion');
    else s += valueText(x);
  }
  return `${s}}`;
}

/**
 * The memory store's stored form of an object: exactly `packBody(toBody(obj))` (its JSON text
 * without `metadata.resourceVersion`, member names and UIDs packed), written in one walk instead
 * of `JSON.stringify` and a scan of its text. Objects holding anything but plain JSON data
 * (class instances, `toJSON`, BigInts, cycles) take that long way, with its errors.
 */
export function packObject(obj: KubeObject): string {
  if (typeof obj === 'object' && obj !== null) {
    try {
      const text = objectText(obj, true);
      // Flat, not a rope of the pieces: the text is kept (see `flatten` in the apiserver).
      void Number(text);
      return text;
    } catch (err) {
      if (err !== longWay && !(err instanceof RangeError)) throw err;
    }
  }
  return packBody(toBody(obj));
}
