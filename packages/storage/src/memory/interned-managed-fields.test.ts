import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { KubeObject } from '@kevents/api';
import { toBody } from '../body.js';
import { arrayEnd, internManagedFields } from './interned-managed-fields.js';
import { packBody, unpackBody } from './packed-body.js';
import { packObject } from './packed-object.js';

const entry = (manager: string, time?: string): Record<string, unknown> => ({
  manager,
  operation: 'Update',
  apiVersion: 'events.k8s.io/v1',
  ...(time ? { time } : {}),
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:action': {}, 'f:note': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
});

const event = (uid: string, managedFields: unknown): KubeObject =>
  ({
    metadata: { name: 'e', namespace: 'ns', uid, resourceVersion: '7', managedFields },
    involvedObject: { kind: 'Pod', uid },
    message: 'm',
  }) as KubeObject;

describe('interned managedFields in packed bodies', () => {
  it('packs an array in 3 characters plus 4 per time, and unpacks it exactly', () => {
    const a = event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', [entry('recorder', '2026-01-02T03:04:05Z')]);
    const b = event('00000000-0000-0000-0000-000000000000', [entry('recorder', '2026-11-28T16:51:36Z')]);
    const plain = (o: KubeObject): number =>
      packBody(toBody({ ...o, metadata: { ...o.metadata, managedFields: undefined } })).length;
    for (const o of [a, b]) {
      const packed = packObject(o);
      expect(packed).toBe(packBody(toBody(o)));
      // a comma, the token, U+0000 and the index, the time
      expect(packed.length - plain(o)).toBe(1 + 1 + 3 + 4);
      expect(unpackBody(packed)).toBe(toBody(o));
    }
  });

  it('keeps entries without a time, several entries, and falls back for times that do not print back the same', () => {
    for (const mf of [
      [entry('a'), entry('b', '2026-01-02T03:04:05Z')],
      [entry('a', '2026-01-02T03:04:05.5Z')],
      [entry('a', '1969-12-31T23:59:59Z')],
      [entry('é€', '2026-01-02T03:04:05Z')],
      { not: 'an array' },
    ]) {
      const o = event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', mf);
      const packed = packObject(o);
      expect(packed).toBe(packBody(toBody(o)));
      expect(unpackBody(packed)).toBe(toBody(o));
    }
    expect(internManagedFields(JSON.stringify([entry('a', '2026-01-02T03:04:05.5Z')]))).toBeDefined();
    expect(internManagedFields('{}')).toBeUndefined();
  });

  it('packs objects whose times alternate, and more times than it remembers, each to its own time', () => {
    const times = Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(2026, 0, 2, 3, 4, i)).toISOString());
    const objects = times.map((t, i) => ({
      ...event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', [entry('recorder', `${t.slice(0, 19)}Z`)]),
      // a value time (interned), a MicroTime and the entry's time, interleaved: each a different second
      eventTime: `${times[(i * 7) % times.length]!.slice(0, 19)}.000042Z`,
      lastTimestamp: `${times[(i * 13) % times.length]!.slice(0, 19)}Z`,
    }));
    for (let round = 0; round < 2; round++)
      for (const o of objects) expect(unpackBody(packObject(o as KubeObject))).toBe(toBody(o as KubeObject));
  });

  it('finds the end of an array past strings with brackets and escapes', () => {
    const text = JSON.stringify({ x: [{ a: '[]"\\]' }, [1, [2]]], y: 1 });
    const at = text.indexOf('[');
    expect(text.slice(at, arrayEnd(text, at))).toBe(JSON.stringify([{ a: '[]"\\]' }, [1, [2]]]));
    expect(arrayEnd(text, 0)).toBe(-1);
  });

  it('round-trips any managedFields-shaped array, packed either way', () => {
    const time = fc
      .integer({ min: 0, max: 4102444800 })
      .map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'));
    const arb = fc.array(
      fc.record(
        {
          manager: fc.string({ unit: 'binary', maxLength: 8 }),
          operation: fc.constantFrom('Apply', 'Update'),
          time: fc.oneof(time, fc.string({ maxLength: 22 })),
          fieldsV1: fc.dictionary(fc.string({ maxLength: 6 }), fc.constant({})),
        },
        { requiredKeys: ['manager'] },
      ),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(fc.uuid(), arb, (uid, mf) => {
        const o = event(uid, mf);
        const packed = packObject(o);
        expect(packed).toBe(packBody(toBody(o)));
        expect(unpackBody(packed)).toBe(toBody(o));
      }),
    );
  });
});

describe('interned one-entry arrays with a frozen fieldsV1', () => {
  it('pack as the JSON text would, without writing it, and notice a different entry', () => {
    const fieldsV1 = Object.freeze({ 'f:note': Object.freeze({}) });
    const mk = (manager: string, time?: string): KubeObject =>
      event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', [
        { manager, operation: 'Update', ...(time ? { time } : {}), fieldsType: 'FieldsV1', fieldsV1 },
      ]);
    for (const o of [
      mk('a', '2026-01-02T03:04:05Z'),
      mk('a', '2026-01-02T03:04:06Z'),
      mk('b', '2026-01-02T03:04:05Z'),
      mk('a'),
      mk('a', 'not a time'),
      mk('a', '2026-01-02T03:04:05Z'),
    ]) {
      const packed = packObject(o);
      expect(packed).toBe(packBody(toBody(o)));
      expect(unpackBody(packed)).toBe(toBody(o));
    }
    // The same members in another order, another operation, an extra member, a number.
    for (const e of [
      { operation: 'Update', manager: 'a', fieldsType: 'FieldsV1', fieldsV1 },
      { manager: 'a', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1 },
      { manager: 'a', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1, subresource: 'status' },
      { manager: 'a', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1, subresource: 1 },
    ]) {
      const o = event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', [e]);
      expect(packObject(o)).toBe(packBody(toBody(o)));
      expect(unpackBody(packObject(o))).toBe(toBody(o));
    }
    // A fieldsV1 frozen only at the top is written out, as any array.
    const shallow = Object.freeze({ 'f:spec': { 'f:x': {} } });
    const o = event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', [{ manager: 'a', fieldsV1: shallow }]);
    expect(packObject(o)).toBe(packBody(toBody(o)));
  });

  it('pack any one-entry array sharing frozen fieldsV1 objects as its JSON text would', () => {
    const shared = [
      Object.freeze({ 'f:note': Object.freeze({}) }),
      Object.freeze({ 'f:reason': Object.freeze({}), 'f:type': Object.freeze({}) }),
    ];
    const time = fc.oneof(
      fc
        .integer({ min: 1_700_000_000, max: 1_700_000_003 })
        .map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z')),
      fc.constant('2026-01-02T03:04:05.5Z'),
    );
    const entry = fc.record(
      {
        manager: fc.constantFrom('a', 'b', ''),
        operation: fc.constantFrom('Apply', 'Update'),
        apiVersion: fc.constantFrom('v1', 'events.k8s.io/v1'),
        time,
        fieldsType: fc.constant('FieldsV1'),
        fieldsV1: fc.constantFrom(...shared),
        subresource: fc.constantFrom('', 'status'),
      },
      { requiredKeys: ['fieldsV1'] },
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 20 }), (entries) => {
        for (const e of entries) {
          const o = event('0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', [e]);
          const packed = packObject(o);
          expect(packed).toBe(packBody(toBody(o)));
          expect(unpackBody(packed)).toBe(toBody(o));
        }
      }),
    );
  });
});
