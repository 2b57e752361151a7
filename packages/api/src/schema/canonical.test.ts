import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { coreToEvent, eventToCore } from '../conversion/events.js';
import { canonicalObject, isCanonicalValue, stringifyObject } from './canonical.js';
import { coreEventListSchema, coreEventSchema, eventsV1EventSchema } from './event-schemas.js';
import { deleteOptionsSchema, objectMetaSchema } from './meta-schemas.js';
import { statusSchema } from './openapi-extra-schemas.js';
import { serializeObject } from './serialize.js';
import type { ObjectSchema } from './types.js';
import { objectOf, propertySchemas } from '../testing/schema-arbitraries.js';

const event = {
  metadata: {
    name: 'web-1.17',
    namespace: 'ns-01',
    uid: '2ef68e64-12ab-44e6-a990-0c2333e04b8e',
    resourceVersion: '2',
    creationTimestamp: '2026-11-29T08:58:04Z',
    labels: { a: '1', b: '2' },
    managedFields: [
      {
        manager: 'node',
        operation: 'Update' as const,
        apiVersion: 'events.k8s.io/v1',
        time: '2026-11-29T08:58:04Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:note': {}, 'f:regarding': {} },
      },
    ],
  },
  eventTime: '2026-01-02T03:04:05.123456Z',
  reportingController: 'kubelet',
  reportingInstance: 'node-17',
  action: 'Pulling',
  reason: 'Pulled',
  regarding: { kind: 'Pod', namespace: 'ns-01', name: 'web-1', uid: 'u', apiVersion: 'v1', fieldPath: 'spec' },
  related: { kind: 'Node', name: 'node-17', apiVersion: 'v1' },
  note: 'pulled "image" in 1s\n',
  type: 'Normal',
  deprecatedSource: {},
  deprecatedFirstTimestamp: null,
  deprecatedLastTimestamp: null,
};

describe('canonicalObject', () => {
  it('is the object itself when its members are already in Go order with no zero omitempty values', () => {
    expect(canonicalObject(event, eventsV1EventSchema)).toBe(event);
    const parsed = JSON.parse(serializeObject(event, eventsV1EventSchema)) as object;
    expect(canonicalObject(parsed, eventsV1EventSchema)).toBe(parsed);
  });

  it('copies only the levels that are not canonical and shares the rest', () => {
    const { resourceVersion, ...rest } = event.metadata;
    const late = { ...event, metadata: { ...rest, resourceVersion } };
    const c = canonicalObject(late, eventsV1EventSchema)!;
    expect(c).not.toBe(late);
    expect(c['metadata']).not.toBe(late.metadata);
    expect(Object.keys(c['metadata'] as object)).toEqual(Object.keys(event.metadata));
    expect(c['regarding']).toBe(late.regarding);
    expect((c['metadata'] as { managedFields: unknown }).managedFields).toBe(late.metadata.managedFields);
  });

  it('is undefined for a map whose keys are out of order, a stray type, or an object not made of plain data', () => {
    const unsorted = { ...event, metadata: { ...event.metadata, labels: { b: '2', a: '1' } } };
    expect(canonicalObject(unsorted, eventsV1EventSchema)).toBeUndefined();
    // JavaScript enumerates index-like keys first, in numeric order: "9" before "10", which Go sorts after it.
    const indexKeys = { ...event, metadata: { ...event.metadata, labels: { 10: 'x', 9: 'y' } } };
    expect(canonicalObject(indexKeys, eventsV1EventSchema)).toBeUndefined();
    expect(canonicalObject({ ...event, note: 7 }, eventsV1EventSchema)).toBeUndefined();
    expect(canonicalObject({ ...event, regarding: new Map() }, eventsV1EventSchema)).toBeUndefined();
    expect(canonicalObject(Object.assign(Object.create({ note: 'n' }) as object, event), eventsV1EventSchema)).toBe(
      undefined,
    );
  });
});

describe('stringifyObject', () => {
  const same = (o: object, schema: ObjectSchema): void => {
    expect(stringifyObject(o, schema)).toBe(serializeObject(o, schema));
  };

  it('writes what serializeObject writes, whichever path it takes', () => {
    same(event, eventsV1EventSchema);
    const core = eventToCore(event);
    same(core, coreEventSchema);
    same(coreToEvent(core), eventsV1EventSchema);
    same({ ...event, metadata: { ...event.metadata, labels: { b: '2', a: '1' } } }, eventsV1EventSchema);
    same({ ...event, metadata: { ...event.metadata, labels: { 10: 'x', 9: 'y', 1: 'z' } } }, eventsV1EventSchema);
    same({ ...event, deprecatedCount: 0, series: { count: 0, lastObservedTime: '' } }, eventsV1EventSchema);
    same({ metadata: {}, eventTime: '' }, eventsV1EventSchema);
    same({ kind: 'EventList', apiVersion: 'v1', metadata: {}, items: [core, null, {}] }, coreEventListSchema);
  });

  it('writes any one field holding a zero, stray or well-typed value as the serializer does', () => {
    const values = [
      undefined,
      null,
      '',
      0,
      -0,
      false,
      true,
      1,
      'x',
      '2026-01-01T00:00:00Z',
      [],
      ['a'],
      [{}],
      {},
      { a: 'b' },
    ];
    for (const schema of [eventsV1EventSchema, coreEventSchema, deleteOptionsSchema, statusSchema]) {
      for (const f of schema.fields) for (const v of values) same({ [f.name]: v }, schema);
    }
  });

  it('writes a function or symbol in free-form JSON as the serializer does', () => {
    const withFieldsV1 = (fieldsV1: unknown): object => ({
      metadata: { managedFields: [{ manager: 'm', fieldsV1 }] },
      eventTime: null,
    });
    same(
      withFieldsV1(() => 1),
      eventsV1EventSchema,
    );
    same(withFieldsV1(Symbol('s')), eventsV1EventSchema);
    same(withFieldsV1({ toJSON: () => 'x' }), eventsV1EventSchema);
  });

  const schemas = propertySchemas;

  it.each(schemas.map((s) => [s.id, s] as const))('equals serializeObject for any object of %s', (_id, schema) => {
    fc.assert(
      fc.property(objectOf(schema, 0), (o) => {
        expect(stringifyObject(o, schema)).toBe(serializeObject(o, schema));
      }),
      { numRuns: 300 },
    );
  });

  it.each(schemas.map((s) => [s.id, s] as const))(
    'equals serializeObject for the parse of its text, kept as it is (%s)',
    (_id, schema) => {
      fc.assert(
        fc.property(objectOf(schema, 0), (o) => {
          const text = serializeObject(o, schema);
          const parsed = JSON.parse(text) as object;
          const again = serializeObject(parsed, schema);
          expect(stringifyObject(parsed, schema)).toBe(again);
          // A text the serializer writes again as it is (a map of only undefined values was written
          // `{}`, which it leaves out) parses to a canonical object, or to none (index-like map keys).
          const c = canonicalObject(parsed, schema);
          if (c !== undefined && again === text) expect(c).toBe(parsed);
        }),
        { numRuns: 300 },
      );
    },
  );
});

describe('isCanonicalValue', () => {
  const entries = objectMetaSchema.fields.find((f) => f.name === 'managedFields')!.type;
  const entry = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} };

  it('answers what canonicalObject keeps as it is where it checks a value whatever it is', () => {
    expect(isCanonicalValue([entry], entries)).toBe(true);
    expect(isCanonicalValue([], entries)).toBe(true);
    expect(isCanonicalValue([{ operation: 'Update', manager: 'm' }], entries)).toBe(false);
    expect(isCanonicalValue([{ ...entry, manager: '' }], entries)).toBe(false);
    expect(isCanonicalValue('x', entries)).toBe(false);
    for (const list of [[entry], [{ operation: 'Update', manager: 'm' }], [{ manager: 'm', extra: 1 }]]) {
      const metadata = { name: 'a', managedFields: list };
      expect(canonicalObject(metadata, objectMetaSchema)?.['managedFields'] === list).toBe(
        isCanonicalValue(list, entries),
      );
    }
  });
});
