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
import { openAPIV3, openAPIV3GroupVersions } from './v3.js';

const all: OpenAPIVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const served: OpenAPIInput = {
  groupVersions: [
    {
      group: 'events.k8s.io',
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
};

const at = (doc: JsonObject, ...keys: string[]): JsonObject => keys.reduce((o, k) => o[k] as JsonObject, doc);

describe('openAPIV3', () => {
  it.each(['events.k8s.io/v1', 'v1'])('%s is a valid OpenAPI 3.0 document (swagger-parser)', async (gv) => {
    const doc = openAPIV3(gv, served);
    expect(doc['openapi']).toBe('3.0.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('is refused by the validator when broken, so the check above can fail', async () => {
    const doc = openAPIV3('events.k8s.io/v1', served);
    at(doc, 'paths', '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}', 'get')['parameters'] = [
      { name: 'x', in: 'body' },
    ];
    await expect(SwaggerParser.validate(doc as never)).rejects.toThrow();
    const dangling = openAPIV3('events.k8s.io/v1', served);
    delete at(dangling, 'components', 'schemas')['io.k8s.apimachinery.pkg.apis.meta.v1.Patch'];
    await expect(SwaggerParser.validate(dangling as never)).rejects.toThrow(/Patch/);
  });

  it('holds only the paths of its group version', () => {
    expect(Object.keys(at(openAPIV3('events.k8s.io/v1', served), 'paths'))).toEqual([
      '/apis/events.k8s.io/v1',
      '/apis/events.k8s.io/v1/events',
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events',
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      '/apis/events.k8s.io/v1/watch/events',
      '/apis/events.k8s.io/v1/watch/namespaces/{namespace}/events',
    ]);
    const core = openAPIV3('api/v1', served);
    expect(Object.keys(at(core, 'paths'))).toContain('/api/v1/namespaces/{name}');
    expect(Object.keys(at(core, 'components', 'schemas'))).not.toContain('io.k8s.api.events.v1.Event');
  });

  it('lets kubectl find fieldValidation and strategic merge patch on the PATCH of the kind', () => {
    const patch = at(
      openAPIV3('events.k8s.io/v1', served),
      'paths',
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      'patch',
    );
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'events.k8s.io', kind: 'Event', version: 'v1' });
    // kubectl reads the parameter name directly, without resolving references
    expect(patch['parameters']).toContainEqual(
      expect.objectContaining({ name: 'fieldValidation', in: 'query', schema: { type: 'string' } }),
    );
    expect(Object.keys(at(patch, 'requestBody', 'content'))).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(at(patch, 'responses', '200', 'content', 'application/json', 'schema')).toEqual({
      $ref: '#/components/schemas/io.k8s.api.events.v1.Event',
    });
  });

  it('marks the kinds with a gvk list and wraps described references in allOf (what kubectl explain walks)', () => {
    const schemas = at(openAPIV3('events.k8s.io/v1', served), 'components', 'schemas');
    const event = at(schemas, 'io.k8s.api.events.v1.Event');
    expect(event['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
    ]);
    expect(at(event, 'properties', 'series')).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.events.v1.EventSeries' }],
      description: expect.stringContaining('series'),
    });
    expect(event['required']).toEqual(['eventTime']);
  });

  it('accepts the group version in each spelling and refuses one not served', () => {
    const a = openAPIV3('events.k8s.io/v1', served);
    expect(openAPIV3('apis/events.k8s.io/v1', served)).toEqual(a);
    expect(openAPIV3('/apis/events.k8s.io/v1', served)).toEqual(a);
    expect(openAPIV3('api/v1', served)).toEqual(openAPIV3('v1', served));
    expect(() => openAPIV3('apps/v1', served)).toThrow('group version apps/v1 is not served');
  });

  it('lists the v3 keys of the served group versions', () => {
    expect(openAPIV3GroupVersions(served)).toEqual(['apis/events.k8s.io/v1', 'api/v1']);
  });
});
