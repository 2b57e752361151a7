import { decodeMessage, messageJSON, type GoMessage } from './decode.js';
import { encodeMessage } from './encode.js';
import { ProtobufDecodeError } from './errors.js';
import { ProtobufReader } from './reader.js';
import { Unknown, WatchEvent } from './schema.js';
import { protobufMessages, type ProtobufType } from './types.js';
import type { MessageSpec } from './schema.js';
import { ProtobufWriter } from './writer.js';

/** The four bytes kube's protobuf serializer puts before every envelope: `k8s\0`. */
export const protobufPrefix: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** The largest body `decodeProtobuf` reads unless told otherwise: kube-apiserver's 3 MiB request limit. */
export const maxProtobufBytes = 3 * 1024 * 1024;

/**
 * An apiVersion as it comes back from Go's `schema.FromAPIVersionAndKind` then `GroupVersion().String()`:
 * `""` and `"/"` are empty, `"/v1"` is `v1`, more than one slash does not parse and is dropped.
 */
export function goAPIVersion(apiVersion: string): string {
  if (apiVersion === '' || apiVersion === '/') return '';
  const i = apiVersion.indexOf('/');
  if (i < 0) return apiVersion;
  if (apiVersion.indexOf('/', i + 1) >= 0) return '';
  return i === 0 ? apiVersion.slice(1) : apiVersion;
}

/** Writes the envelope around the body `body` writes. */
function envelope(apiVersion: string, kind: string, body: (w: ProtobufWriter) => void): Buffer {
  const w = new ProtobufWriter(512);
  for (const b of protobufPrefix) w.byte(b);
  w.byte(0x0a);
  const typeMeta = w.begin();
  w.byte(0x0a);
  w.string(goAPIVersion(apiVersion));
  w.byte(0x12);
  w.string(kind);
  w.end(typeMeta);
  w.byte(0x12);
  const raw = w.begin();
  body(w);
  w.end(raw);
  // contentEncoding and contentType, empty
  w.byte(0x1a);
  w.byte(0x00);
  w.byte(0x22);
  w.byte(0x00);
  return w.finish();
}

/**
 * Encodes an object given in its JSON wire form (exactly what kube-apiserver's JSON for it would
 * hold: RFC 3339 times, MicroTime with 6 fraction digits, int64 as numbers,
 * managedFields[].fieldsV1 as a JSON object, kind and apiVersion present) into kube's protobuf
 * envelope: `k8s\0` + Unknown{typeMeta{apiVersion, kind} from the object, raw}. The bytes are
 * those kube-apiserver writes for the same object. A `meta/v1.WatchEvent`'s `object` is the
 * embedded object's envelope (a `Uint8Array`). Throws `TypeError` on a time that is not RFC 3339.
 */
export function encodeProtobuf(object: Record<string, unknown>, type: ProtobufType): Buffer {
  const spec = protobufMessages[type];
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return envelope(str(object['apiVersion']), str(object['kind']), (w) => encodeMessage(w, spec, object));
}

/** Each list message's spec with its `items` field alone. */
const itemsOnly = new Map<ProtobufType, MessageSpec>();

/**
 * The `items` fields of a list message (field 2 of every Kubernetes list but metav1beta1's
 * PartialObjectMetadataList, whose items are field 1) for some of
 * its items, as {@link encodeProtobuf} writes them inside the list: a large list can be encoded a
 * batch at a time, then put together by {@link encodeListEnvelope}.
 */
export function encodeListItems(items: readonly unknown[], listType: ProtobufType): Buffer {
  let only = itemsOnly.get(listType);
  if (only === undefined) {
    const spec = protobufMessages[listType];
    only = { ...spec, encodeOrder: spec.encodeOrder.filter((f) => f.json === 'items') };
    itemsOnly.set(listType, only);
  }
  const w = new ProtobufWriter(1024);
  encodeMessage(w, only, { items });
  return w.finish();
}

/**
 * A list's envelope from the list's other fields (`list`, whose `items` are ignored) and the bytes
 * of its items from {@link encodeListItems}, in order: the bytes {@link encodeProtobuf} writes for
 * the whole list.
 */
export function encodeListEnvelope(
  list: Record<string, unknown>,
  listType: ProtobufType,
  itemBytes: readonly Uint8Array[],
): Buffer {
  const spec = protobufMessages[listType];
  const itemsNo = spec.encodeOrder.find((f) => f.json === 'items')!.no;
  const before: MessageSpec = { ...spec, encodeOrder: spec.encodeOrder.filter((f) => f.no < itemsNo) };
  const after: MessageSpec = { ...spec, encodeOrder: spec.encodeOrder.filter((f) => f.no > itemsNo) };
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return envelope(str(list['apiVersion']), str(list['kind']), (w) => {
    encodeMessage(w, before, list);
    for (const b of itemBytes) w.raw(b);
    encodeMessage(w, after, list);
  });
}

/**
 * {@link encodeListEnvelope} in pieces, so that a large list is written without being copied into
 * one buffer: a head (the `k8s\0` prefix, the typeMeta, the raw message's length and the list's
 * fields before its items), then `itemBytes` themselves, then a tail (the fields after the items,
 * and the empty contentEncoding and contentType). Their bytes, one after another, are those
 * {@link encodeListEnvelope} returns. Putting six 3 MB Events in one buffer took 40-110 ms of
 * copying in one turn of the event loop.
 */
export function encodeListEnvelopeParts(
  list: Record<string, unknown>,
  listType: ProtobufType,
  itemBytes: readonly Uint8Array[],
): Uint8Array[] {
  const spec = protobufMessages[listType];
  const itemsNo = spec.encodeOrder.find((f) => f.json === 'items')!.no;
  const fields = (keep: (no: number) => boolean): Buffer => {
    const w = new ProtobufWriter(256);
    encodeMessage(w, { ...spec, encodeOrder: spec.encodeOrder.filter((f) => keep(f.no)) }, list);
    return w.finish();
  };
  const before = fields((no) => no < itemsNo);
  const after = fields((no) => no > itemsNo);
  let rawLength = before.length + after.length;
  for (const b of itemBytes) rawLength += b.length;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const head = new ProtobufWriter(512);
  for (const b of protobufPrefix) head.byte(b);
  head.byte(0x0a);
  const typeMeta = head.begin();
  head.byte(0x0a);
  head.string(goAPIVersion(str(list['apiVersion'])));
  head.byte(0x12);
  head.string(str(list['kind']));
  head.end(typeMeta);
  head.byte(0x12);
  head.uvarint(rawLength);
  head.raw(before);
  // contentEncoding and contentType, empty
  const tail = Buffer.concat([after, Uint8Array.of(0x1a, 0x00, 0x22, 0x00)]);
  return [head.finish(), ...itemBytes, tail];
}

/** Options of `decodeProtobuf`. */
export interface DecodeProtobufOptions {
  /** The largest body read (default `maxProtobufBytes`, 3 MiB); larger ones fail with `TooLarge`. */
  readonly maxBytes?: number;
  /**
   * The most fields the body may hold, counted as they are read (the envelope's and the object's:
   * every field of every embedded message, each repeated occurrence, each map entry, unknown
   * fields too; not the fields of a time): past it, `TooManyFields` before the rest is read. A field is about one value of the
   * object's JSON (a member or an array element). Unbounded by default.
   */
  readonly maxFields?: number;
}

/**
 * Decodes kube's envelope into the JSON wire form (kind and apiVersion from the envelope's
 * typeMeta, left out when empty), as kube-apiserver's decoder then JSON encoder would show it:
 * zero times as null where Go's JSON writes null, omitempty fields left out as Go's json tags say,
 * nil lists without omitempty (`items`) as null, unknown fields skipped, repeated fields appended,
 * embedded messages merged. A `meta/v1.WatchEvent`'s `object` is its raw bytes (a `Uint8Array`,
 * the embedded envelope). Throws only `ProtobufDecodeError`.
 */
export function decodeProtobuf(
  data: Uint8Array,
  type: ProtobufType,
  options: DecodeProtobufOptions = {},
): Record<string, unknown> {
  const spec = protobufMessages[type];
  const max = options.maxBytes ?? maxProtobufBytes;
  if (data.length > max)
    throw new ProtobufDecodeError('TooLarge', `the protobuf body is ${data.length} bytes, more than ${max}`);
  if (data.length === 0) throw new ProtobufDecodeError('EmptyData', 'empty data');
  for (let i = 0; i < protobufPrefix.length; i++)
    if (data[i] !== protobufPrefix[i])
      throw new ProtobufDecodeError(
        'MissingPrefix',
        'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
      );
  if (data.length === protobufPrefix.length) throw new ProtobufDecodeError('EmptyBody', 'empty body');
  const unknown: GoMessage = {};
  const envelopeReader = new ProtobufReader(data, protobufPrefix.length);
  if (options.maxFields !== undefined) envelopeReader.fieldsLeft = options.maxFields;
  decodeMessage(envelopeReader, Unknown, data.length, unknown);
  const raw = (unknown['raw'] as Uint8Array | undefined) ?? new Uint8Array(0);
  const object: GoMessage = {};
  const reader = new ProtobufReader(raw, 0);
  // The envelope's fields count too (a million repeated contentType fields took 120 ms to read).
  reader.fieldsLeft = envelopeReader.fieldsLeft;
  decodeMessage(reader, spec, raw.length, object);
  const typeMeta = (unknown['typeMeta'] as GoMessage | undefined) ?? {};
  const out: Record<string, unknown> = {};
  const kind = (typeMeta['kind'] as string | undefined) ?? '';
  const apiVersion = goAPIVersion((typeMeta['apiVersion'] as string | undefined) ?? '');
  if (kind !== '') out['kind'] = kind;
  if (apiVersion !== '') out['apiVersion'] = apiVersion;
  return messageJSON(spec, object, out);
}

/**
 * A watch event frame body, as kube-apiserver's watch handler writes it for
 * `application/vnd.kubernetes.protobuf;stream=watch`: `WatchEvent{type, object:
 * RawExtension{raw: objectEnvelope}}` with no prefix and no envelope of its own (the protobuf
 * media type's stream serializer is apimachinery's `RawSerializer`, which writes the message
 * alone; `metav1.AddToGroupVersion` registers WatchEvent in every group version, so the versioning
 * codec accepts it, but the group version leaves no trace in the bytes). The 4-byte big-endian
 * length prefix of the frame is the caller's. `groupVersion` is the watched resource's, kept for
 * callers that also write JSON frames; it does not change the bytes.
 */
export function encodeWatchEvent(type: string, objectEnvelope: Buffer, groupVersion?: string): Buffer {
  void groupVersion;
  const w = new ProtobufWriter(objectEnvelope.length + type.length + 16);
  encodeMessage(w, WatchEvent, { type, object: objectEnvelope });
  return w.finish();
}

/**
 * Reads a watch event frame body (without its length prefix) as `encodeWatchEvent` writes it:
 * the event type and the embedded object's envelope (null when the RawExtension holds none), for
 * `decodeProtobuf`. Throws only `ProtobufDecodeError`.
 */
export function decodeWatchEvent(
  frame: Uint8Array,
  options: DecodeProtobufOptions = {},
): { type: string; object: Uint8Array | null } {
  const max = options.maxBytes ?? maxProtobufBytes;
  if (frame.length > max)
    throw new ProtobufDecodeError('TooLarge', `the protobuf body is ${frame.length} bytes, more than ${max}`);
  const event: GoMessage = {};
  decodeMessage(new ProtobufReader(frame, 0), WatchEvent, frame.length, event);
  const json = messageJSON(WatchEvent, event);
  return { type: json['type'] as string, object: json['object'] as Uint8Array | null };
}
