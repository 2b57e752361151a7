import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { encodeProtobuf, goEscapeJSON } from '@kevents/api';
import type { ProtobufType } from '@kevents/api';
import { aggregatedDiscovery } from '../discovery/aggregated.js';
import { DiscoveryIndex } from '../discovery/discovery.js';
import type { DiscoveredResource } from '../discovery/discovery.js';
import { negotiateAggregated, negotiateLegacyDiscovery } from '../discovery/negotiate.js';
import type { DiscoveryNegotiated } from '../discovery/negotiate.js';
import { isPretty, sendJSONText, sendProtobuf, sendText } from '../encoding/respond.js';
import type { Replied } from '../encoding/turn-end-send.js';
import { goJsonText, jsonToYaml } from '../encoding/yaml-output.js';

/** A discovery document and its encodings, each made on first use (the documents never change). */
class DiscoveryDocument {
  readonly value: Record<string, unknown>;
  readonly protobufType: ProtobufType;
  #json: string | undefined;
  #yaml: string | undefined;
  #protobuf: Buffer | undefined;

  constructor(value: object, protobufType: ProtobufType) {
    this.value = value as Record<string, unknown>;
    this.protobufType = protobufType;
  }

  json(): string {
    return (this.#json ??= goEscapeJSON(JSON.stringify(this.value)));
  }

  yaml(): string {
    return (this.#yaml ??= jsonToYaml(goJsonText(this.json())));
  }

  protobuf(): Buffer {
    return (this.#protobuf ??= encodeProtobuf(this.value, this.protobufType));
  }
}

/** Options of {@link installDiscoveryRoutes}. */
export interface DiscoveryRouteOptions {
  /**
   * Serve aggregated discovery `apidiscovery.k8s.io/v2beta1` as well (kube-apiserver before 1.33,
   * or with `AggregatedDiscoveryRemoveBetaType=false`); default false, as kube 1.34.
   */
  readonly aggregatedV2beta1?: boolean;
}

/** Writes a document in the negotiated media type, as `WriteObjectNegotiated` does. */
function sendDocument(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: DiscoveryDocument,
  negotiated: DiscoveryNegotiated,
  contentType: string = negotiated.mediaType,
  cacheControl?: string,
): Replied {
  switch (negotiated.mediaType) {
    case 'application/vnd.kubernetes.protobuf':
      return sendProtobuf(reply, 200, doc.protobuf(), [], contentType, cacheControl);
    case 'application/yaml':
      return sendText(reply, 200, doc.yaml(), contentType, cacheControl);
    default:
      if (negotiated.pretty || isPretty(req)) {
        return sendText(reply, 200, goEscapeJSON(JSON.stringify(doc.value, null, 2)), contentType, cacheControl);
      }
      return sendJSONText(reply, 200, doc.json(), {
        contentType,
        ...(cacheControl ? { cacheControl } : {}),
        escaped: true,
      });
  }
}

/**
 * Serves discovery of the given resources as kube-apiserver does: `/api` and `/apis` (aggregated
 * discovery when `Accept` asks for it, with an ETag and 304 as kube's aggregated/etag.go; else the
 * legacy `APIVersions` / `APIGroupList`), `/api/<v>` and `/apis/<g>/<v>` (`APIResourceList`) and
 * `/apis/<g>` (`APIGroup`), each negotiated in JSON, YAML or protobuf (discovery/negotiate.ts).
 * Every document is built once, here, and each encoding on first use.
 */
export function installDiscoveryRoutes(
  app: FastifyInstance,
  resources: readonly DiscoveredResource[],
  options: DiscoveryRouteOptions = {},
): void {
  const index = new DiscoveryIndex();
  for (const d of resources) index.add(d);
  const servesV2beta1 = options.aggregatedV2beta1 ?? false;

  const legacy = (doc: DiscoveryDocument) => async (req: FastifyRequest, reply: FastifyReply) =>
    sendDocument(req, reply, doc, negotiateLegacyDiscovery(req.headers.accept));

  const aggregated = new Map<string, DiscoveryDocument>();
  const etags = new Map<boolean, string>();
  for (const core of [true, false]) {
    for (const v of ['v2', 'v2beta1'] as const) {
      const doc = aggregatedDiscovery(index, core, v) as Record<string, unknown>;
      aggregated.set(`${core}/${v}`, new DiscoveryDocument(doc, 'apidiscovery/v2.APIGroupDiscoveryList'));
      // kube's calculateETag: SHA-512 of Go's JSON of the v2 list as cached (no kind or apiVersion).
      if (v === 'v2') {
        const cached = goJsonText(JSON.stringify({ metadata: doc['metadata'], items: doc['items'] }));
        etags.set(core, `"${createHash('sha512').update(cached).digest('hex').toUpperCase()}"`);
      }
    }
  }
  const discovery = (core: boolean) => {
    const plain = core ? undefined : new DiscoveryDocument(index.apiGroupList(), 'meta/v1.APIGroupList');
    return async (req: FastifyRequest, reply: FastifyReply) => {
      const chosen = negotiateAggregated(req.headers.accept, servesV2beta1);
      if (!chosen) {
        const doc = plain ?? new DiscoveryDocument(index.apiVersions(req.hostname), 'meta/v1.APIVersions');
        return sendDocument(req, reply, doc, negotiateLegacyDiscovery(req.headers.accept));
      }
      // As kube-apiserver's aggregated/etag.go: an ETag of the document, 304 when the client holds it.
      const etag = etags.get(core)!;
      reply.header('ETag', etag).header('Vary', 'Accept');
      if (req.headers['if-none-match'] === etag) return reply.code(304).header('Cache-Control', 'public').send();
      const type = `${chosen.mediaType};g=apidiscovery.k8s.io;v=${chosen.version};as=APIGroupDiscoveryList`;
      return sendDocument(req, reply, aggregated.get(`${core}/${chosen.version}`)!, chosen, type, 'public');
    };
  };
  app.get('/api', discovery(true));
  app.get('/apis', discovery(false));
  for (const gv of index.groupVersions()) {
    const list = new DiscoveryDocument(index.resourceList(gv.group, gv.version)!, 'meta/v1.APIResourceList');
    app.get(gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`, legacy(list));
  }
  for (const g of index.groups()) {
    app.get(
      `/apis/${g.name}`,
      legacy(new DiscoveryDocument({ kind: 'APIGroup', apiVersion: 'v1', ...g }, 'meta/v1.APIGroup')),
    );
  }
}
