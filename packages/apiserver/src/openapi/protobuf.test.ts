import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { MemoryStorage } from '@kevents/storage';
import type { VersionInfo } from '@kevents/api';
import { buildApiServer } from '../server/build-server.js';
import type { ApiServer } from '../server/build-server.js';
import { OpenAPIProtoError, openAPIV2DocumentType, openAPIV2ToProtobuf } from './protobuf.js';

type Obj = Record<string, unknown>;
type Named<T> = { name: string; value: T }[];

let srv: ApiServer;
let json: Obj;
beforeAll(async () => {
  srv = buildApiServer({ storage: new MemoryStorage(), resources: [], version: { major: '1' } as VersionInfo });
  json = (await srv.app.inject({ url: '/openapi/v2' })).json() as Obj;
});
afterAll(async () => {
  await srv.app.close();
});

const decode = (body: Buffer): Obj =>
  openAPIV2DocumentType().toObject(openAPIV2DocumentType().decode(body), { longs: Number, arrays: false }) as Obj;

const ext = (xs: Named<{ yaml: string }> | undefined): Obj =>
  Object.fromEntries((xs ?? []).map((x) => [x.name, parse(x.value.yaml) as unknown]));

/** gnostic's Schema back to Swagger JSON (the inverse of what kube-openapi's ToProtoBinary does). */
function schemaJSON(s: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '_ref') out['$ref'] = v;
    else if (k === 'type') {
      const t = (v as { value: string[] }).value;
      out['type'] = t.length === 1 ? t[0] : t;
    } else if (k === 'items') out['items'] = schemaJSON((v as { schema: Obj[] }).schema[0]!);
    else if (k === 'properties')
      out['properties'] = Object.fromEntries(
        (v as { additional_properties: Named<Obj> }).additional_properties.map((p) => [p.name, schemaJSON(p.value)]),
      );
    else if (k === 'additional_properties') {
      const a = v as { schema?: Obj; boolean?: boolean };
      out['additionalProperties'] = a.schema ? schemaJSON(a.schema) : a.boolean;
    } else if (k === 'all_of') out['allOf'] = (v as Obj[]).map(schemaJSON);
    else if (k === 'enum') out['enum'] = (v as { yaml: string }[]).map((e) => parse(e.yaml) as unknown);
    else if (k === 'default' || k === 'example') out[k] = parse((v as { yaml: string }).yaml) as unknown;
    else if (k === 'vendor_extension') Object.assign(out, ext(v as Named<{ yaml: string }>));
    else out[k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] = v;
  }
  return out;
}

describe('OpenAPI v2 as gnostic protobuf (kube-openapi ToProtoBinary)', () => {
  it('carries every definition exactly, vendor extensions as YAML', () => {
    const doc = decode(openAPIV2ToProtobuf(json));
    expect(doc['swagger']).toBe('2.0');
    expect(doc['info']).toEqual({ title: 'Kubernetes', version: 'unversioned' });
    const defs = (doc['definitions'] as { additional_properties: Named<Obj> }).additional_properties;
    expect(defs.map((d) => d.name)).toEqual(Object.keys(json['definitions'] as Obj));
    for (const d of defs) expect([d.name, schemaJSON(d.value)]).toEqual([d.name, (json['definitions'] as Obj)[d.name]]);
    const ssar = defs.find((d) => d.name === 'io.k8s.api.authorization.v1.SelfSubjectAccessReview')!.value;
    expect(ext(ssar['vendor_extension'] as Named<{ yaml: string }>)).toEqual({
      'x-kubernetes-group-version-kind': [
        { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', version: 'v1' },
      ],
    });
  });

  it('carries paths, operations, parameters (by `in`), responses and security', () => {
    const doc = decode(openAPIV2ToProtobuf(json));
    const paths = (doc['paths'] as { path: Named<Obj> }).path;
    expect(paths.map((p) => p.name)).toEqual(Object.keys(json['paths'] as Obj));
    const item = paths.find((p) => p.name === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')!.value;
    const post = item['post'] as Obj;
    expect(post['operation_id']).toBe('createAuthorizationV1SelfSubjectAccessReview');
    const params = post['parameters'] as Obj[];
    const body = params.map((p) => (p['parameter'] as Obj)['body_parameter']).find(Boolean) as Obj;
    expect(body).toMatchObject({
      name: 'body',
      in: 'body',
      required: true,
      schema: { _ref: '#/definitions/io.k8s.api.authorization.v1.SelfSubjectAccessReview' },
    });
    const query = params
      .map((p) => ((p['parameter'] as Obj)['non_body_parameter'] as Obj | undefined)?.['query_parameter_sub_schema'])
      .filter(Boolean) as Obj[];
    expect(query.map((q) => q['name'])).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(query[0]).toMatchObject({ in: 'query', type: 'string', name: 'dryRun' });
    const codes = (post['responses'] as { response_code: Named<{ response: Obj }> }).response_code;
    expect(codes.map((c) => c.name)).toEqual(['200', '201', '202', '401']);
    expect(codes[0]!.value.response).toMatchObject({
      description: 'OK',
      schema: { schema: { _ref: '#/definitions/io.k8s.api.authorization.v1.SelfSubjectAccessReview' } },
    });
    expect(item['parameters']).toEqual([
      {
        parameter: {
          non_body_parameter: {
            query_parameter_sub_schema: {
              in: 'query',
              name: 'pretty',
              type: 'string',
              description: expect.any(String),
            },
          },
        },
      },
    ]);
    expect(doc['security_definitions']).toEqual({
      additional_properties: [
        {
          name: 'BearerToken',
          value: {
            api_key_security: {
              type: 'apiKey',
              name: 'authorization',
              in: 'header',
              description: 'Bearer Token authentication',
            },
          },
        },
      ],
    });
    expect(doc['security']).toEqual([{ additional_properties: [{ name: 'BearerToken', value: {} }] }]);
  });

  it('maps the other Swagger forms gnostic knows', () => {
    const doc = decode(
      openAPIV2ToProtobuf({
        swagger: '2.0',
        info: { title: 't', version: 'v', 'x-info': 1 },
        paths: {
          'x-paths': true,
          '/f': {
            get: {
              parameters: [
                { $ref: '#/parameters/p' },
                { in: 'path', name: 'n', required: true, type: 'string' },
                { in: 'header', name: 'h', type: 'array', items: { type: 'integer', format: 'int32' } },
              ],
              responses: { default: { $ref: '#/responses/r' }, '200': { description: 'f', schema: { type: 'file' } } },
            },
          },
        },
        definitions: {
          m: { type: ['object', 'null'], additionalProperties: false, items: [{ type: 'string' }], default: { a: 1 } },
        },
      }),
    );
    const def = (doc['definitions'] as { additional_properties: Named<Obj> }).additional_properties[0]!.value;
    expect(def).toEqual({
      type: { value: ['object', 'null'] },
      additional_properties: { boolean: false },
      items: { schema: [{ type: { value: ['string'] } }] },
      default: { yaml: 'a: 1\n' },
    });
    const get = (doc['paths'] as { path: Named<{ get: Obj }>; vendor_extension: unknown[] }).path[0]!.value.get;
    expect((get['parameters'] as Obj[])[0]).toEqual({ json_reference: { _ref: '#/parameters/p' } });
    expect(((get['parameters'] as Obj[])[2]!['parameter'] as Obj)['non_body_parameter']).toEqual({
      header_parameter_sub_schema: {
        in: 'header',
        name: 'h',
        type: 'array',
        items: { type: 'integer', format: 'int32' },
      },
    });
    expect((get['responses'] as { response_code: unknown[] }).response_code).toEqual([
      { name: '200', value: { response: { description: 'f', schema: { file_schema: { type: 'file' } } } } },
      { name: 'default', value: { json_reference: { _ref: '#/responses/r' } } },
    ]);
  });

  it('refuses what gnostic refuses: an unknown property, a parameter without a known `in`', () => {
    expect(() => openAPIV2ToProtobuf({ swagger: '2.0', nonsense: 1 })).toThrow(
      new OpenAPIProtoError('$: has invalid property: nonsense'),
    );
    expect(() =>
      openAPIV2ToProtobuf({ paths: { '/x': { get: { parameters: [{ in: 'cookie', name: 'c' }] } } } }),
    ).toThrow(OpenAPIProtoError);
  });
});

describe('/openapi/v2 and /swagger-2.0.0.pb-v1', () => {
  const pbType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
  it("answers kubectl's Accept with protobuf, with the JSON document's ETag, and 304 when held", async () => {
    const j = await srv.app.inject({ url: '/openapi/v2' });
    const pb = await srv.app.inject({
      url: '/openapi/v2',
      headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    expect(pb.statusCode).toBe(200);
    expect(pb.headers['content-type']).toBe(pbType);
    expect(pb.headers['vary']).toBe('Accept');
    expect(pb.headers['etag']).toBe(j.headers['etag']);
    expect(decode(pb.rawPayload)['swagger']).toBe('2.0');
    const again = await srv.app.inject({
      url: '/openapi/v2',
      headers: { accept: pbType, 'if-none-match': String(pb.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
    const old = await srv.app.inject({ url: '/swagger-2.0.0.pb-v1' });
    expect(old.statusCode).toBe(200);
    expect(old.headers['content-type']).toBe(pbType);
    expect(Buffer.compare(old.rawPayload, pb.rawPayload)).toBe(0);
    expect((await srv.app.inject({ url: '/openapi/v2', headers: { accept: 'text/html' } })).statusCode).toBe(406);
  });
});
