import { encodeListEnvelopeParts, encodeListItems, encodeProtobuf } from '@kevents/api';
import type { KubeObject, ListMeta, ProtobufType } from '@kevents/api';
import type { MetaVersion, OutputFormats, Representation } from '../encoding/negotiate.js';
import { partialObjectMetadata, partialObjectMetadataList } from '../encoding/partial-metadata.js';
import type { VersionedView } from '../registry/view.js';
import type { PageItems } from '../encoding/object-texts.js';

/** kube-apiserver's protobuf media type (`runtime.ContentTypeProtobuf`). */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const withProtobuf: OutputFormats = { protobuf: true };
const textOnly: OutputFormats = { protobuf: false };

/** What negotiation may offer for a view: protobuf when its kinds have messages. */
export const formatsOf = (view: VersionedView): OutputFormats => (view.protobuf ? withProtobuf : textOnly);

const messages = (view: VersionedView): NonNullable<VersionedView['protobuf']> => {
  if (!view.protobuf) throw new Error(`no protobuf messages for ${view.groupVersion} ${view.kind}`);
  return view.protobuf;
};

/** The message of a PartialObjectMetadataList: v1beta1's numbers its fields the other way round. */
const partialListType = (version: MetaVersion): ProtobufType =>
  version === 'v1' ? 'meta/v1.PartialObjectMetadataList' : 'meta/v1beta1.PartialObjectMetadataList';

/** One object as kube writes it in protobuf: the object, or its PartialObjectMetadata (negotiation allows nothing else). */
export function protobufObject<T extends KubeObject>(view: VersionedView<T>, obj: T, rep: Representation): Buffer {
  if (rep.as === 'PartialObjectMetadata') {
    // meta.k8s.io/v1beta1's PartialObjectMetadata is v1's message (a Go alias) in a v1beta1 envelope.
    return encodeProtobuf(partialObjectMetadata(view, obj, rep.version), 'meta/v1.PartialObjectMetadata');
  }
  return encodeProtobuf(view.toExternal(obj), messages(view).object);
}

/** A list as kube writes it in protobuf: the object list, or a PartialObjectMetadataList. */
export function protobufList<T extends KubeObject>(
  view: VersionedView<T>,
  items: readonly T[],
  meta: ListMeta,
  rep: Representation,
): Buffer {
  if (rep.as === 'PartialObjectMetadataList') {
    return encodeProtobuf(partialObjectMetadataList(view, items, meta, rep.version), partialListType(rep.version));
  }
  const list = {
    kind: view.listKind,
    apiVersion: view.groupVersion,
    metadata: meta,
    items: items.map((o) => view.toListItem(o)),
  };
  return encodeProtobuf(list, messages(view).list);
}

/**
 * {@link protobufList} for a list of any length: its items are encoded one by one, and the event
 * loop is let go after every {@link protobufBatch} items or {@link protobufTurnBytes} bytes (a
 * protobuf list is one length-prefixed message, so it is sent whole, as kube does; the JSON and
 * YAML lists are streamed instead), so that other requests are served meanwhile. The list comes
 * back in pieces (`encodeListEnvelopeParts`), never copied into one buffer: their bytes, one after
 * another, are {@link protobufList}'s.
 */
export async function protobufListInTurns<T extends KubeObject>(
  view: VersionedView<T>,
  items: PageItems<T>,
  meta: ListMeta,
  rep: Representation,
): Promise<Uint8Array[]> {
  if (items.length <= 1) return [protobufList(view, items.slice(0, items.length), meta, rep)];
  const partial = rep.as === 'PartialObjectMetadataList';
  const version: MetaVersion = rep.as === 'PartialObjectMetadataList' ? rep.version : 'v1';
  const type = partial ? partialListType(version) : messages(view).list;
  const parts: Buffer[] = [];
  let count = 0;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    const o = items.slice(i, i + 1)[0]!;
    const part = encodeListItems([partial ? partialObjectMetadata(view, o, version) : view.toListItem(o)], type);
    parts.push(part);
    bytes += part.length;
    if (++count >= protobufBatch || bytes >= protobufTurnBytes) {
      count = 0;
      bytes = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  const list = partial
    ? { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${version}`, metadata: meta }
    : { kind: view.listKind, apiVersion: view.groupVersion, metadata: meta };
  return encodeListEnvelopeParts(list, type, parts);
}

/** Items a protobuf list encodes per turn of the event loop, at most. */
export const protobufBatch = 256;

/** Bytes a protobuf list encodes per turn of the event loop, about (one item past it at most). */
export const protobufTurnBytes = 512 * 1024;

/** A Status (a delete's Success, an in-stream watch ERROR) in protobuf. */
export const protobufStatus = (status: unknown): Buffer =>
  encodeProtobuf(status as Record<string, unknown>, 'meta/v1.Status');
