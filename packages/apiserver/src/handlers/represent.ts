import type { KubeObject } from '@kevents/api';
import type { FastifyReply } from 'fastify';
import type { RestScope } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import { q } from '../request/query.js';
import { parseIncludeObject, toTable } from '../table/table.js';
import { negotiateOutput } from '../encoding/negotiate.js';
import type { Negotiated } from '../encoding/negotiate.js';
import { partialMetadataMismatch, partialObjectMetadata } from '../encoding/partial-metadata.js';
import { isPretty, sendNegotiated, sendObject, sendProtobuf, sendYAML } from '../encoding/respond.js';
import { formatsOf, protobufMediaType, protobufObject } from './protobuf-answer.js';
import type { Replied } from '../encoding/turn-end-send.js';
import type { ObjectPart } from '../encoding/object-texts.js';

/** Negotiates a write's response first, as kube's handlers do (a 406 before anything else). */
export const negotiateWrite = (req: RestRequest, scope: RestScope): Negotiated =>
  negotiateOutput(req.headers.accept, formatsOf(scope.view));

/**
 * Refuses, once the request has been read and just before the write, a conversion the answer
 * cannot take (PartialObjectMetadata of a list, PartialObjectMetadataList of one object, a Table
 * with a bad `includeObject`). kube-apiserver finds those out once the write is made and answers
 * 406 or 400 for a write that happened; kevents refuses without writing. (Reads meet those
 * errors where kube does, after a 404.)
 */
export function checkConversion(
  negotiated: Negotiated,
  req: RestRequest,
  scope: RestScope,
  answers: 'object' | 'list' | 'status-or-object',
): void {
  const rep = negotiated.representation;
  if (rep.as === 'Table') parseIncludeObject(q(req.query, 'includeObject'));
  // A delete usually answers with a Status, which every conversion passes through unchanged.
  if (answers === 'status-or-object') return;
  const answersList = answers === 'list';
  if (rep.as === (answersList ? 'PartialObjectMetadata' : 'PartialObjectMetadataList')) {
    throw partialMetadataMismatch(scope.view, !answersList);
  }
}

/** Whether the answer is the object itself as compact JSON: what the handlers' one-pass texts serve. */
export const isPlain = (negotiated: Negotiated, req: RestRequest): boolean =>
  negotiated.mediaType === 'application/json' &&
  negotiated.representation.as === 'object' &&
  !negotiated.pretty &&
  !isPretty(req);

/**
 * What of the objects an answer shows: their metadata alone for a PartialObjectMetadata(List),
 * else all of them (a Table's cells and its rows' objects, protobuf, YAML, indented JSON).
 */
export const partOf = (negotiated: Negotiated): ObjectPart => {
  const as = negotiated.representation.as;
  return as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList' ? 'metadata' : 'object';
};

/**
 * Sends one object as negotiated: itself (compact or indented), a Table of one row, or its
 * PartialObjectMetadata ({@link negotiateFor} refused the rest).
 */
export function sendObjectAs<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  reply: FastifyReply,
  code: number,
  obj: T,
  negotiated: Negotiated,
  warnings: readonly string[] = [],
): Replied {
  const pretty = negotiated.pretty || isPretty(req);
  const rep = negotiated.representation;
  if (negotiated.mediaType === protobufMediaType) {
    if (rep.as === 'PartialObjectMetadataList') throw partialMetadataMismatch(scope.view, true);
    return sendProtobuf(reply, code, protobufObject(scope.view, obj, rep), warnings);
  }
  switch (rep.as) {
    case 'object':
      if (negotiated.mediaType === 'application/yaml')
        return sendYAML(reply, code, scope.view.toJSON(obj, true), warnings);
      return sendObject(reply, code, scope.view, obj, pretty, warnings);
    case 'Table': {
      const include = parseIncludeObject(q(req.query, 'includeObject'));
      const meta = { resourceVersion: obj.metadata.resourceVersion };
      const table = toTable(scope, [obj], meta, { version: rep.version, include });
      return sendNegotiated(reply, code, negotiated, table, pretty, warnings);
    }
    case 'PartialObjectMetadata':
      return sendNegotiated(
        reply,
        code,
        negotiated,
        partialObjectMetadata(scope.view, obj, rep.version),
        pretty,
        warnings,
      );
    default:
      throw partialMetadataMismatch(scope.view, true);
  }
}
