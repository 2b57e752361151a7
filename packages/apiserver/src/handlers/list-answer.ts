import { listMetaSchema, serializeObject } from '@kevents/api';
import type { KubeObject, ListMeta } from '@kevents/api';
import type { FastifyReply } from 'fastify';
import type { Replied } from '../encoding/turn-end-send.js';
import type { PageItems } from '../encoding/object-texts.js';
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
import { isPretty, sendJSONStream, sendJSONText, sendProtobufParts, sendYAMLStream } from '../encoding/respond.js';
import { yamlListChunks } from '../encoding/yaml-output.js';
import { protobufListInTurns, protobufMediaType } from './protobuf-answer.js';

/**
 * A page of objects and its list metadata's fields (a list's, or a delete-collection's); its
 * items an array, or decoded a slice at a time as they are encoded.
 */
export interface ListPage<T> {
  readonly items: PageItems<T>;
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
    return sendProtobufParts(reply, 200, await protobufListInTurns(scope.view, page.items, listMeta(page), rep));
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
 * items' texts pass {@link listBufferMaxChars}; else in one write. The bytes are the same. The
 * items of a list sent in one write are encoded in turns of the event loop of about
 * {@link listTurnChars} (six Table rows of 3 MB Events held it in one turn).
 */
export async function sendJSONList(
  reply: FastifyReply,
  shape: JSONListShape,
  pretty: boolean,
): Promise<Replied | FastifyReply> {
  if (pretty || shape.length >= listStreamMinItems) {
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, pretty)));
  }
  const texts: string[] = [];
  let chars = 0;
  let turn = 0;
  // Encoded a step at a time, each step sized from the last to about half a turn's text (one
  // item at first; small items 64 at a time).
  for (let from = 0, step = 1; from < shape.length && chars <= listBufferMaxChars;) {
    const to = Math.min(shape.length, from + step);
    let stepChars = 0;
    for (const t of shape.items(from, to)) {
      texts.push(t);
      stepChars += t.length;
    }
    chars += stepChars;
    turn += stepChars;
    step = Math.max(1, Math.min(64, Math.floor(((to - from) * listTurnChars) / (2 * Math.max(1, stepChars)))));
    from = to;
    if (turn >= listTurnChars && from < shape.length) {
      turn = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  const encoded: JSONListShape = {
    ...shape,
    items: (from, to) => {
      if (to <= texts.length) return texts.slice(from, to);
      const rest = Math.max(from, texts.length);
      return [...texts.slice(from, rest), ...shape.items(rest, to)];
    },
  };
  if (chars > listBufferMaxChars) return sendJSONStream(reply, 200, chunkStream(jsonListChunks(encoded, false)));
  return sendJSONText(reply, 200, [...jsonListChunks(encoded, false)].join(''), { escaped: true });
}

/** About how many characters of item text a list encodes per turn of the event loop. */
export const listTurnChars = 512 * 1024;

/** The most item text a list is answered with in one write (a few events of up to 3 MiB each make far more). */
export const listBufferMaxChars = 8 * 1024 * 1024;

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
