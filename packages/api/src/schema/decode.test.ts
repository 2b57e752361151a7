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
      { eventTime: '2026-01-02T03:04:05.5Z', note: '', deprecatedCount: null, metadata: { labels: { a: null } } },
      eventsV1EventSchema,
    );
    expect(r.value).toEqual({ eventTime: '2026-01-02T03:04:05.500000Z', note: '', metadata: { labels: { a: '' } } });
  });
});
