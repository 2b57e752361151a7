import { createHash } from 'node:crypto';
import { groupVersionKey, openAPIV2, openAPIV3, openAPIV3GroupVersions } from '@kevents/api';
import type { OpenAPIInput } from '@kevents/api';
import { openAPIV2ToProtobuf } from './protobuf.js';

/** A serialized document with its entity tag (upper-case hex SHA-512, as kube-openapi computes it). */
export interface SerializedDocument {
  /** The JSON bytes (a Buffer, so the HTTP layer sends them untouched, without a charset). */
  readonly body: Buffer;
  readonly etag: string;
}

const serialize = (doc: unknown): SerializedDocument => {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: createHash('sha512').update(body).digest('hex').toUpperCase() };
};

/** The URL of a group version's v3 document, with its hash: `/openapi/v3/apis/events.k8s.io/v1?hash=...`. */
export const v3DocumentURL = (key: string, etag: string): string =>
  `/openapi/v3/${key}?${new URLSearchParams({ hash: etag }).toString()}`;

/** Every OpenAPI document of a server, generated and serialized once. */
export interface OpenAPIDocuments {
  readonly v2: SerializedDocument;
  /**
   * The v2 document in gnostic's protobuf form (kube-openapi's `ToProtoBinary`), made on first
   * use; its ETag is the JSON document's, as kube-openapi gives both one ETag.
   */
  v2Protobuf(): SerializedDocument;
  /** `/openapi/v3`: `{"paths":{"<key>":{"serverRelativeURL":"/openapi/v3/<key>?hash=<etag>"}}}`. */
  readonly v3Root: SerializedDocument;
  /** By key: `api/v1`, `apis/events.k8s.io/v1`. */
  readonly v3: ReadonlyMap<string, SerializedDocument>;
  /** When the documents were generated (their Last-Modified). */
  readonly generatedAt: Date;
}

/** Generates and serializes the v2, v3 root and v3 group-version documents of a server. */
export function buildOpenAPIDocuments(input: OpenAPIInput): OpenAPIDocuments {
  const v3 = new Map<string, SerializedDocument>();
  for (const gv of input.groupVersions)
    v3.set(groupVersionKey(gv.group, gv.version), serialize(openAPIV3(`${gv.group}/${gv.version}`, input)));
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const key of openAPIV3GroupVersions(input).sort())
    paths[key] = { serverRelativeURL: v3DocumentURL(key, v3.get(key)!.etag) };
  const v2Doc = openAPIV2(input);
  const v2 = serialize(v2Doc);
  let v2Protobuf: SerializedDocument | undefined;
  return {
    v2,
    v2Protobuf: () => (v2Protobuf ??= { body: openAPIV2ToProtobuf(v2Doc), etag: v2.etag }),
    v3Root: serialize({ paths }),
    v3,
    generatedAt: new Date(),
  };
}
