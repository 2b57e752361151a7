import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryV2,
  aggregatedDiscoveryV2Beta1,
  discoveryRepresentation,
} from '../discovery/aggregated.js';
import { DiscoveryIndex } from '../discovery/discovery.js';
import type { DiscoveredResource } from '../discovery/discovery.js';
import { goEscapeJSON } from '@kevents/api';
import { isPretty, sendJSONText, sendJSON } from '../encoding/respond.js';

/** One aggregated discovery document, encoded once, and its ETag. */
interface AggregatedDocument {
  readonly body: string;
  readonly etag: string;
}

/**
 * Serves discovery of the given resources: `/api` and `/apis` (legacy `APIVersions` /
 * `APIGroupList`, or aggregated discovery v2 and v2beta1 by `Accept`, with an ETag and 304 as
 * kube-apiserver's aggregated/etag.go), `/api/<v>` and `/apis/<g>/<v>` (`APIResourceList`) and
 * `/apis/<g>` (`APIGroup`). Every document is built once, here.
 */
export function installDiscoveryRoutes(app: FastifyInstance, resources: readonly DiscoveredResource[]): void {
  const index = new DiscoveryIndex();
  for (const d of resources) index.add(d);

  const pretty = (req: FastifyRequest): boolean => isPretty(req);
  const send = (body: unknown) => async (req: FastifyRequest, reply: FastifyReply) =>
    sendJSON(reply, 200, body, pretty(req));
  const aggregated = new Map<string, AggregatedDocument>();
  for (const core of [true, false]) {
    for (const v of ['v2', 'v2beta1'] as const) {
      const body = goEscapeJSON(JSON.stringify(aggregatedDiscovery(index, core, v)));
      aggregated.set(`${core}/${v}`, {
        body,
        etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`,
      });
    }
  }
  const discovery = (core: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const rep = discoveryRepresentation(req.headers.accept);
    reply.header('Vary', 'Accept');
    if (rep === 'legacy') {
      const body = core ? index.apiVersions(req.hostname) : index.apiGroupList();
      return sendJSON(reply, 200, body, pretty(req));
    }
    // As kube-apiserver's aggregated/etag.go: an ETag of the document, 304 when the client holds it.
    const doc = aggregated.get(`${core}/${rep}`)!;
    const type = rep === 'v2' ? aggregatedDiscoveryV2 : aggregatedDiscoveryV2Beta1;
    reply.header('ETag', doc.etag);
    if (req.headers['if-none-match'] === doc.etag) return reply.code(304).header('Content-Type', type).send();
    return sendJSONText(reply, 200, doc.body, { contentType: type, cacheControl: 'public', escaped: true });
  };
  app.get('/api', discovery(true));
  app.get('/apis', discovery(false));
  for (const gv of index.groupVersions()) {
    const list = index.resourceList(gv.group, gv.version)!;
    if (gv.group === '') {
      app.get(`/api/${gv.version}`, send(list));
      continue;
    }
    app.get(`/apis/${gv.group}/${gv.version}`, send(list));
  }
  for (const g of index.groups()) app.get(`/apis/${g.name}`, send({ kind: 'APIGroup', apiVersion: 'v1', ...g }));
}
