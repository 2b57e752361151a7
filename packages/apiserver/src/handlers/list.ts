import { listMetaSchema, parseJson, serializeObject } from '@kevents/api';
import type { ListMeta } from '@kevents/api';
import type { FastifyReply } from 'fastify';
import type { Replied } from '../encoding/turn-end-send.js';
import type { JSONPage } from '../encoding/object-texts.js';
import type { VersionedView } from '../registry/view.js';
import { negotiateOutput, negotiateWatch } from '../encoding/negotiate.js';
import type { Representation } from '../encoding/negotiate.js';
import type { RestScope } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import type { KubeObject } from '@kevents/api';
import {
  partialMetadataMismatch,
  partialObjectMetadata,
  partialObjectMetadataList,
} from '../encoding/partial-metadata.js';
import { parseIncludeObject, toTable } from '../table/table.js';
import type { Handler } from '../scope/rest-scope.js';
import { buildPredicate } from './predicate.js';
import { parseListOptions, q } from '../request/query.js';
import { chunkStream, jsonListChunks, listStreamChunkChars, listStreamMinItems } from '../encoding/list-stream.js';
import type { JSONListShape } from '../encoding/list-stream.js';
import { isPretty, sendJSONStream, sendJSONText, sendProtobuf, sendYAMLStream } from '../encoding/respond.js';
import { formatsOf, protobufListInTurns, protobufMediaType } from './protobuf-answer.js';
import { yamlListChunks } from '../encoding/yaml-output.js';
import { serveWatch } from './watch.js';
import { isPlain } from './represent.js';

/**
 * GET a collection: a list, or a watch when RequestInfo says `watch` (`?watch=true` or a legacy
 * `/watch/` path). A list of {@link listStreamMinItems} items or more is encoded as a stream,
 * chunk by chunk, as kube-apiserver streams list JSON item by item: the bytes are those of the
 * buffered answer, but other requests are served meanwhile and memory holds one chunk.
 */
export const listHandler: Handler = async (scope, req, reply) => {
  const formats = formatsOf(scope.view);
  const negotiated = negotiateOutput(req.headers.accept, formats);
  const opts = parseListOptions(req.query, req.requestInfo.verb === 'watch');
  const predicate = buildPredicate(scope, opts.labelSelector, opts.fieldSelector);
  if (opts.watch) return serveWatch(scope, req, reply, opts, predicate, negotiateWatch(req.headers.accept, formats));
  const rep = negotiated.representation;
  const pretty = negotiated.pretty || isPretty(req);
  const view = scope.view;
  const read = {
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    limit: opts.limit,
    continue: opts.continue,
  };
  if (predicate === undefined && isPlain(negotiated, req)) {
    const texts = await scope.texts.listJSON(req.params.namespace, read);
    if (texts !== undefined) return sendItemTexts(reply, view, texts);
  }
  const page = await scope.store.list(req.params.namespace, { ...read, predicate });
  if (rep.as === 'PartialObjectMetadata') throw partialMetadataMismatch(view, false);
  if (negotiated.mediaType === protobufMediaType) {
    return sendProtobuf(reply, 200, await protobufListInTurns(view, page.items, listMeta(page), rep));
  }
  const shape = listShape(scope, req, rep, page, pretty);
  if (negotiated.mediaType === 'application/yaml') {
    return sendYAMLStream(reply, 200, chunkStream(yamlListChunks(shape, listStreamChunkChars)));
  }
  return sendJSONList(reply, shape, pretty);
};

/**
 * Sends a list as JSON: streamed (chunked) when it has {@link listStreamMinItems} items or more,
 * when it is indented (the indented text of one large item is many times its size), or when its
 * items' texts pass {@link listBufferMaxChars}; else in one write. The bytes are the same.
 */
function sendJSONList(reply: FastifyReply, shape: JSONListShape, pretty: boolean): Replied | FastifyReply {
  if (pretty || shape.length >= listStreamMinItems) {
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, pretty)));
  }
  const texts = shape.items(0, shape.length);
  let chars = 0;
  for (const t of texts) chars += t.length;
  const encoded: JSONListShape = { ...shape, items: (from, to) => texts.slice(from, to) };
  if (chars > listBufferMaxChars) return sendJSONStream(reply, 200, chunkStream(jsonListChunks(encoded, false)));
  return sendJSONText(reply, 200, [...jsonListChunks(encoded, false)].join(''));
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
  page: { items: readonly T[]; resourceVersion: string; continue?: string; remainingItemCount?: number },
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
function listMeta(page: { resourceVersion: string; continue?: string; remainingItemCount?: number }): ListMeta {
  const meta: ListMeta = { resourceVersion: page.resourceVersion };
  if (page.continue) meta.continue = page.continue;
  if (page.remainingItemCount !== undefined && page.continue) meta.remainingItemCount = page.remainingItemCount;
  return meta;
}

/** Sends a page of item texts (compact JSON): the bytes of the answer built from the objects. */
function sendItemTexts(reply: FastifyReply, view: VersionedView, page: JSONPage): Replied | FastifyReply {
  const shape: JSONListShape = {
    envelope: {
      kind: view.listKind,
      apiVersion: view.groupVersion,
      metadata: JSON.parse(serializeObject(listMeta(page), listMetaSchema)) as ListMeta,
      items: [],
    },
    arrayKey: 'items',
    length: page.length,
    values: (from, to) => page.texts(from, to).map((t) => parseJson(t)),
    items: page.texts,
  };
  return sendJSONList(reply, shape, false);
}
