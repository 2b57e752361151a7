import type { FastifyRequest } from 'fastify';
import type { Query } from './query.js';
import type { RequestInfo } from './request-info.js';

/** The fastify request shape of the resource routes (RequestInfo is decorated by the filter chain). */
export type RestRequest = FastifyRequest<{
  Params: { namespace?: string; name?: string };
  Querystring: Query;
  Body: unknown;
}> & { requestInfo: RequestInfo };
