import { describe, expect, it } from '@jest/globals';
import SwaggerParser from '@apidevtools/swagger-parser';
import {
  coreEventListSchema,
  coreEventSchema,
  eventsV1EventListSchema,
  eventsV1EventSchema,
} from '../schema/event-schemas.js';
import { namespaceListSchema, namespaceSchema } from '../schema/openapi-extra-schemas.js';
import type { OpenAPIInput, OpenAPIVerb } from './input.js';
import type { JsonObject } from './json.js';
import { openAPIV2 } from './v2.js';

const all: OpenAPIVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const served = (group = 'events.k8s.io', groupDomain?: string): OpenAPIInput => ({
  ...(groupDomain ? { groupDomain } : {}),
  groupVersions: [
    {
      group,
      version: 'v1',
      discovery: true,
      resources: [
        {
          resource: 'events',
          kind: 'Event',
          namespaced: true,
          schema: eventsV1EventSchema,
          listSchema: eventsV1EventListSchema,
          verbs: all,
          legacyWatchPaths: true,
        },
      ],
    },
    {
      group: '',
      version: 'v1',
      discovery: true,
      resources: [
        {
          resource: 'events',
          kind: 'Event',
          namespaced: true,
          schema: coreEventSchema,
          listSchema: coreEventListSchema,
          verbs: all,
          legacyWatchPaths: true,
        },
        {
          resource: 'namespaces',
          kind: 'Namespace',
          namespaced: false,
          schema: namespaceSchema,
          listSchema: namespaceListSchema,
          verbs: ['get', 'list'],
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

describe('openAPIV2', () => {
  it('is a valid Swagger 2.0 document (swagger-parser: schema and spec validation, every $ref resolves)', async () => {
    await expect(SwaggerParser.validate(structuredClone(openAPIV2(served())) as never)).resolves.toBeDefined();
  });

  it('is refused by the validator when broken, so the check above can fail', async () => {
    const doc = openAPIV2(served());
    delete (doc['definitions'] as JsonObject)['io.k8s.api.events.v1.EventSeries'];
    await expect(SwaggerParser.validate(doc as never)).rejects.toThrow(/EventSeries/);
    const dup = openAPIV2(served());
    at(dup, 'paths', '/api/v1/namespaces/{name}', 'get')['operationId'] = 'listCoreV1Namespace';
    await expect(SwaggerParser.validate(dup as never)).rejects.toThrow(/Duplicate operation id/);
  });

  it('names operations like kube-apiserver', () => {
    const ids = operations(openAPIV2(served()))
      .map((o) => o['operationId'])
      .sort();
    expect(ids).toEqual([
      'createCoreV1NamespacedEvent',
      'createEventsV1NamespacedEvent',
      'deleteCoreV1CollectionNamespacedEvent',
      'deleteCoreV1NamespacedEvent',
      'deleteEventsV1CollectionNamespacedEvent',
      'deleteEventsV1NamespacedEvent',
      'getCoreV1APIResources',
      'getEventsV1APIResources',
      'listCoreV1EventForAllNamespaces',
      'listCoreV1Namespace',
      'listCoreV1NamespacedEvent',
      'listEventsV1EventForAllNamespaces',
      'listEventsV1NamespacedEvent',
      'patchCoreV1NamespacedEvent',
      'patchEventsV1NamespacedEvent',
      'readCoreV1Namespace',
      'readCoreV1NamespacedEvent',
      'readEventsV1NamespacedEvent',
      'replaceCoreV1NamespacedEvent',
      'replaceEventsV1NamespacedEvent',
      'watchCoreV1EventListForAllNamespaces',
      'watchCoreV1NamespacedEventList',
      'watchEventsV1EventListForAllNamespaces',
      'watchEventsV1NamespacedEventList',
    ]);
  });

  it('describes PATCH the way kubectl checks it: gvk, fieldValidation, patch types without apply', () => {
    const patch = at(
      openAPIV2(served()),
      'paths',
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      'patch',
    );
    expect(patch['x-kubernetes-action']).toBe('patch');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'events.k8s.io', kind: 'Event', version: 'v1' });
    expect(patch['consumes']).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    const params = patch['parameters'] as JsonObject[];
    expect(params.map((p) => p['name'])).toEqual(['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(params[0]).toEqual({
      name: 'body',
      in: 'body',
      required: true,
      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
  });

  it('puts path and list parameters where Kubernetes does', () => {
    const doc = openAPIV2(served());
    const item = at(doc, 'paths', '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}');
    expect((item['parameters'] as JsonObject[]).map((p) => `${p['in']}:${p['name']}`)).toEqual([
      'path:name',
      'path:namespace',
      'query:pretty',
    ]);
    const list = at(doc, 'paths', '/apis/events.k8s.io/v1/namespaces/{namespace}/events', 'get');
    expect((list['parameters'] as JsonObject[]).map((p) => p['name'])).toEqual(
      expect.arrayContaining([
        'watch',
        'limit',
        'continue',
        'fieldSelector',
        'labelSelector',
        'resourceVersionMatch',
        'sendInitialEvents',
      ]),
    );
    expect(list['produces']).toEqual(['application/json', 'application/json;stream=watch']);
    const nsList = at(doc, 'paths', '/api/v1/namespaces', 'get');
    expect((nsList['parameters'] as JsonObject[]).map((p) => p['name'])).not.toContain('watch');
    expect(at(doc, 'paths', '/api/v1/namespaces/{name}')['delete']).toBeUndefined();
  });

  it('puts the kinds on the definitions, DeleteOptions and WatchEvent in every group version', () => {
    const defs = at(openAPIV2(served()), 'definitions');
    expect(at(defs, 'io.k8s.api.events.v1.EventList')['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.k8s.io', kind: 'EventList', version: 'v1' },
    ]);
    expect(at(defs, 'io.k8s.api.core.v1.Namespace')['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'Namespace', version: 'v1' },
    ]);
    expect(at(defs, 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions')['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'DeleteOptions', version: 'v1' },
      { group: 'events.k8s.io', kind: 'DeleteOptions', version: 'v1' },
    ]);
    expect(Object.keys(at(defs, 'io.k8s.api.events.v1.Event', 'properties'))).toEqual(
      eventsV1EventSchema.fields.map((f) => f.name),
    );
  });

  it('follows the group domain: the served group in gvk, the short name in operation ids', async () => {
    const doc = openAPIV2(served('events.example.com', 'example.com'));
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    const read = at(doc, 'paths', '/apis/events.example.com/v1/namespaces/{namespace}/events/{name}', 'get');
    expect(read['operationId']).toBe('readEventsV1NamespacedEvent');
    expect(read['x-kubernetes-group-version-kind']).toEqual({
      group: 'events.example.com',
      kind: 'Event',
      version: 'v1',
    });
    expect(at(doc, 'definitions', 'io.k8s.api.events.v1.Event')['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.example.com', kind: 'Event', version: 'v1' },
    ]);
  });
});
