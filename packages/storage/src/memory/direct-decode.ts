import { hasSurrogateEscape, jsonStringEnd, parseJson } from '@kevents/api';
import { internedAt, internedText, internMark, slotTime } from './interned-managed-fields.js';
import type { Template } from './interned-managed-fields.js';
import { packedKeys, uuidMark } from './packed-body.js';
import { sharedManagedFields } from './shared-managed-fields.js';
import { comesAfterResourceVersion } from '../metadata-order.js';

/*
 * The packed body being decoded, where the decoder is in it, whether it met something it leaves
 * to the text decoder, and the next backslash at or after `at` (-1: none): module state, as the
 * decoder calls nothing that decodes again.
 */
let body = '';
let at = 0;
let bad = false;
let slash = -1;

const hexDigit = Uint8Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
/** The string value of each plain interned value's template (its text without the quotes). */
const internedStrings = new WeakMap<Template, string>();

/**
 * A packed body (packed-body.ts) as its object, read straight from the packed characters: member
 * names by their one-character tokens, interned values and times from their templates, UUIDs from
 * their bytes, and the rest as JSON.stringify wrote it (strings with an escape are parsed by
 * `JSON.parse`). Interned managedFields arrays are {@link sharedManagedFields}' (entries deeply
 * frozen and shared), or parsed from their text. Deeply equal to `parseJson(unpackBody(packed))`,
 * members in the same order, without building that text or parsing it: ~2.4× faster for a
 * stored Event. With `resourceVersion`, the body's `metadata` object gets a `resourceVersion` member
 * of that value where ObjectMeta's field order puts it (as `fromBody` places it). Undefined where it leaves the body to the text decoder: a member name with an
 * escape or `__proto__` (which `parseJson` reads specially), a body that is no object, or
 * anything it does not expect.
 */
export function decodeDirect(packed: string, resourceVersion?: string): Record<string, unknown> | undefined {
  if (packed.charCodeAt(0) !== 123) return undefined;
  const obj = reading(packed, 0, () => object(resourceVersion, false));
  return at === packed.length ? obj : undefined;
}

/**
 * The `metadata` member of a packed body as {@link decodeDirect} decodes it (with `resourceVersion`
 * placed as there), the members before it
 * passed over unread and those after it not looked at: what a PartialObjectMetadata shows of a
 * stored object, whatever else it holds (a 3 MB message of escapes took 16 ms to parse). Undefined
 * where the body has no `metadata` object or where {@link decodeDirect} would leave it to the
 * text decoder (then decode it whole).
 */
export function decodeMetadataDirect(packed: string, resourceVersion?: string): Record<string, unknown> | undefined {
  if (packed.charCodeAt(0) !== 123) return undefined;
  const metadata = reading(packed, 1, () => topMember('metadata', resourceVersion));
  return isMap(metadata) ? metadata : undefined;
}

/** Runs `read` over `packed` from `start` with the decoder's state set and clears it after: undefined when the read went bad. */
function reading<T>(packed: string, start: number, read: () => T): T | undefined {
  body = packed;
  at = start;
  bad = false;
  slash = packed.indexOf('\\');
  let value: T | undefined;
  try {
    value = read();
  } catch {
    bad = true;
  }
  body = '';
  return bad ? undefined : value;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value of the top-level member `name` (the decoder just inside the body's brace), the members before it skipped. */
function topMember(name: string, resourceVersion: string | undefined): unknown {
  for (;;) {
    if (body.charCodeAt(at) === 125) return undefined;
    const key = memberName();
    if (bad) return undefined;
    if (key === name)
      return resourceVersion !== undefined && body.charCodeAt(at) === 123 ? object(resourceVersion, true) : value();
    skip();
    const next = body.charCodeAt(at++);
    if (next !== 44 || bad) {
      bad = next !== 125 || bad;
      return undefined;
    }
  }
}

/** The member name the decoder is at (a token or a string without escape), and past its colon. */
function memberName(): string {
  const c = body.charCodeAt(at);
  if (c > internMark && c < uuidMark) {
    at++;
    return packedKeys[c - 1]!;
  }
  if (c === 34) {
    const end = body.indexOf('"', at + 1);
    if (end >= 0 && !escapeBefore(end) && body.charCodeAt(end + 1) === 58) {
      const key = body.slice(at + 1, end);
      at = end + 2;
      if (key !== '__proto__') return key;
    }
  }
  bad = true;
  return '';
}

/** Moves past the value the decoder is at without building it. */
function skip(): void {
  const c = body.charCodeAt(at);
  if (c === 34) {
    const end = jsonStringEnd(body, at + 1);
    if (end < 0) bad = true;
    else at = end + 1;
  } else if (c === internMark) at += internedAt(body, at).length;
  else if (c === uuidMark) at += 17;
  else if (c === 123 || c === 91) {
    const close = c === 123 ? 125 : 93;
    at++;
    if (body.charCodeAt(at) === close) {
      at++;
      return;
    }
    for (;;) {
      if (c === 123) memberName();
      if (bad) return;
      skip();
      const next = body.charCodeAt(at++);
      if (next === close) return;
      if (next !== 44 || bad) {
        bad = true;
        return;
      }
    }
  } else value();
}

function value(): unknown {
  const c = body.charCodeAt(at);
  if (c === 34) return string();
  if (c === internMark) return interned();
  if (c === 123) return object();
  if (c === uuidMark) return uuid();
  if (c === 91) return array();
  if (c === 116 && body.startsWith('true', at)) {
    at += 4;
    return true;
  }
  if (c === 102 && body.startsWith('false', at)) {
    at += 5;
    return false;
  }
  if (c === 110 && body.startsWith('null', at)) {
    at += 4;
    return null;
  }
  return number();
}

/**
 * An object; with `resourceVersion`, either the body itself (`metadata` false: its `metadata`
 * object gets it) or its metadata (`metadata` true), which gets a `resourceVersion` member of
 * that value where ObjectMeta's field order puts it (a stored one's value replaced).
 */
function object(resourceVersion?: string, metadata = false): Record<string, unknown> {
  at++;
  const o: Record<string, unknown> = {};
  let place = metadata ? resourceVersion : undefined;
  if (body.charCodeAt(at) === 125) {
    at++;
    if (place !== undefined) o['resourceVersion'] = place;
    return o;
  }
  for (;;) {
    const c = body.charCodeAt(at);
    let key: string;
    if (c > internMark && c < uuidMark) {
      key = packedKeys[c - 1]!;
      at++;
    } else if (c === 34) {
      const end = body.indexOf('"', at + 1);
      if (end < 0 || escapeBefore(end) || body.charCodeAt(end + 1) !== 58) {
        bad = true;
        return o;
      }
      key = body.slice(at + 1, end);
      if (key === '__proto__') {
        bad = true;
        return o;
      }
      at = end + 2;
    } else {
      bad = true;
      return o;
    }
    if (place !== undefined && (key === 'resourceVersion' || comesAfterResourceVersion(key))) {
      o['resourceVersion'] = place;
      place = undefined;
    }
    if (key === 'resourceVersion' && metadata) skip();
    else if (resourceVersion !== undefined && !metadata && key === 'metadata' && body.charCodeAt(at) === 123)
      o[key] = object(resourceVersion, true);
    else o[key] = value();
    const next = body.charCodeAt(at++);
    if (next === 125) {
      if (place !== undefined) o['resourceVersion'] = place;
      return o;
    }
    if (next !== 44 || bad) {
      bad = true;
      return o;
    }
  }
}

function array(): unknown[] {
  at++;
  const a: unknown[] = [];
  if (body.charCodeAt(at) === 93) {
    at++;
    return a;
  }
  for (;;) {
    a.push(value());
    const next = body.charCodeAt(at++);
    if (next === 93) return a;
    if (next !== 44 || bad) {
      bad = true;
      return a;
    }
  }
}

/** Whether a backslash comes before `end` (from where the decoder is). */
function escapeBefore(end: number): boolean {
  if (slash >= 0 && slash < at) slash = body.indexOf('\\', at);
  return slash >= 0 && slash < end;
}

function string(): string {
  const end = body.indexOf('"', at + 1);
  if (end < 0) {
    bad = true;
    return '';
  }
  if (!escapeBefore(end)) {
    const s = body.slice(at + 1, end);
    at = end + 1;
    return s;
  }
  // An escape: the string ends at the first quote no escape spells (JSON text holds no raw control character).
  const j = jsonStringEnd(body, at + 1);
  if (j < 0) {
    bad = true;
    return '';
  }
  const text = body.slice(at, j + 1);
  // parseJson reads a lone surrogate's escape as U+FFFD, as the text decoder and Go do.
  const s = (hasSurrogateEscape(text) ? parseJson(text) : JSON.parse(text)) as string;
  at = j + 1;
  return s;
}

function number(): number {
  let j = at;
  for (;;) {
    const d = body.charCodeAt(j);
    if ((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69) j++;
    else break;
  }
  if (j === at) {
    bad = true;
    return 0;
  }
  const n = Number(body.slice(at, j));
  if (Number.isNaN(n)) bad = true;
  at = j;
  return n;
}

/** A UUID's 36 character codes, reused: one flat string from them, where 20 concatenations made a rope. */
const uuidCodes: number[] = new Array<number>(36).fill(45);

function uuid(): string {
  let n = 0;
  for (let b = 1; b <= 16; b++) {
    if (b === 5 || b === 7 || b === 9 || b === 11) n++;
    const v = body.charCodeAt(at + b);
    uuidCodes[n++] = hexDigit[v >> 4]!;
    uuidCodes[n++] = hexDigit[v & 15]!;
  }
  at += 17;
  return String.fromCharCode(...uuidCodes);
}

/** An interned value: a managedFields array, a time, or a plain string, as its template writes it. */
function interned(): unknown {
  const { template, length } = internedAt(body, at);
  let v: unknown;
  switch (template.writes) {
    case 'array':
      v = sharedManagedFields(body, at, template) ?? parseJson(internedText(body, at, template));
      break;
    case 'time':
      v = slotTime(body, at, template, 0);
      break;
    case 'string':
    case 'empty': {
      let s = internedStrings.get(template);
      if (s === undefined) internedStrings.set(template, (s = template.texts[0]!.slice(1, -1)));
      v = s;
      break;
    }
    default:
      v = parseJson(internedText(body, at, template));
  }
  at += length;
  return v;
}
