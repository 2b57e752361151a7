import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathNotFound } from '../errors/api-error.js';
import type { OpenAPIInput } from '@kevents/api';
import { acceptsJSON, negotiateOpenAPI } from './accept.js';
import { openAPIV2ProtobufType, openAPIV2ProtobufTypeDeprecated } from './protobuf.js';
import { buildOpenAPIDocuments, v3DocumentURL } from './documents.js';
import type { OpenAPIDocuments, SerializedDocument } from './documents.js';

const oneYearMs = 365 * 24 * 60 * 60 * 1000;

/** Sends a document with its ETag, answering 304 when the client already holds it. */
function sendDocument(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: SerializedDocument,
  docs: OpenAPIDocuments,
  contentType = 'application/json',
): FastifyReply {
  const etag = `"${doc.etag}"`;
  reply.header('Etag', etag).header('Last-Modified', docs.generatedAt.toUTCString());
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*'))
    return reply.code(304).send();
  return reply.code(200).header('Content-Type', contentType).send(doc.body);
}

/** What `/openapi/v2` produces, in kube-openapi's order: JSON, then gnostic protobuf (deprecated and current names). */
const v2Produces = ['application/json', openAPIV2ProtobufTypeDeprecated, openAPIV2ProtobufType] as const;

/**
 * Serves the OpenAPI documents, generated once from what the server serves: `/openapi/v2` (JSON,
 * or gnostic protobuf for kubectl's and helm's Accept, as kube-openapi negotiates; anything else
 * gets 406), `/swagger-2.0.0.pb-v1` (the protobuf form at its old path, which kubectl tries after
 * a 404 or 406), `/openapi/v3` (the index of group versions with hashed
 * URLs) and `/openapi/v3/<api/v1 | apis/<group>/<version>>`. As kube-apiserver does, a stale
 * `hash` redirects (301) to the current one, and a current one makes the answer immutable.
 */
export function registerOpenAPI(app: FastifyInstance, input: OpenAPIInput): OpenAPIDocuments {
  const docs = buildOpenAPIDocuments(input);

  app.get('/openapi/v2', async (req, reply) => {
    reply.header('Vary', 'Accept');
    const chosen = negotiateOpenAPI(req.headers.accept, v2Produces);
    if (chosen < 0) return reply.code(406).send();
    if (chosen === 0) return sendDocument(req, reply, docs.v2, docs);
    return sendDocument(req, reply, docs.v2Protobuf(), docs, openAPIV2ProtobufType);
  });
  app.get('/swagger-2.0.0.pb-v1', async (req, reply) =>
    sendDocument(req, reply, docs.v2Protobuf(), docs, openAPIV2ProtobufType),
  );

  app.get('/openapi/v3', async (req, reply) => sendDocument(req, reply, docs.v3Root, docs));

  app.get<{ Params: { '*': string }; Querystring: { hash?: string } }>('/openapi/v3/*', async (req, reply) => {
    const key = req.params['*'].replace(/\/+$/, '');
    const doc = docs.v3.get(key);
    if (!doc) throw pathNotFound();
    reply.header('Vary', 'Accept');
    if (!acceptsJSON(req.headers.accept)) return reply.code(406).send();
    const hash = req.query.hash;
    if (hash !== undefined && hash !== '') {
      if (hash !== doc.etag) return reply.redirect(v3DocumentURL(key, doc.etag), 301);
      reply
        .header('Cache-Control', 'public, immutable')
        .header('Expires', new Date(Date.now() + oneYearMs).toUTCString());
    }
    return sendDocument(req, reply, doc, docs);
  });

  return docs;
}
