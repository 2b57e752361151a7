import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendStatus } from '../encoding/respond.js';
import { requestInfoOf } from '../request/request-info.js';
import type { RequestInfo, RequestQuery } from '../request/request-info.js';
import { parseRequestTarget } from '../request/request-target.js';
import type { RequestTarget } from '../request/request-target.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by the request-info filter; every later filter and handler reads it. */
    readonly requestInfo: RequestInfo;
  }
}

const targetSlot = Symbol('kevents.requestTarget');
type RawWithTarget = (IncomingMessage | Http2ServerRequest) & { [targetSlot]?: RequestTarget };

/**
 * Fastify's `rewriteUrl`: reads the request target once ({@link parseRequestTarget}), keeps the
 * result on the raw request and gives the router its canonical form, so the route's parameters,
 * RequestInfo, authentication and authorization see the same path. A refused target is routed to
 * `/` and answered by the request-info filter before anything else runs.
 */
export function rewriteRequestTarget(req: IncomingMessage | Http2ServerRequest): string {
  const target = parseRequestTarget(req.url ?? '/');
  (req as RawWithTarget)[targetSlot] = target;
  return target.routeUrl;
}

/** The request target of a request routed through {@link rewriteRequestTarget} (parsed here otherwise). */
export function requestTargetOf(req: FastifyRequest): RequestTarget {
  const raw = req.raw as RawWithTarget;
  return (raw[targetSlot] ??= parseRequestTarget(raw.url ?? '/'));
}

/** The slot the resolved RequestInfo is kept in (a decorated field, so every request has it). */
const slot = 'keventsRequestInfo';
type WithSlot = FastifyRequest & { [slot]: RequestInfo | null };

/**
 * The request-info filter (`WithRequestInfo`): a request whose target could not be read (see
 * {@link parseRequestTarget}) is answered with its 400 or 404 Status before any other filter;
 * {@link RequestInfo} is resolved once per request, on first read, from the parsed target and
 * the parsed query, and kept. The server must route with {@link rewriteRequestTarget}.
 */
export function installRequestInfo(app: FastifyInstance): void {
  app.decorateRequest(slot, null);
  app.decorateRequest('requestInfo', {
    getter(this: FastifyRequest): RequestInfo {
      const req = this as WithSlot;
      return (req[slot] ??= requestInfoOf(req.method, requestTargetOf(req), (req.query ?? {}) as RequestQuery));
    },
  });
  app.addHook('onRequest', (req, reply, done) => {
    const error = requestTargetOf(req).error;
    if (!error) return done();
    if (req.raw.httpVersionMajor === 1) reply.header('Connection', 'close');
    void sendStatus(reply, req, error.code, error.status);
  });
}
