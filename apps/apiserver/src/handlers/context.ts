import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '@kevents/storage';
import type { ResourceView } from '../registry/resource-view.js';
import type { Query } from './query.js';
import type { WatchHub } from './watch-hub.js';
import type { EncodedEventCache } from './encoded-cache.js';

/** What a REST handler works with: one view of one resource, the store, and the live watches. */
export interface HandlerContext {
  readonly storage: Storage;
  readonly view: ResourceView;
  readonly watches: WatchHub;
  /** Default watch length when `timeoutSeconds` is absent: a random value in [min, 2*min). */
  readonly minRequestTimeoutSeconds: number;
  /** Watch lines encoded once per change and view, shared by all watchers. */
  readonly encoded: EncodedEventCache;
}

/** The fastify request shape of the resource routes. */
export type RestRequest = FastifyRequest<{
  Params: { namespace?: string; name?: string };
  Querystring: Query;
  Body: unknown;
}>;

export type Handler = (ctx: HandlerContext, req: RestRequest, reply: FastifyReply) => Promise<unknown>;

/** The storage key of an event. */
export const eventKey = (namespace: string, name: string) => ({ resource: 'events', namespace, name }) as const;
