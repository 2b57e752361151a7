import { describe, expect, it } from '@jest/globals';
import { eventsV1EventSchema, eventsV1SeriesSchema, coreEventSchema } from '../schema/event-schemas.js';
import { objectMetaSchema } from '../schema/meta-schemas.js';
import { statusSchema } from '../schema/openapi-extra-schemas.js';
import type { ObjectSchema } from '../schema/types.js';
import { field, obj, str } from '../schema/types.js';
import { buildDefinitions, collectSchemas, fieldTypeSchema, objectDefinition } from './definitions.js';
import type { JsonObject } from './json.js';

const props = (def: JsonObject): JsonObject => def['properties'] as JsonObject;

describe('objectDefinition', () => {
  it('writes types, formats, required fields and references per dialect', () => {
    const v2 = objectDefinition(eventsV1SeriesSchema, 'v2');
    expect(v2['type']).toBe('object');
    expect(v2['required']).toEqual(['count', 'lastObservedTime']);
    expect(props(v2)['count']).toEqual({
      description: expect.stringContaining('number of occurrences'),
      type: 'integer',
      format: 'int32',
    });
    expect(props(v2)['lastObservedTime']).toEqual({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      description: expect.stringContaining('lastObservedTime'),
    });
    const v3 = objectDefinition(eventsV1SeriesSchema, 'v3');
    expect(props(v3)['lastObservedTime']).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' }],
      description: expect.stringContaining('lastObservedTime'),
    });
  });

  it('has one property per schema field, in order, for every kind reachable from an Event', () => {
    for (const schema of collectSchemas([eventsV1EventSchema, coreEventSchema, statusSchema]).values()) {
      const def = objectDefinition(schema, 'v3');
      expect(Object.keys((def['properties'] ?? {}) as JsonObject)).toEqual(schema.fields.map((f) => f.name));
      expect(def['description']).toBe(schema.description);
    }
  });

  it('adds Kubernetes list and patch extensions', () => {
    const meta = props(objectDefinition(objectMetaSchema, 'v3'));
    expect(meta['ownerReferences']).toMatchObject({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
      items: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference' },
    });
    expect(meta['finalizers']).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'set',
    });
    expect(meta['labels']).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('writes the given kinds as x-kubernetes-group-version-kind', () => {
    const def = objectDefinition(eventsV1EventSchema, 'v2', [
      { group: 'events.example.com', version: 'v1', kind: 'Event' },
    ]);
    expect(def['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.example.com', kind: 'Event', version: 'v1' },
    ]);
  });
});

describe('fieldTypeSchema', () => {
  it('maps every field type', () => {
    expect(fieldTypeSchema({ kind: 'string', enum: ['A', 'B'] }, 'v2')).toEqual({ type: 'string', enum: ['A', 'B'] });
    expect(fieldTypeSchema({ kind: 'integer', format: 'int64' }, 'v2')).toEqual({ type: 'integer', format: 'int64' });
    expect(fieldTypeSchema({ kind: 'boolean' }, 'v3', 'd')).toEqual({ description: 'd', type: 'boolean' });
    expect(fieldTypeSchema({ kind: 'time', precision: 'seconds' }, 'v3')).toEqual({
      $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    });
    expect(fieldTypeSchema({ kind: 'any' }, 'v2')).toEqual({ type: 'object' });
    expect(
      fieldTypeSchema({ kind: 'array', items: { kind: 'map', values: { kind: 'integer', format: 'int32' } } }, 'v2'),
    ).toEqual({
      type: 'array',
      items: { type: 'object', additionalProperties: { type: 'integer', format: 'int32' } },
    });
  });
});

describe('collectSchemas and buildDefinitions', () => {
  it('collects every referenced schema once', () => {
    const ids = [...collectSchemas([eventsV1EventSchema]).keys()].sort();
    expect(ids).toEqual([
      'io.k8s.api.core.v1.EventSource',
      'io.k8s.api.core.v1.ObjectReference',
      'io.k8s.api.events.v1.Event',
      'io.k8s.api.events.v1.EventSeries',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
    ]);
  });

  it('refuses two different schemas with one id', () => {
    const a: ObjectSchema = { id: 'x.A', goType: 'A', description: 'a', fields: [] };
    const a2: ObjectSchema = { id: 'x.A', goType: 'A', description: 'another a', fields: [] };
    const root: ObjectSchema = {
      id: 'x.Root',
      goType: 'Root',
      description: 'r',
      fields: [
        field(
          'one',
          obj(() => a),
          'always',
          '',
        ),
        field(
          'two',
          obj(() => a2),
          'always',
          '',
        ),
      ],
    };
    expect(() => collectSchemas([root])).toThrow('two different schemas share the definition id x.A');
  });

  it('adds the time definitions, sorts by id and falls back to the schema gvk', () => {
    const defs = buildDefinitions([eventsV1EventSchema, statusSchema], 'v2', new Map());
    const ids = Object.keys(defs);
    expect(ids).toEqual([...ids].sort());
    expect(defs['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toMatchObject({ type: 'string', format: 'date-time' });
    expect(defs['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
    expect((defs['io.k8s.api.events.v1.Event'] as JsonObject)['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
    ]);
    expect(
      (defs['io.k8s.apimachinery.pkg.apis.meta.v1.Status'] as JsonObject)['x-kubernetes-group-version-kind'],
    ).toEqual([{ group: '', kind: 'Status', version: 'v1' }]);
    expect(defs['io.k8s.api.core.v1.ObjectReference']).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
  });

  it('leaves out definitions nothing references', () => {
    const lone: ObjectSchema = {
      id: 'x.Lone',
      goType: 'Lone',
      description: 'l',
      fields: [field('s', str(), 'always', '')],
    };
    expect(Object.keys(buildDefinitions([lone], 'v3', new Map()))).toEqual(['x.Lone']);
  });
});
