import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { objectOf } from '../testing/schema-arbitraries.js';
import { decodeObject, decodeObjectInterpreted } from './decode.js';
import { coreEventListSchema, coreEventSchema, eventsV1EventSchema } from './event-schemas.js';
import { leaseListSchema } from './lease-schemas.js';
import { deleteOptionsSchema } from './meta-schemas.js';
import type { ObjectSchema } from './types.js';

describe('decodeObject', () => {
  it('collects unknown fields with their structural paths', () => {
    const r = decodeObject(
      {
        metadata: { name: 'a', bogus: 1, ownerReferences: [{ kind: 'Pod', nope: true }] },
        regarding: { kind: 'Pod', extra: 'x' },
        top: 1,
      },
      eventsV1EventSchema,
    );
    expect(r.unknownFields).toEqual(['metadata.bogus', 'metadata.ownerReferences[0].nope', 'regarding.extra', 'top']);
    expect(r.errors).toEqual([]);
  });

  it('words type errors like Go, with the struct-field path', () => {
    expect(decodeObject({ count: 'many' }, coreEventSchema).errors).toEqual([
      'json: cannot unmarshal string into Go struct field Event.count of type int32',
    ]);
    expect(decodeObject({ involvedObject: { kind: 5 } }, coreEventSchema).errors).toEqual([
      'json: cannot unmarshal number into Go struct field Event.involvedObject.kind of type string',
    ]);
    expect(decodeObject({ metadata: { labels: { a: 1 } } }, coreEventSchema).errors).toEqual([
      'json: cannot unmarshal number into Go struct field Event.metadata.labels of type string',
    ]);
    expect(decodeObject({ count: 1.5 }, coreEventSchema).errors).toEqual([
      'json: cannot unmarshal number 1.5 into Go struct field Event.count of type int32',
    ]);
    expect(decodeObject([], coreEventSchema).errors).toEqual([
      'json: cannot unmarshal array into Go value of type Event',
    ]);
  });

  it('normalizes times, drops nulls and keeps strings', () => {
    const r = decodeObject(
      {
        eventTime: '2026-01-02T04:04:05.500000+01:00',
        note: '',
        deprecatedCount: null,
        metadata: { labels: { a: null } },
      },
      eventsV1EventSchema,
    );
    expect(r.value).toEqual({ eventTime: '2026-01-02T03:04:05.500000Z', note: '', metadata: { labels: { a: '' } } });
  });

  it('parses MicroTimes with Go’s RFC3339Micro layout: exactly six fractional digits', () => {
    const r = decodeObject({ eventTime: '2026-01-02T03:04:05.5Z' }, eventsV1EventSchema);
    expect(r.errors).toEqual([
      'parsing time "2026-01-02T03:04:05.5Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".5Z" as ".000000"',
    ]);
  });

  it('keeps __proto__ map keys as data', () => {
    const r = decodeObject<{ metadata: { labels: Record<string, string> } }>(
      JSON.parse('{"metadata":{"labels":{"__proto__":"x","constructor":"y"}}}'),
      eventsV1EventSchema,
    );
    expect(Object.getPrototypeOf(r.value.metadata.labels)).toBe(Object.prototype);
    expect(Object.keys(r.value.metadata.labels)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(r.value.metadata.labels)).toBe('{"__proto__":"x","constructor":"y"}');
  });
});

describe('decodeObject (generated code) against the interpreted decoder', () => {
  /** Values a client may send where a field of another type is expected. */
  const odd = fc.constantFrom(
    1.5,
    2147483648,
    -2147483649,
    2 ** 53,
    '2026-01-02T03:04:05.5Z',
    'not a time',
    '',
    [1, 'a'],
    { a: 1 },
    true,
    null,
  );
  /** Sets `odd` values at random paths of an object, and members the schema does not know. */
  const mutated = (schema: ObjectSchema): fc.Arbitrary<unknown> =>
    fc
      .tuple(
        objectOf(schema, 0),
        fc.array(fc.tuple(fc.array(fc.nat(), { maxLength: 3 }), odd), { maxLength: 3 }),
        fc.subarray(['__proto__', 'constructor', 'toString', 'metadata', 'x']),
      )
      .map(([o, edits, extra]) => {
        const v = JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
        for (const [path, value] of edits) {
          let at: Record<string, unknown> = v;
          for (const step of path) {
            const keys = Object.keys(at);
            const next = keys.length === 0 ? undefined : at[keys[step % keys.length]];
            if (next === null || typeof next !== 'object') break;
            at = next as Record<string, unknown>;
          }
          const keys = Object.keys(at);
          if (keys.length > 0) at[keys[(path[0] ?? 0) % keys.length]] = structuredClone(value);
        }
        const json = JSON.stringify(v);
        const withExtra = extra.reduce((text, k) => `{"${k}":{"k":1},${text.slice(1)}`, json);
        return JSON.parse(withExtra.replace(',}', '}'));
      });
  const schemas = [eventsV1EventSchema, coreEventSchema, coreEventListSchema, leaseListSchema, deleteOptionsSchema];
  it.each(schemas.map((s) => [s.id, s] as const))(
    'gives the same value, unknown fields and errors for %s',
    (_id, schema) => {
      fc.assert(
        fc.property(fc.oneof({ weight: 9, arbitrary: mutated(schema) }, { weight: 1, arbitrary: odd }), (input) => {
          const generated = decodeObject(input, schema);
          const reference = decodeObjectInterpreted(input, schema);
          expect(JSON.stringify(generated.value)).toBe(JSON.stringify(reference.value));
          expect(generated.value).toEqual(reference.value);
          expect(generated.unknownFields).toEqual(reference.unknownFields);
          expect(generated.errors).toEqual(reference.errors);
        }),
        { numRuns: 400 },
      );
    },
  );

  it('reports a member named like an Object.prototype property as unknown, and keeps no prototype change', () => {
    const r = decodeObject<Record<string, unknown>>(
      JSON.parse('{"__proto__":{"polluted":1},"constructor":1,"reason":"r"}'),
      coreEventSchema,
    );
    expect(r.unknownFields).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.value).toEqual({ reason: 'r' });
  });
});
