import { listMetaSchema, serializeObject } from '@kevents/api';
import type { KubeObject, ListMeta } from '@kevents/api';
import type { FastifyReply } from 'fastify';
import type { Replied } from '../encoding/turn-end-send.js';
import type { Negotiated, Representation } from '../encoding/negotiate.js';
import type { RestScope } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import {
  partialMetadataMismatch,
  partialObjectMetadata,
  partialObjectMetadataList,
} from '../encoding/partial-metadata.js';
import { parseIncludeObject, toTable } from '../table/table.js';
import { q } from '../request/query.js';
import { chunkStream, jsonListChunks, listStreamChunkChars, listStreamMinItems } from '../encoding/list-stream.js';
import type { JSONListShape } from '../encoding/list-stream.js';
import { isPretty, sendJSONStream, sendJSONText, sendProtobuf, sendYAMLStream } from '../encoding/respond.js';
import { yamlListChunks } from '../encoding/yaml-output.js';
import { protobufListInTurns, protobufMediaType } from './protobuf-answer.js';

/** A page of objects and its list metadata's fields (a list's, or a delete-collection's). */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/**
 * Sends a page as negotiated (a list's, or the items a delete-collection removed): the objects,
 * a Table or a PartialObjectMetadataList, in JSON (streamed when large or indented), YAML
 * (streamed) or protobuf (encoded a batch per turn). PartialObjectMetadata of a list is kube's 406.
 */
export async function sendListAnswer<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  reply: FastifyReply,
  negotiated: Negotiated,
  page: ListPage<T>,
): Promise<Replied | FastifyReply> {
  const rep = negotiated.representation;
  if (rep.as === 'PartialObjectMetadata') throw partialMetadataMismatch(scope.view, false);
  if (negotiated.mediaType === protobufMediaType) {
    return sendProtobuf(reply, 200, await protobufListInTurns(scope.view, page.items, listMeta(page), rep));
  }
  const pretty = negotiated.pretty || isPretty(req);
  const shape = listShape(scope, req, rep, page, pretty);
  if (negotiated.mediaType === 'application/yaml') {
    return sendYAMLStream(reply, 200, chunkStream(yamlListChunks(shape, listStreamChunkChars)));
  }
  return sendJSONList(reply, shape, pretty);
}

/**
 * Sends a list as JSON: streamed (chunked) when it has {@link listStreamMinItems} items or more,
 * when it is indented (the indented text of one large item is many times its size), or when its
 * items' texts pass {@link listBufferMaxChars}; else in one write. The bytes are the same.
 */
export function sendJSONList(reply: FastifyReply, shape: JSONListShape, pretty: boolean): Replied | FastifyReply {
  if (pretty || shape.length >= listStreamMinItems) {
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, pretty)));
  }
  const texts = shape.items(0, shape.length);
  let chars = 0;
  for (const t of texts) chars += t.length;
  const encoded: JSONListShape = { ...shape, items: (from, to) => texts.slice(from, to) };
  if (chars > listBufferMaxChars) return sendJSONStream(reply, 200, chunkStream(jsonListChunks(encoded, false)));
  return sendJSONText(reply, 200, [...jsonListChunks(encoded, false)].join(''), { escaped: true });
}

/** The most item text a list is answered with in one write (a few events of up to 3 MiB each make far more). */
const listBufferMaxChars = 8 * 1024 * 1024;

/**
 * A page as negotiated (the objects, a Table, or a PartialObjectMetadataList), element by element,
 * for {@link jsonListChunks} and {@link yamlListChunks}. The compact JSON of an object list's
 * metadata is in the one-pass serializer's order.
 */
function listShape<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  rep: Representation,
  page: ListPage<T>,
  pretty: boolean,
): JSONListShape {
  const view = scope.view;
  const meta = listMeta(page);
  const { items } = page;
  const shape = (envelope: Record<string, unknown>, arrayKey: string, values: (o: readonly T[]) => unknown[]) => ({
    envelope,
    arrayKey,
    length: items.length,
    values: (from: number, to: number) => values(items.slice(from, to)),
    items: (from: number, to: number) => values(items.slice(from, to)).map((v) => JSON.stringify(v)),
  });
  switch (rep.as) {
    case 'Table': {
      const include = parseIncludeObject(q(req.query, 'includeObject'));
      const opts = { version: rep.version, include, nowMs: Date.now() };
      return shape({ ...toTable(scope, [], meta, opts), rows: [] }, 'rows', (o) => toTable(scope, o, meta, opts).rows);
    }
    case 'PartialObjectMetadataList':
      // An empty one keeps `items: null` (kube's conversion appends to a nil slice).
      return shape(
        { ...partialObjectMetadataList(view, [], meta, rep.version), items: items.length ? [] : null },
        'items',
        (o) => o.map((x) => partialObjectMetadata(view, x, rep.version)),
      );
    default: {
      const metadata = pretty ? meta : (JSON.parse(serializeObject(meta, listMetaSchema)) as ListMeta);
      return {
        envelope: { kind: view.listKind, apiVersion: view.groupVersion, metadata, items: [] },
        arrayKey: 'items',
        length: items.length,
        values: (from, to) => items.slice(from, to).map((o) => view.toListItem(o)),
        items: (from, to) => items.slice(from, to).map((o) => view.toJSON(o, false)),
      };
    }
  }
}

/** The list metadata of a page. */
export function listMeta(page: { resourceVersion: string; continue?: string; remainingItemCount?: number }): ListMeta {
  const meta: ListMeta = { resourceVersion: page.resourceVersion };
  if (page.continue) meta.continue = page.continue;
  if (page.remainingItemCount !== undefined && page.continue) meta.remainingItemCount = page.remainingItemCount;
  return meta;
}
