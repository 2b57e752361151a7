import type { FieldSpec, MessageSpec } from './schema.js';
import { parseTime, zeroTimeSeconds } from './time.js';
import { fromInt64 } from './varint.js';
import type { ProtobufWriter } from './writer.js';

const tagOf = (field: FieldSpec): number =>
  (field.no << 3) | (field.kind === 'int32' || field.kind === 'int64' || field.kind === 'bool' ? 0 : 2);

/** Orders strings by their UTF-8 bytes (code points), as Go's `sort.Strings` does. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // surrogates (astral code points) sort after U+E000..U+FFFF in UTF-8
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
const num = (v: unknown): number => (typeof v === 'number' ? v : v == null ? 0 : Number(v));

function int64(w: ProtobufWriter, v: unknown): void {
  const n = num(v);
  if (n >= 0 && n <= Number.MAX_SAFE_INTEGER) w.uvarint(n);
  else {
    const h = fromInt64(n);
    w.varint64(h.lo, h.hi);
  }
}

/** Writes a `Time` or `MicroTime` body: empty for the zero time, else `Timestamp{seconds, nanos}`. */
function timestamp(w: ProtobufWriter, v: unknown, micro: boolean): void {
  if (v == null) return;
  const t = parseTime(str(v));
  if (t === undefined) throw new TypeError(`invalid time ${JSON.stringify(v)}`);
  if (t.seconds === zeroTimeSeconds && t.nanos === 0) return;
  w.byte(0x08);
  int64(w, t.seconds);
  w.byte(0x10);
  w.uvarint(micro ? t.nanos - (t.nanos % 1000) : 0);
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

/**
 * Writes the fields of `spec` from a JSON value as the generated `MarshalToSizedBuffer` does:
 * in field-number order, value fields always (empty or zero), pointer fields only when set.
 */
export function encodeMessage(w: ProtobufWriter, spec: MessageSpec, obj: unknown): void {
  const o = (obj !== null && typeof obj === 'object' ? obj : {}) as Record<string, unknown>;
  for (const field of spec.encodeOrder) {
    const v = o[field.json];
    if (field.pointer && v == null) continue;
    const tag = tagOf(field);
    switch (field.kind) {
      case 'string':
        w.uvarint(tag);
        w.string(str(v));
        break;
      case 'int32':
        w.uvarint(tag);
        w.int32(num(v));
        break;
      case 'int64':
        w.uvarint(tag);
        int64(w, v);
        break;
      case 'bool':
        w.uvarint(tag);
        w.byte(v === true ? 1 : 0);
        break;
      case 'time':
      case 'microTime': {
        w.uvarint(tag);
        const mark = w.begin();
        timestamp(w, v, field.kind === 'microTime');
        w.end(mark);
        break;
      }
      case 'strings':
        if (Array.isArray(v))
          for (const s of v) {
            w.uvarint(tag);
            w.string(str(s));
          }
        break;
      case 'verbs': {
        w.uvarint(tag);
        const mark = w.begin();
        if (Array.isArray(v))
          for (const s of v) {
            w.byte(0x0a);
            w.string(str(s));
          }
        w.end(mark);
        break;
      }
      case 'map':
        if (typeof v === 'object') {
          const m = v as Record<string, unknown>;
          for (const k of Object.keys(m).sort(compareUtf8)) {
            w.uvarint(tag);
            const mark = w.begin();
            w.byte(0x0a);
            w.string(k);
            w.byte(0x12);
            w.string(str(m[k]));
            w.end(mark);
          }
        }
        break;
      case 'bytes':
        if (v instanceof Uint8Array) {
          w.uvarint(tag);
          w.bytes(v);
        } else if (v != null) {
          w.uvarint(tag);
          w.bytes(utf8(JSON.stringify(v)));
        }
        break;
      case 'fieldsV1':
      case 'rawExtension': {
        w.uvarint(tag);
        const mark = w.begin();
        if (v != null) {
          w.byte(0x0a);
          w.bytes(v instanceof Uint8Array ? v : utf8(JSON.stringify(v)));
        }
        w.end(mark);
        break;
      }
      case 'message': {
        const sub = field.message!;
        if (field.repeated) {
          if (Array.isArray(v))
            for (const item of v) {
              w.uvarint(tag);
              const mark = w.begin();
              encodeMessage(w, sub, item);
              w.end(mark);
            }
        } else {
          w.uvarint(tag);
          const mark = w.begin();
          encodeMessage(w, sub, v);
          w.end(mark);
        }
        break;
      }
    }
  }
}
