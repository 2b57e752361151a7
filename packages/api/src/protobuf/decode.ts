import { goJsonSyntaxError } from '../json/go-json-syntax.js';
import { parseJson } from '../json/parse-json.js';
import { ProtobufDecodeError } from './errors.js';
import { ProtobufReader } from './reader.js';
import { Timestamp, type FieldSpec, type MessageSpec } from './schema.js';
import { microTimeJSON, timeJSON } from './time.js';
import { goString } from './utf8.js';
import { toBigUint64 } from './varint.js';

/**
 * A message as Go holds it after `Unmarshal`: a field absent is Go's zero value (a nil pointer,
 * slice or map); a field present holds what the generated code stored (merged for repeated
 * embedded messages, appended for repeated fields, last one kept for scalars).
 */
export type GoMessage = Record<string, unknown>;

/** A map field: raw keys (one char per byte) to values, as Go's map holds them. */
type GoMap = Map<string, string>;

const wireOf = (field: FieldSpec): number =>
  field.kind === 'int32' || field.kind === 'int64' || field.kind === 'bool' ? 0 : 2;

/** The bytes of `data[start:end]` as a one-char-per-byte string (keeps invalid UTF-8 apart). */
const rawKey = (data: Uint8Array, start: number, end: number): string =>
  Buffer.from(data.buffer, data.byteOffset + start, end - start).toString('latin1');

/**
 * A `Time` or `MicroTime` as read, formatted only when the JSON is written: a field repeated
 * keeps its last value (each occurrence replaces the last, as `Time.Unmarshal` does), so a body of
 * many occurrences costs one formatting, not one per occurrence. The seconds are kept as the two
 * halves of their varint.
 */
class GoTimestamp {
  readonly lo: number;
  readonly hi: number;
  readonly nanos: number;

  constructor(lo: number, hi: number, nanos: number) {
    this.lo = lo;
    this.hi = hi;
    this.nanos = nanos;
  }

  /** What Go's JSON writes for it, as a `Time` or a `MicroTime`. */
  json(kind: 'time' | 'microTime'): string | null {
    const seconds = int64(this.lo, this.hi);
    return kind === 'time' ? timeJSON(seconds) : microTimeJSON(seconds, this.nanos);
  }
}

/** An int64 varint (its unsigned halves) as a number when exact, else as a bigint. */
function int64(lo: number, hi: number): number | bigint {
  if (hi === 0) return lo;
  if (hi < 0x200000) return hi * 2 ** 32 + lo;
  if (hi > 0xffe00000) return (hi | 0) * 2 ** 32 + lo;
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

/**
 * Reads the tag at `r.pos` as the generated `Unmarshal` of `spec` does: the field it names, past
 * its tag and with its wire type checked; or undefined when `spec` has no such field, which is
 * then skipped.
 */
function nextField(r: ProtobufReader, spec: MessageSpec, end: number): FieldSpec | undefined {
  const preIndex = r.pos;
  r.varint(end);
  const wireType = r.lo & 7;
  const fieldNum = (r.hi << 29) | (r.lo >>> 3) | 0;
  if (wireType === 4)
    throw new ProtobufDecodeError('EndGroupForNonGroup', `proto: ${spec.name}: wiretype end group for non-group`);
  if (fieldNum <= 0)
    throw new ProtobufDecodeError(
      'IllegalTag',
      `proto: ${spec.name}: illegal tag ${fieldNum} (wire type ${toBigUint64(r).toString()})`,
    );
  const field = spec.byNo[fieldNum];
  if (field === undefined) {
    r.pos = preIndex;
    r.skip(end, end);
    return undefined;
  }
  if (wireType !== wireOf(field))
    throw new ProtobufDecodeError('WrongWireType', `proto: wrong wireType = ${wireType} for field ${field.go}`);
  return field;
}

/**
 * Reads a `Timestamp` as `Time.Unmarshal` and `MicroTime.Unmarshal` do (a new one each time),
 * without an object or a bigint for what a later occurrence replaces.
 */
function timestamp(r: ProtobufReader, end: number): GoTimestamp {
  let lo = 0;
  let hi = 0;
  let nanos = 0;
  while (r.pos < end) {
    const field = nextField(r, Timestamp, end);
    if (field === undefined) continue;
    r.varint(end);
    if (field.no === 1) {
      lo = r.lo;
      hi = r.hi;
    } else nanos = r.lo | 0;
  }
  return new GoTimestamp(lo, hi, nanos);
}

/**
 * Reads the fields of `spec` from `r.pos` to `end` into `target`, as the generated `Unmarshal`
 * of the message does, failing with its errors.
 */
export function decodeMessage(r: ProtobufReader, spec: MessageSpec, end: number, target: GoMessage): void {
  const base = r.pos;
  const data = r.data;
  while (r.pos < end) {
    r.countField();
    const field = nextField(r, spec, end);
    if (field === undefined) continue;
    const key = field.json;
    switch (field.kind) {
      case 'int32':
        r.varint(end);
        target[key] = r.lo | 0;
        break;
      case 'int64':
        r.varint(end);
        target[key] = int64(r.lo, r.hi);
        break;
      case 'bool':
        r.varint(end);
        target[key] = r.lo !== 0 || r.hi !== 0;
        break;
      case 'string': {
        const post = r.length(end, base);
        target[key] = goString(data, r.pos, post);
        r.pos = post;
        break;
      }
      case 'strings': {
        const post = r.length(end, base);
        const list = (target[key] as string[] | undefined) ?? (target[key] = []);
        (list as string[]).push(goString(data, r.pos, post));
        r.pos = post;
        break;
      }
      case 'bytes': {
        const post = r.length(end, base);
        target[key] = new Uint8Array(data.subarray(r.pos, post));
        r.pos = post;
        break;
      }
      case 'time':
      case 'microTime': {
        const post = r.length(end, base);
        if (post === r.pos) target[key] = null;
        else target[key] = timestamp(r, post);
        r.pos = post;
        break;
      }
      case 'message':
      case 'verbs':
      case 'fieldsV1':
      case 'rawExtension': {
        const post = r.length(end, base);
        let sub: GoMessage;
        if (field.repeated) {
          sub = {};
          const list = (target[key] as GoMessage[] | undefined) ?? (target[key] = []);
          (list as GoMessage[]).push(sub);
        } else sub = (target[key] as GoMessage | undefined) ?? (target[key] = {});
        decodeMessage(r, field.message!, post, sub);
        // A FieldsV1's JSON is parsed when the message is written out: its members count as fields.
        if (field.kind === 'fieldsV1' && r.fieldsLeft !== Infinity) {
          const raw = sub['Raw'] as Uint8Array | undefined;
          if (raw !== undefined) {
            r.fieldsLeft -= jsonMemberCount(raw);
            if (r.fieldsLeft < 0) r.countField();
          }
        }
        r.pos = post;
        break;
      }
      case 'map': {
        const post = r.length(end, base);
        const map = (target[key] as GoMap | undefined) ?? (target[key] = new Map());
        let mapKey = '';
        let mapValue = '';
        // The entry is one field (a member of the map's JSON); a key or value past the first two is another.
        let inner = 0;
        while (r.pos < post) {
          if (++inner > 2) r.countField();
          const entryPre = r.pos;
          r.varint(end);
          const num = (r.hi << 29) | (r.lo >>> 3) | 0;
          if (num === 1 || num === 2) {
            const sEnd = r.length(end, base);
            if (num === 1) mapKey = rawKey(data, r.pos, sEnd);
            else mapValue = goString(data, r.pos, sEnd);
            r.pos = sEnd;
          } else {
            r.pos = entryPre;
            r.skip(end, post);
          }
        }
        (map as GoMap).set(mapKey, mapValue);
        r.pos = post;
        break;
      }
    }
  }
}

/**
 * How many members the JSON text `raw` spells: its colons outside strings (a scan of its bytes,
 * ~1 ms per MiB, where `JSON.parse` of 120,000 members took 150-330 ms). Any text is counted.
 */
function jsonMemberCount(raw: Uint8Array): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) n++;
  }
  return n;
}

/** Sets a key of a JSON object (a `__proto__` key as an own property). */
const put = (o: Record<string, unknown>, k: string, v: unknown): void => {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
};

/** Go's JSON of a FieldsV1: its raw bytes, which must be JSON (keys such as `k:{\"name\":\"a\"}` read with `parseJson`). */
function fieldsV1JSON(v: GoMessage): unknown {
  const raw = v['Raw'] as Uint8Array | undefined;
  if (raw === undefined) return null;
  const why = goJsonSyntaxError(raw);
  if (why !== undefined)
    throw new ProtobufDecodeError('InvalidFieldsV1', `json: error calling MarshalJSON for type *v1.FieldsV1: ${why}`);
  return parseJson(goString(raw, 0, raw.length));
}

/**
 * The JSON Go's encoder writes for a decoded message: fields in Go struct order, `omitempty`
 * ones left out when empty (zero scalars, nil pointers, nil slices and maps), value structs
 * always written, nil slices without `omitempty` as null, map keys sorted by their bytes.
 */
export function messageJSON(
  spec: MessageSpec,
  v: GoMessage,
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const field of spec.fields) {
    const key = field.json;
    const x = v[key];
    switch (field.kind) {
      case 'string':
      case 'int32':
      case 'int64':
      case 'bool': {
        if (x === undefined) {
          if (field.pointer || field.omitempty) break;
          out[key] = field.kind === 'string' ? '' : field.kind === 'bool' ? false : 0;
          break;
        }
        if (!field.pointer && field.omitempty && (x === '' || x === 0 || x === false)) break;
        out[key] = typeof x === 'bigint' ? Number(x) : x;
        break;
      }
      case 'time':
      case 'microTime':
        if (x === undefined) {
          if (!field.pointer) out[key] = null;
        } else out[key] = x instanceof GoTimestamp ? x.json(field.kind) : x;
        break;
      case 'strings':
        if (x === undefined) {
          if (!field.omitempty) out[key] = null;
        } else out[key] = x;
        break;
      case 'verbs':
        out[key] = x === undefined ? null : (((x as GoMessage)['items'] as string[] | undefined) ?? []);
        break;
      case 'map': {
        if (x === undefined) break;
        const map = x as GoMap;
        const o: Record<string, unknown> = {};
        for (const raw of [...map.keys()].sort()) {
          const bytes = Buffer.from(raw, 'latin1');
          put(o, goString(bytes, 0, bytes.length), map.get(raw));
        }
        out[key] = o;
        break;
      }
      case 'fieldsV1':
        if (x !== undefined) out[key] = fieldsV1JSON(x as GoMessage);
        break;
      case 'rawExtension':
      case 'bytes': {
        const raw = field.kind === 'bytes' ? x : (x as GoMessage | undefined)?.['raw'];
        out[key] = raw ?? null;
        break;
      }
      case 'message':
        if (field.repeated) {
          if (x === undefined) {
            if (!field.omitempty) out[key] = null;
          } else out[key] = (x as GoMessage[]).map((item) => messageJSON(field.message!, item));
        } else if (x === undefined) {
          if (!field.pointer) out[key] = messageJSON(field.message!, {});
        } else out[key] = messageJSON(field.message!, x as GoMessage);
        break;
    }
  }
  return out;
}
