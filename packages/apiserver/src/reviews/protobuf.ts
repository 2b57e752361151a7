import protobuf from 'protobufjs';
import { badRequest } from '../errors/api-error.js';
import { tooManyValues } from '../registry/object-values.js';
import { defaultValueLimits, type ValueLimits } from '../registry/value-limits.js';

/** Kubernetes' protobuf media type (`runtime.ContentTypeProtobuf`), which kubectl 1.34+ sends its reviews in. */
export const kubernetesProtobufType = 'application/vnd.kubernetes.protobuf';

/** The 4 bytes in front of every Kubernetes protobuf object (`protobuf.protoEncodingPrefix`). */
const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/*
 * The messages a self-subject review request carries, from k8s.io/apimachinery
 * `pkg/runtime/generated.proto` (Unknown, TypeMeta), `pkg/apis/meta/v1/generated.proto`
 * (ObjectMeta, Time, the selector requirements), k8s.io/api `authorization/v1/generated.proto`
 * and `authentication/v1/generated.proto` (the same field numbers in v1beta1 and v1alpha1). Only
 * what the reviews read is declared: ObjectMeta fields a review must leave empty, and the specs.
 */
const proto = `
syntax = "proto2";
package kevents.k8s;
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; optional string contentEncoding = 3; optional string contentType = 4; }
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7; optional Time creationTimestamp = 8;
  optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10; map<string, string> labels = 11;
  map<string, string> annotations = 12; repeated bytes ownerReferences = 13; repeated string finalizers = 14;
}
message FieldSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message LabelSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message FieldSelectorAttributes { optional string rawSelector = 1; repeated FieldSelectorRequirement requirements = 2; }
message LabelSelectorAttributes { optional string rawSelector = 1; repeated LabelSelectorRequirement requirements = 2; }
message ResourceAttributes {
  optional string namespace = 1; optional string verb = 2; optional string group = 3; optional string version = 4;
  optional string resource = 5; optional string subresource = 6; optional string name = 7;
  optional FieldSelectorAttributes fieldSelector = 8; optional LabelSelectorAttributes labelSelector = 9;
}
message NonResourceAttributes { optional string path = 1; optional string verb = 2; }
message SelfSubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; }
message SelfSubjectAccessReview { optional ObjectMeta metadata = 1; optional SelfSubjectAccessReviewSpec spec = 2; }
message SelfSubjectRulesReviewSpec { optional string namespace = 1; }
message SelfSubjectRulesReview { optional ObjectMeta metadata = 1; optional SelfSubjectRulesReviewSpec spec = 2; }
message SelfSubjectReview { optional ObjectMeta metadata = 1; }
`;

let root: protobuf.Root | undefined;
const types = (): protobuf.Root =>
  (root ??= protobuf.parse(proto, { keepCase: true }).root.resolveAll() as protobuf.Root);

/**
 * How many fields `data` holds as a message of `type`, counting no further than past `limit`:
 * each field (unknown ones too), each repeated occurrence, each map entry and a map entry's keys
 * and values past its first two, at every depth of the declared messages. Undefined where the
 * bytes are no such message (the decoder then answers for them). protobufjs decodes 250,000
 * labels (2.7 MB) in 1.5-2 s; counting their tags first costs a few milliseconds.
 */
function countFields(data: Uint8Array, type: protobuf.Type, limit: number): number | undefined {
  try {
    return fieldsIn(protobuf.Reader.create(data), data.length, type, limit);
  } catch {
    return undefined;
  }
}

function fieldsIn(r: protobuf.Reader, end: number, type: protobuf.Type, limit: number): number {
  let n = 0;
  while (r.pos < end && n <= limit) {
    const tag = r.uint32();
    n++;
    const field = type.fieldsById[tag >>> 3];
    const wire = tag & 7;
    if (wire !== 2 || field === undefined) {
      r.skipType(wire);
      continue;
    }
    const post = r.uint32() + r.pos;
    if (post > end) throw new RangeError('index out of range');
    if (field.map) {
      for (let inner = 0; r.pos < post && n <= limit;) {
        const t = r.uint32();
        if (++inner > 2) n++;
        r.skipType(t & 7);
      }
    } else if (field.resolvedType instanceof protobuf.Type) {
      n += fieldsIn(r, post, field.resolvedType, limit - n);
    }
    r.pos = post;
  }
  return n;
}

/** Refuses a body of more fields than a body may hold values (`limits.bodyValues`, less `used`), as a JSON body is refused. */
function refuseManyFields(data: Uint8Array, type: protobuf.Type, limits: ValueLimits, used = 0): number {
  const limit = limits.bodyValues - used;
  const n = countFields(data, type, limit);
  if (n !== undefined && n > limit) throw tooManyValues(limits.objectValues);
  return n ?? 0;
}

type Obj = Record<string, unknown>;

/** ObjectMeta as JSON would carry it: zero times dropped (a zero `metav1.Time` is JSON null). */
function metaJSON(meta: Obj | undefined): Obj {
  if (!meta) return {};
  const out: Obj = {};
  for (const [k, v] of Object.entries(meta)) {
    if ((k === 'creationTimestamp' || k === 'deletionTimestamp') && v && typeof v === 'object') {
      const t = v as { seconds?: number | string; nanos?: number };
      if (!Number(t.seconds ?? 0) && !Number(t.nanos ?? 0)) continue;
      out[k] = new Date(Number(t.seconds ?? 0) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      continue;
    }
    out[k] = v;
  }
  return out;
}

/**
 * Decodes a review sent as Kubernetes protobuf (`k8s\\0` + `runtime.Unknown` whose `raw` is the
 * object) into the JSON shape the review handlers take. The envelope's apiVersion and kind must
 * be the expected ones, as the protobuf serializer's decode into a typed object requires. A body
 * of more fields than `limits.bodyValues` is a 413, found before protobufjs decodes it.
 */
export function decodeReviewProtobuf(
  body: Buffer,
  expected: { groupVersion: string; kind: string },
  limits: ValueLimits = defaultValueLimits,
): Obj {
  if (body.length < magic.length || !body.subarray(0, magic.length).equals(magic)) {
    throw badRequest('provided object is not a valid Kubernetes protobuf message: missing the magic prefix');
  }
  let unknown: Obj;
  let object: Obj;
  const t = types();
  const envelope = t.lookupType('kevents.k8s.Unknown');
  const type = t.lookupType(`kevents.k8s.${expected.kind}`);
  const envelopeFields = refuseManyFields(body.subarray(4), envelope, limits);
  try {
    unknown = envelope.toObject(envelope.decode(body.subarray(4)), { longs: Number, bytes: Buffer });
  } catch (err) {
    throw badRequest(`unable to decode the protobuf body: ${(err as Error).message}`);
  }
  const raw = (unknown['raw'] as Buffer | undefined) ?? Buffer.alloc(0);
  refuseManyFields(raw, type, limits, envelopeFields);
  try {
    object = type.toObject(type.decode(raw), { longs: Number, arrays: false, objects: false });
  } catch (err) {
    throw badRequest(`unable to decode the protobuf body: ${(err as Error).message}`);
  }
  const tm = (unknown['typeMeta'] ?? {}) as { apiVersion?: string; kind?: string };
  if ((tm.kind ?? '') !== '' && tm.kind !== expected.kind) {
    throw badRequest(`the kind in the data (${tm.kind}) does not match the expected kind (${expected.kind})`);
  }
  if ((tm.apiVersion ?? '') !== '' && tm.apiVersion !== expected.groupVersion) {
    throw badRequest(
      `the API version in the data (${tm.apiVersion}) does not match the expected API version (${expected.groupVersion})`,
    );
  }
  return { ...object, metadata: metaJSON(object['metadata'] as Obj | undefined) };
}
