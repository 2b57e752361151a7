import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { coreToEvent, eventToCore } from '../conversion/events.js';
import type { Event } from '../events/v1.js';
import { encodeObject } from './encode.js';
import { coreEventListSchema, coreEventSchema, eventsV1EventSchema } from './event-schemas.js';
import { serializeObject } from './serialize.js';
import type { ObjectSchema } from './types.js';
import { objectOf, propertySchemas } from '../testing/schema-arbitraries.js';

const meta = {
  name: 'x',
  namespace: 'ns',
  uid: 'u-1',
  resourceVersion: '7',
  creationTimestamp: '2026-01-01T00:00:00Z',
  labels: { b: '2', a: '1', 'example.com/z': '' },
  annotations: { note: 'quote " and \\ and é' },
  ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }],
  finalizers: ['f1', 'f2'],
  managedFields: [
    {
      manager: 'kubectl',
      operation: 'Update' as const,
      apiVersion: 'v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': {} } },
    },
  ],
};

const shapes: Event[] = [
  { metadata: {}, eventTime: null },
  { metadata: { name: 'a' }, eventTime: '2026-01-01T00:00:00.000001Z' },
  {
    metadata: meta,
    eventTime: '2026-01-01T00:00:00.123456Z',
    series: { count: 4, lastObservedTime: '2026-01-01T00:10:00.000000Z' },
    reportingController: 'example.com/c',
    reportingInstance: 'c-1',
    action: 'Act',
    reason: 'Why',
    regarding: {
      kind: 'Pod',
      namespace: 'ns',
      name: 'p',
      uid: 'p-1',
      apiVersion: 'v1',
      resourceVersion: '3',
      fieldPath: 'spec.containers{a}',
    },
    related: {},
    note: 'line one\nline two\t"quoted"',
    type: 'Warning',
    deprecatedSource: { component: 'kubelet', host: 'n1' },
    deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
    deprecatedLastTimestamp: '2026-01-01T00:05:00Z',
    deprecatedCount: 9,
  },
  { metadata: { name: 'z', labels: {} }, eventTime: null, deprecatedCount: 0, note: '', regarding: {} },
];

const same = (obj: object, schema: ObjectSchema): void => {
  expect(serializeObject(obj, schema)).toBe(JSON.stringify(encodeObject(obj as Record<string, unknown>, schema)));
};

describe('serializeObject', () => {
  it('writes exactly what encodeObject + JSON.stringify write, for both event shapes', () => {
    for (const e of shapes) {
      same({ ...e, kind: 'Event', apiVersion: 'events.k8s.io/v1' }, eventsV1EventSchema);
      same(e, eventsV1EventSchema);
      const core = eventToCore(e);
      same(core, coreEventSchema);
      same(coreToEvent(core), eventsV1EventSchema);
    }
    same(
      {
        kind: 'EventList',
        apiVersion: 'v1',
        metadata: { resourceVersion: '9', continue: 'abc' },
        items: shapes.map(eventToCore),
      },
      coreEventListSchema,
    );
    same({ kind: 'EventList', apiVersion: 'v1', metadata: {}, items: [] }, coreEventListSchema);
  });

  it('sorts map keys as Go does and parses back to the same data', () => {
    const text = serializeObject({ metadata: meta, eventTime: null }, eventsV1EventSchema);
    expect(text).toContain('"labels":{"a":"1","b":"2","example.com/z":""}');
    expect(JSON.parse(text).metadata.annotations.note).toBe('quote " and \\ and é');
  });
});

describe('serializeObject (free-form JSON)', () => {
  const withFieldsV1 = (fieldsV1: unknown): Record<string, unknown> => ({
    metadata: { name: 'x', managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1 }] },
    note: 'n',
  });
  const same = (o: Record<string, unknown>): void =>
    expect(serializeObject(o, eventsV1EventSchema)).toBe(JSON.stringify(encodeObject(o, eventsV1EventSchema)));

  it('writes a deeply frozen value once and the same text each time', () => {
    const deep = (v: unknown): unknown => {
      if (typeof v === 'object' && v !== null) Object.values(v).forEach(deep);
      return Object.freeze(v);
    };
    const fieldsV1 = deep({ 'f:note': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, l: [1, 'x'] });
    for (let i = 0; i < 3; i++) same(withFieldsV1(fieldsV1));
  });

  it('follows what changes under a value frozen only in part, or read through getters', () => {
    const child: Record<string, unknown> = { 'f:a': {} };
    const shallow = Object.freeze({ 'f:spec': child });
    same(withFieldsV1(shallow));
    child['f:b'] = {};
    same(withFieldsV1(shallow));
    expect(serializeObject(withFieldsV1(shallow), eventsV1EventSchema)).toContain('"f:b":{}');
    let n = 0;
    const getter = Object.freeze(
      Object.defineProperty({}, 'f:x', { enumerable: true, get: () => ({ [`f:${n++}`]: {} }) }),
    );
    expect(serializeObject(withFieldsV1(getter), eventsV1EventSchema)).toContain('"f:0"');
    expect(serializeObject(withFieldsV1(getter), eventsV1EventSchema)).toContain('"f:1"');
    const withToJSON = Object.freeze({ toJSON: () => `t${n++}` });
    expect(serializeObject(withFieldsV1(withToJSON), eventsV1EventSchema)).not.toBe(
      serializeObject(withFieldsV1(withToJSON), eventsV1EventSchema),
    );
  });
});

describe('serializeObject (recursive schema)', () => {
  it('writes a type that contains itself', () => {
    const node: ObjectSchema = {
      id: 'test.Node',
      goType: 'Node',
      description: '',
      fields: [
        { name: 'name', type: { kind: 'string' }, emit: 'omitempty', description: '' },
        { name: 'child', type: { kind: 'object', schema: () => node }, emit: 'omitempty', description: '' },
        {
          name: 'children',
          type: { kind: 'array', items: { kind: 'object', schema: () => node } },
          emit: 'omitempty',
          description: '',
        },
      ],
    };
    const tree = { name: 'a', child: { name: 'b', child: { children: [{ name: 'c' }, {}] } } };
    same(tree, node);
    expect(serializeObject(tree, node)).toBe(
      '{"name":"a","child":{"name":"b","child":{"children":[{"name":"c"},{}]}}}',
    );
  });
});

describe('serializeObject (property)', () => {
  const schemas = propertySchemas;
  it.each(schemas.map((s) => [s.id, s] as const))('equals JSON.stringify(encodeObject(...)) for %s', (_id, schema) => {
    fc.assert(
      fc.property(objectOf(schema, 0), (o) => {
        expect(serializeObject(o, schema)).toBe(JSON.stringify(encodeObject(o, schema)));
      }),
      { numRuns: 300 },
    );
  });
});
