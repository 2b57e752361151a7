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
import { isPretty, sendJSON, sendJSONStream, sendJSONText, sendYAML, sendYAMLStream } from '../encoding/respond.js';
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
  const negotiated = negotiateOutput(req.headers.accept);
  const opts = parseListOptions(req.query, req.requestInfo.verb === 'watch');
  const predicate = buildPredicate(scope, opts.labelSelector, opts.fieldSelector);
  if (opts.watch) return serveWatch(scope, req, reply, opts, predicate, negotiateWatch(req.headers.accept));
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
  const meta = listMeta(page);
  const items = page.items;
  const stream = items.length >= listStreamMinItems;
  if (rep.as === 'PartialObjectMetadata') throw partialMetadataMismatch(view, false);
  if (negotiated.mediaType === 'application/yaml') {
    if (!stream) return sendYAML(reply, 200, listJSONText(scope, req, rep, page));
    const chunks = yamlListChunks(yamlListShape(scope, req, rep, page), listStreamChunkChars);
    return sendYAMLStream(reply, 200, chunkStream(chunks));
  }
  if (rep.as === 'PartialObjectMetadataList') {
    const list = partialObjectMetadataList(view, items, meta, rep.version);
    if (!stream) return sendJSON(reply, 200, list, pretty);
    const partials = (from: number, to: number): unknown[] =>
      items.slice(from, to).map((o) => partialObjectMetadata(view, o, rep.version));
    const shape: JSONListShape = {
      envelope: { ...list, items: [] },
      arrayKey: 'items',
      length: items.length,
      values: partials,
      items: (from, to) => partials(from, to).map((p) => JSON.stringify(p)),
    };
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, pretty)));
  }
  if (rep.as === 'Table') {
    const include = parseIncludeObject(q(req.query, 'includeObject'));
    const tableOpts = { version: rep.version, include, nowMs: Date.now() };
    if (!stream) return sendJSON(reply, 200, toTable(scope, items, meta, tableOpts), pretty);
    const rowsOf = (from: number, to: number): unknown[] => toTable(scope, items.slice(from, to), meta, tableOpts).rows;
    const shape: JSONListShape = {
      envelope: { ...toTable(scope, [], meta, tableOpts), rows: [] },
      arrayKey: 'rows',
      length: items.length,
      values: rowsOf,
      items: (from, to) => rowsOf(from, to).map((r) => JSON.stringify(r)),
    };
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, pretty)));
  }
  if (stream) {
    const shape: JSONListShape = {
      // The metadata as the one-pass serializer orders it (the buffered answer's bytes).
      envelope: {
        kind: view.listKind,
        apiVersion: view.groupVersion,
        metadata: pretty ? meta : (JSON.parse(serializeObject(meta, listMetaSchema)) as ListMeta),
        items: [],
      },
      arrayKey: 'items',
      length: items.length,
      values: (from, to) => items.slice(from, to).map((o) => view.toListItem(o)),
      items: (from, to) => items.slice(from, to).map((o) => view.toJSON(o, false)),
    };
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, pretty)));
  }
  if (pretty) {
    const listItems = items.map((o) => view.toListItem(o));
    return sendJSON(
      reply,
      200,
      { kind: view.listKind, apiVersion: view.groupVersion, metadata: meta, items: listItems },
      true,
    );
  }
  const head = `{"kind":${JSON.stringify(view.listKind)},"apiVersion":${JSON.stringify(view.groupVersion)},"metadata":${serializeObject(meta, listMetaSchema)},"items":[`;
  return sendJSONText(reply, 200, `${head}${items.map((o) => view.toJSON(o, false)).join(',')}]}`);
};

/** The compact JSON of a page as negotiated (the object list, a Table, or a PartialObjectMetadataList), for YAML. */
function listJSONText<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  rep: Representation,
  page: { items: readonly T[]; resourceVersion: string; continue?: string; remainingItemCount?: number },
): string {
  const view = scope.view;
  const meta = listMeta(page);
  switch (rep.as) {
    case 'Table': {
      const include = parseIncludeObject(q(req.query, 'includeObject'));
      return JSON.stringify(toTable(scope, page.items, meta, { version: rep.version, include }));
    }
    case 'PartialObjectMetadataList':
      return JSON.stringify(partialObjectMetadataList(view, page.items, meta, rep.version));
    default: {
      const head = `{"kind":${JSON.stringify(view.listKind)},"apiVersion":${JSON.stringify(view.groupVersion)},"metadata":${serializeObject(meta, listMetaSchema)},"items":[`;
      return `${head}${page.items.map((o) => view.toJSON(o, false)).join(',')}]}`;
    }
  }
}

/** A large page as negotiated, element by element, for YAML ({@link yamlListChunks}). */
function yamlListShape<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  rep: Representation,
  page: { items: readonly T[]; resourceVersion: string; continue?: string; remainingItemCount?: number },
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
      return shape({ ...partialObjectMetadataList(view, [], meta, rep.version), items: [] }, 'items', (o) =>
        o.map((x) => partialObjectMetadata(view, x, rep.version)),
      );
    default:
      return shape({ kind: view.listKind, apiVersion: view.groupVersion, metadata: meta, items: [] }, 'items', (o) =>
        o.map((x) => view.toListItem(x)),
      );
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
function sendItemTexts(reply: FastifyReply, view: VersionedView, page: JSONPage): Replied {
  const meta = listMeta(page);
  if (page.length >= listStreamMinItems) {
    const shape: JSONListShape = {
      envelope: {
        kind: view.listKind,
        apiVersion: view.groupVersion,
        metadata: JSON.parse(serializeObject(meta, listMetaSchema)) as ListMeta,
        items: [],
      },
      arrayKey: 'items',
      length: page.length,
      values: (from, to) => page.texts(from, to).map((t) => parseJson(t)),
      items: page.texts,
    };
    return sendJSONStream(reply, 200, chunkStream(jsonListChunks(shape, false)));
  }
  const head = `{"kind":${JSON.stringify(view.listKind)},"apiVersion":${JSON.stringify(view.groupVersion)},"metadata":${serializeObject(meta, listMetaSchema)},"items":[`;
  return sendJSONText(reply, 200, `${head}${page.texts(0, page.length).join(',')}]}`);
}
