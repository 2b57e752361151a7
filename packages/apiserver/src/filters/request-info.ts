import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveRequestInfo } from '../request/request-info.js';
import type { RequestInfo, RequestQuery } from '../request/request-info.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by the request-info filter; every later filter and handler reads it. */
    readonly requestInfo: RequestInfo;
  }
}

/** The slot the resolved RequestInfo is kept in (a decorated field, so every request has it). */
const slot = 'keventsRequestInfo';
type WithSlot = FastifyRequest & { [slot]: RequestInfo | null };

/**
 * The request-info filter (`WithRequestInfo`): {@link RequestInfo} is resolved once per request,
 * on first read (the authorization filter, the handler or the metrics, whichever comes first),
 * and kept; a request nobody asks about costs nothing.
 */
export function installRequestInfo(app: FastifyInstance): void {
  app.decorateRequest(slot, null);
  app.decorateRequest('requestInfo', {
    getter(this: FastifyRequest): RequestInfo {
      const req = this as WithSlot;
      return (req[slot] ??= resolveRequestInfo(req.method, req.url, (req.query ?? {}) as RequestQuery));
    },
  });
}
