import {
  arrayEnd,
  internedAt,
  internedText,
  internedValueKeys,
  internManagedFields,
  internMark,
  internValue,
  unpackedTimeBytes,
  writeInterned,
} from './interned-managed-fields.js';
import type { Template } from './interned-managed-fields.js';

/**
 * Object keys that most stored objects repeat: Kubernetes metadata and the fields of an Event in
 * its stored form (core/v1, whichever version it was written in). In a packed body, `"<key>":` of
 * the i-th key is the one character U+0001 + i: JSON text never holds a raw character below
 * U+0020 (JSON.stringify escapes them), so the packed form is unambiguous. There is room for 30
 * keys (U+001F marks a UUID). The order is part of the in-memory format only; nothing packed
 * leaves the process.
 */
export const packedKeys = [
  'metadata',
  'name',
  'generateName',
  'namespace',
  'uid',
  'creationTimestamp',
  'labels',
  'annotations',
  'managedFields',
  'kind',
  'apiVersion',
  'resourceVersion',
  'fieldPath',
  'involvedObject',
  'reason',
  'message',
  'source',
  'component',
  'host',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'lastObservedTime',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
] as const;

const textOf: readonly string[] = packedKeys.map((k) => `"${k}":`);
const openBrace = 123;
const comma = 44;
const quote = 34;
const dash = 45;

/**
 * A `uid` member's value in its canonical form (a quoted lowercase UUID, 38 characters) is packed
 * as U+001F and the UUID's 16 bytes, one character each: an Event's two UIDs take 34 characters
 * instead of 76. The 16 characters may be any of U+0000–U+00FF (the string stays one byte per
 * character); unpacking takes them as they are.
 */
export const uuidMark = 31;
const uuidMarkChar = String.fromCharCode(uuidMark);
const uidToken = String.fromCharCode(packedKeys.indexOf('uid') + 1);
/** The token of `managedFields`, whose array value may be interned (see interned-managed-fields.ts). */
export const managedFieldsToken = packedKeys.indexOf('managedFields') + 1;
const managedFieldsTokenChar = String.fromCharCode(managedFieldsToken);
/** Whether the member of each token (by char code) has its string values interned. */
export const internedValueToken: readonly boolean[] = [false, ...packedKeys.map((k) => internedValueKeys.has(k))];
/** Where the dashes of a UUID are. */
const uuidDashes = [8, 13, 18, 23];
const hexValue = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) hexValue['0123456789abcdef'.charCodeAt(d)] = d;
const hexByte: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** One character per byte value. */
const byteChar: readonly string[] = Array.from({ length: 256 }, (_, b) => String.fromCharCode(b));

/**
 * The packed form of the quoted lowercase UUID at `at` of a JSON text (U+001F and its 16 bytes,
 * one character each), or undefined when there is none.
 */
export function packUUID(json: string, at: number): string | undefined {
  if (json.charCodeAt(at) !== quote || json.charCodeAt(at + 37) !== quote) return undefined;
  return packHex(json, at + 1);
}

/**
 * Writes the 16 bytes of the lowercase UUID that starts at `at` of `s` into `out` from `to`;
 * returns false (having written some or none) when there is none there.
 */
export function uuidBytes(s: string, at: number, out: Uint8Array, to: number): boolean {
  for (const d of uuidDashes) if (s.charCodeAt(at + d) !== dash) return false;
  let o = to;
  for (let i = at; i < at + 36; i += 2) {
    if (s.charCodeAt(i) === dash) i++;
    const hi = hexValue[s.charCodeAt(i)] ?? -1;
    const lo = hexValue[s.charCodeAt(i + 1)] ?? -1;
    if (hi < 0 || lo < 0) return false;
    out[o++] = (hi << 4) | lo;
  }
  return true;
}

const hexScratch = new Uint8Array(16);

/** The packed form of the lowercase UUID that starts at `at` of `s`, or undefined. */
function packHex(s: string, at: number): string | undefined {
  if (!uuidBytes(s, at, hexScratch, 0)) return undefined;
  let out = uuidMarkChar;
  for (let i = 0; i < 16; i++) out += byteChar[hexScratch[i]];
  return out;
}

/** The quoted UUID of the 16 characters at `at` of a packed body. */
function unpackUUID(packed: string, at: number): string {
  let out = '"';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
    out += hexByte[packed.charCodeAt(at + i)];
  }
  return `${out}"`;
}

/** The packed keys by the char code of their first letter: `[<key>":, token]`, longest first. */
const byFirstChar: ([string, string][] | undefined)[] = [];
packedKeys.forEach((k, i) => {
  const c = k.charCodeAt(0);
  (byFirstChar[c] ??= []).push([`${k}":`, String.fromCharCode(i + 1)]);
});
for (const list of byFirstChar) list?.sort((a, b) => b[0].length - a[0].length);

/**
 * The memory store's form of a JSON text: every member name of {@link packedKeys} replaced by one
 * character, canonical `uid` values by 17, managedFields arrays and the string values of the
 * members `internValue` names by a template's index (a stored Event takes about half). `json` must be JSON.stringify output: there
 * a quote right after `{` or `,` and followed by `<key>":` always opens a member name (a quote
 * inside a string is escaped, and a string's closing quote is never followed by a letter).
 */
export function packBody(json: string): string {
  // Pieces joined at the end: `join` makes one flat string, where `+=` would keep a rope of
  // slices that holds the whole original text alive.
  let out: string[] | undefined;
  let last = 0;
  let i = json.indexOf('"');
  while (i > 0) {
    const before = json.charCodeAt(i - 1);
    if (before === openBrace || before === comma) {
      const candidates = byFirstChar[json.charCodeAt(i + 1)];
      if (candidates !== undefined) {
        for (let c = 0; c < candidates.length; c++) {
          const [text, token] = candidates[c];
          if (json.startsWith(text, i + 1)) {
            (out ??= []).push(json.slice(last, i), token);
            last = i + 1 + text.length;
            const uuid = token === uidToken ? packUUID(json, last) : undefined;
            if (uuid !== undefined) {
              out.push(uuid);
              last += 38;
            } else if (internedValueToken[token.charCodeAt(0)] && json.charCodeAt(last) === quote) {
              const end = json.indexOf('"', last + 1);
              const slash = json.indexOf('\\', last + 1);
              const interned = slash !== -1 && slash < end ? undefined : internValue(json.slice(last + 1, end));
              if (interned !== undefined) {
                out.push(interned);
                last = end + 1;
              }
            } else if (token === managedFieldsTokenChar) {
              const end = arrayEnd(json, last);
              const interned = end < 0 ? undefined : internManagedFields(json.slice(last, end));
              if (interned !== undefined) {
                out.push(interned);
                last = end;
              }
            }
            break;
          }
        }
      }
    }
    i = json.indexOf('"', last > i ? last : i + 1);
  }
  if (out === undefined) return json;
  out.push(json.slice(last));
  return out.join('');
}

/** The member-name text of each token (index `token - 1`) as bytes: `"<key>":`. */
const textBytes: readonly Uint8Array[] = textOf.map((t) => Uint8Array.from(t, (ch) => ch.charCodeAt(0)));
/** The hex digits' bytes. */
const hexDigit = Uint8Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));

/**
 * The most bytes one packed character unpacks to: a token its member name (`"<key>":`); a UUID's
 * 17 characters unpack to 38, fewer per character.
 */
const widest = Math.max(...textBytes.map((t) => t.length));
/** The most bytes {@link unpackBody}'s buffer grows to: a larger text is built as a string. */
const maxUnpackBytes = 1 << 20;
let unpacked = Buffer.allocUnsafeSlow(16 * 1024);

/**
 * The JSON text of a packed body. A body of one-byte characters (every one the byte packer
 * writes) is unpacked byte by byte into one shared buffer and read out as one flat Latin-1
 * string, which `JSON.parse` reads without flattening a rope first; others are built as strings.
 */
export function unpackBody(packed: string): string {
  return unpack(packed, false) ?? unpackText(packed);
}

/**
 * The text {@link unpackBody} writes in place of an interned managedFields array when asked to
 * ({@link unpackSharing}): a JSON string, which JSON.stringify spells only so.
 */
export const managedFieldsMarker = '\u0000kevents:managedFields';
const markerBytes = Uint8Array.from(JSON.stringify(managedFieldsMarker), (ch) => ch.charCodeAt(0));

/** Where {@link unpackSharing} found the one interned managedFields array, and its template. */
export interface SharingUnpack {
  /** The body's JSON text, the array replaced by the quoted {@link managedFieldsMarker}. */
  readonly text: string;
  /** The array's offset in the packed body (its U+0000), or -1 when the body interns none. */
  readonly at: number;
  readonly template: Template | undefined;
}

let sharingAt = -1;
let sharingTemplate: Template | undefined;

/**
 * {@link unpackBody}, but with the one interned managedFields array of the body written as the
 * quoted {@link managedFieldsMarker}, for a decoder that puts shared entries in its place;
 * undefined when the body interns more than one array or takes the string unpacker.
 */
export function unpackSharing(packed: string): SharingUnpack | undefined {
  sharingAt = -1;
  sharingTemplate = undefined;
  const text = unpack(packed, true);
  return text === undefined ? undefined : { text, at: sharingAt, template: sharingTemplate };
}

/** The fast unpacker; `sharing`: see {@link unpackSharing}. Undefined where the string unpacker must do it. */
function unpack(packed: string, sharing: boolean): string | undefined {
  const len = packed.length;
  const bound = len * widest;
  if (bound > unpacked.length) {
    if (bound > maxUnpackBytes) return undefined;
    unpacked = Buffer.allocUnsafeSlow(Math.max(bound, unpacked.length * 2));
  }
  const buf = unpacked;
  let n = 0;
  for (let i = 0; i < len; i++) {
    const c = packed.charCodeAt(i);
    if (c >= 32) {
      if (c > 0xff) return undefined;
      buf[n++] = c;
    } else if (c === internMark) {
      const { template, length } = internedAt(packed, i);
      if (n + template.bytes + length * unpackedTimeBytes + (len - i) * widest > buf.length) return undefined;
      if (sharing && template.writes === 'array') {
        if (sharingAt >= 0 || n + markerBytes.length + (len - i) * widest > buf.length) return undefined;
        sharingAt = i;
        sharingTemplate = template;
        buf.set(markerBytes, n);
        n += markerBytes.length;
      } else n = writeInterned(packed, i, template, buf, n);
      i += length - 1;
    } else if (c === uuidMark) {
      buf[n++] = quote;
      for (let b = 1; b <= 16; b++) {
        if (b === 5 || b === 7 || b === 9 || b === 11) buf[n++] = dash;
        const v = packed.charCodeAt(i + b);
        buf[n++] = hexDigit[(v >> 4) & 15];
        buf[n++] = hexDigit[v & 15];
      }
      buf[n++] = quote;
      i += 16;
    } else {
      const text = textBytes[c - 1];
      for (let t = 0; t < text.length; t++) buf[n++] = text[t];
    }
  }
  return buf.toString('latin1', 0, n);
}

/** A packed character: a token or a mark (JSON text holds no raw control character). */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const packedCharacter = /[\u0000-\u001f]/g;

/**
 * Where the next packed character is at or after `from` (-1: none): searched natively in a long
 * rest of the body (a character at a time, a 3 MB body took 13 ms to unpack; 3.7 now), a
 * character at a time in a short one (where the search costs more than it saves).
 */
function nextPackedCharacter(packed: string, from: number): number {
  if (packed.length - from > 1024) {
    packedCharacter.lastIndex = from;
    return packedCharacter.test(packed) ? packedCharacter.lastIndex - 1 : -1;
  }
  for (let i = from; i < packed.length; i++) if (packed.charCodeAt(i) < 32) return i;
  return -1;
}

/** {@link unpackBody} as strings, for bodies with characters above U+00FF or past the buffer's cap. */
function unpackText(packed: string): string {
  let out = '';
  let last = 0;
  for (let i = nextPackedCharacter(packed, 0); i !== -1; i = nextPackedCharacter(packed, last)) {
    const c = packed.charCodeAt(i);
    if (c === uuidMark) {
      out += packed.slice(last, i) + unpackUUID(packed, i + 1);
      i += 16;
    } else if (c === internMark) {
      const { template, length } = internedAt(packed, i);
      out += packed.slice(last, i) + internedText(packed, i, template);
      i += length - 1;
    } else out += packed.slice(last, i) + textOf[c - 1];
    last = i + 1;
  }
  return last === 0 ? packed : out + packed.slice(last);
}
