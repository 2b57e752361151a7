import { listMetaSchema, parseJson, serializeObject } from '@kevents/api';
import type { ListMeta } from '@kevents/api';
import type { FastifyReply } from 'fastify';
import type { Replied } from '../encoding/turn-end-send.js';
import type { JSONPage } from '../encoding/object-texts.js';
import type { VersionedView } from '../registry/view.js';
import { negotiateOutput, negotiateWatch } from '../encoding/negotiate.js';
import type { JSONListShape } from '../encoding/list-stream.js';
import type { Handler } from '../scope/rest-scope.js';
import { buildPredicate } from './predicate.js';
import { parseListOptions } from '../request/query.js';
import { formatsOf } from './protobuf-answer.js';
import { listMeta, sendJSONList, sendListAnswer } from './list-answer.js';
import { serveWatch } from './watch.js';
import { isPlain, partOf } from './represent.js';

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
  } else if (predicate === undefined) {
    const objects = await scope.texts.listObjects(req.params.namespace, read, partOf(negotiated));
    if (objects !== undefined) return sendListAnswer(scope, req, reply, negotiated, objects);
  }
  const page = await scope.store.list(req.params.namespace, { ...read, predicate });
  return sendListAnswer(scope, req, reply, negotiated, page);
};

/** Sends a page of item texts (compact JSON): the bytes of the answer built from the objects. */
function sendItemTexts(reply: FastifyReply, view: VersionedView, page: JSONPage): Promise<Replied | FastifyReply> {
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
    escaped: true,
  };
  return sendJSONList(reply, shape, false);
}
