import { describe, expect, it } from '@jest/globals';
import { decodeObject } from './decode.js';
import { coreEventSchema, eventsV1EventSchema } from './event-schemas.js';

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
