import { describe, expect, it } from '@jest/globals';
import SwaggerParser from '@apidevtools/swagger-parser';
import { coordinationGroup } from '../constants.js';
import { leaseListSchema, leaseSchema, leaseSpecSchema } from '../schema/lease-schemas.js';
import type { OpenAPIInput, OpenAPIVerb } from './input.js';
import type { JsonObject } from './json.js';
import { openAPIV2 } from './v2.js';
import { openAPIV3 } from './v3.js';

const all: OpenAPIVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const served = (domain?: string): OpenAPIInput => ({
  ...(domain ? { groupDomain: domain } : {}),
  groupVersions: [
    {
      group: coordinationGroup(domain),
      version: 'v1',
      discovery: true,
      resources: [
        {
          resource: 'leases',
          kind: 'Lease',
          namespaced: true,
          schema: leaseSchema,
          listSchema: leaseListSchema,
          verbs: all,
          legacyWatchPaths: true,
          legacyWatchItemPath: true,
        },
      ],
    },
  ],
});

const at = (doc: JsonObject, ...keys: string[]): JsonObject => keys.reduce((o, k) => o[k] as JsonObject, doc);
const operations = (doc: JsonObject): JsonObject[] =>
  Object.values(doc['paths'] as JsonObject).flatMap((item) =>
    ['get', 'put', 'post', 'delete', 'patch'].map((m) => (item as JsonObject)[m] as JsonObject).filter(Boolean),
  );
const ops = (doc: JsonObject): Record<string, string> =>
  Object.fromEntries(
    Object.entries(doc['paths'] as JsonObject).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch']
        .filter((m) => (item as JsonObject)[m])
        .map((m) => [`${m} ${path}`, at(item as JsonObject, m)['operationId'] as string]),
    ),
  );

describe('OpenAPI of coordination.k8s.io/v1 leases', () => {
  it('is valid Swagger 2.0 and OpenAPI 3.0', async () => {
    await expect(SwaggerParser.validate(structuredClone(openAPIV2(served())) as never)).resolves.toBeDefined();
    await expect(
      SwaggerParser.validate(structuredClone(openAPIV3('coordination.k8s.io/v1', served())) as never),
    ).resolves.toBeDefined();
  });

  it("has kube-apiserver's paths and operation ids (api/openapi-spec/v3/apis__coordination.k8s.io__v1_openapi.json)", () => {
    // kube-apiserver spells the discovery path `/apis/coordination.k8s.io/v1/`, with a slash.
    expect(ops(openAPIV3('coordination.k8s.io/v1', served()))).toEqual({
      'get /apis/coordination.k8s.io/v1': 'getCoordinationV1APIResources',
      'get /apis/coordination.k8s.io/v1/leases': 'listCoordinationV1LeaseForAllNamespaces',
      'get /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases': 'listCoordinationV1NamespacedLease',
      'post /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases': 'createCoordinationV1NamespacedLease',
      'delete /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases':
        'deleteCoordinationV1CollectionNamespacedLease',
      'get /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': 'readCoordinationV1NamespacedLease',
      'put /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': 'replaceCoordinationV1NamespacedLease',
      'delete /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': 'deleteCoordinationV1NamespacedLease',
      'patch /apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': 'patchCoordinationV1NamespacedLease',
      'get /apis/coordination.k8s.io/v1/watch/leases': 'watchCoordinationV1LeaseListForAllNamespaces',
      'get /apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases': 'watchCoordinationV1NamespacedLeaseList',
      'get /apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases/{name}':
        'watchCoordinationV1NamespacedLease',
    });
  });

  it('tags, actions and kinds every operation like Kubernetes', () => {
    const doc = openAPIV2(served());
    for (const o of operations(doc)) expect(o['tags']).toEqual(['coordination_v1']);
    const watchOne = at(doc, 'paths', '/apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases/{name}');
    expect(at(watchOne, 'get')['x-kubernetes-action']).toBe('watch');
    expect(at(watchOne, 'get')['description']).toBe(
      "watch changes to an object of kind Lease. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.",
    );
    expect(at(watchOne, 'get')['x-kubernetes-group-version-kind']).toEqual({
      group: 'coordination.k8s.io',
      kind: 'Lease',
      version: 'v1',
    });
    // path parameters sorted by name, path and query mixed, as kube-apiserver lists them
    expect((watchOne['parameters'] as JsonObject[]).map((p) => p['name'])).toEqual([
      'allowWatchBookmarks',
      'continue',
      'fieldSelector',
      'labelSelector',
      'limit',
      'name',
      'namespace',
      'pretty',
      'resourceVersion',
      'resourceVersionMatch',
      'sendInitialEvents',
      'timeoutSeconds',
      'watch',
    ]);
    const watchList = at(doc, 'paths', '/apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases');
    expect((watchList['parameters'] as JsonObject[]).map((p) => p['name']).slice(4, 7)).toEqual([
      'limit',
      'namespace',
      'pretty',
    ]);
    expect(at(doc, 'paths', '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases', 'post')['description']).toBe(
      'create a Lease',
    );
  });

  it("has Kubernetes' definition names and the Lease fields in Go order", () => {
    const schemas = at(openAPIV3('coordination.k8s.io/v1', served()), 'components', 'schemas');
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'io.k8s.api.coordination.v1.Lease',
        'io.k8s.api.coordination.v1.LeaseList',
        'io.k8s.api.coordination.v1.LeaseSpec',
        'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
        'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
        'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      ]),
    );
    expect(Object.keys(schemas).filter((k) => k.startsWith('io.k8s.api.'))).toEqual([
      'io.k8s.api.coordination.v1.Lease',
      'io.k8s.api.coordination.v1.LeaseList',
      'io.k8s.api.coordination.v1.LeaseSpec',
    ]);
    expect(Object.keys(at(schemas, 'io.k8s.api.coordination.v1.LeaseSpec', 'properties'))).toEqual([
      'holderIdentity',
      'leaseDurationSeconds',
      'acquireTime',
      'renewTime',
      'leaseTransitions',
      'strategy',
      'preferredHolder',
    ]);
    expect(at(schemas, 'io.k8s.api.coordination.v1.LeaseSpec', 'properties', 'renewTime')).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' }],
      description: 'renewTime is a time when the current holder of a lease has last updated the lease.',
    });
    expect(at(schemas, 'io.k8s.api.coordination.v1.LeaseSpec', 'properties', 'leaseDurationSeconds')).toMatchObject({
      type: 'integer',
      format: 'int32',
    });
    expect(at(schemas, 'io.k8s.api.coordination.v1.LeaseList')['required']).toEqual(['items']);
    expect(at(schemas, 'io.k8s.api.coordination.v1.Lease')['x-kubernetes-group-version-kind']).toEqual([
      { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
    ]);
    expect(leaseSpecSchema.fields.every((f) => f.emit === 'omitnil')).toBe(true);
  });

  it('follows the group domain: the served group in paths and gvk, the short name in operation ids', async () => {
    const doc = openAPIV2(served('example.com'));
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    const read = at(doc, 'paths', '/apis/coordination.example.com/v1/namespaces/{namespace}/leases/{name}', 'get');
    expect(read['operationId']).toBe('readCoordinationV1NamespacedLease');
    expect(read['x-kubernetes-group-version-kind']).toEqual({
      group: 'coordination.example.com',
      kind: 'Lease',
      version: 'v1',
    });
    expect(at(doc, 'definitions', 'io.k8s.api.coordination.v1.LeaseList')['x-kubernetes-group-version-kind']).toEqual([
      { group: 'coordination.example.com', kind: 'LeaseList', version: 'v1' },
    ]);
    expect(at(doc, 'definitions', 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions')).toMatchObject({
      'x-kubernetes-group-version-kind': [{ group: 'coordination.example.com', kind: 'DeleteOptions', version: 'v1' }],
    });
  });

  it('leaves the single-object watch path out unless asked for', () => {
    const input = served();
    const gv = input.groupVersions[0]!;
    const plain: OpenAPIInput = {
      groupVersions: [{ ...gv, resources: [{ ...gv.resources[0]!, legacyWatchItemPath: false }] }],
    };
    expect(Object.keys(at(openAPIV2(plain), 'paths'))).not.toContain(
      '/apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases/{name}',
    );
  });
});
