import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { KubeObject } from '@kevents/api';
import { toBody } from '../body.js';
import { StorageError } from '../errors.js';
import { packBody, unpackBody } from './packed-body.js';
import { packObject } from './packed-object.js';

/** Member names the packed form shortens, and near misses. */
const key = fc.oneof(
  fc.constantFrom('metadata', 'name', 'uid', 'resourceVersion', 'labels', 'message', 'count', 'names', 'Name', 'ui'),
  fc.constantFrom(
    'namespace',
    'kind',
    'reason',
    'creationTimestamp',
    'reportingInstance',
    'lastTimestamp',
    'eventTime',
  ),
  fc.string({ maxLength: 5 }),
  fc.string({ maxLength: 3, unit: 'binary' }),
  fc.constantFrom('__proto__', '"', '\\', '\u0001', '0', '10'),
);
const uuidLike = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u.slice(0, 35)}"`),
  fc.uuid().map((u) => `${u.slice(0, 35)}\\`),
  fc.uuid().map((u) => u.replace('-', 'x')),
  fc.uuid().map((u) => `${u}0`),
);
/** What JSON.stringify writes in its own ways: skipped members, nulls in arrays, toJSON, -0. */
const odd = fc.constantFrom(undefined, NaN, Infinity, -0, 1e21, 0.1, () => 1, Symbol('s'), new Date(0), [undefined]);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('ÿ', 'Ā', '\ud800', 'é"\\', '\u001f\u0000', '€'),
    fc.constantFrom(
      '2026-11-28T21:50:59Z',
      '2026-02-30T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '2026-11-28T21:50:59.5Z',
      'kubelet',
      '',
    ),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')),
    fc
      .tuple(fc.date({ noInvalidDate: true }), fc.integer({ min: 0, max: 999_999 }))
      .map(([d, us]) => d.toISOString().replace(/\.\d{3}Z$/, `.${String(us).padStart(6, '0')}Z`)),
    fc.constantFrom('2026-13-02T03:04:05.123456Z', '2026-01-02T03:04:05.12345Z', '2026-01-02T03:04:05.123456+01:00'),
    uuidLike,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    odd,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const object = fc
  .record(
    {
      metadata: fc.oneof(
        fc.dictionary(key, value, { maxKeys: 5 }),
        fc.record({ name: fc.string(), uid: uuidLike, resourceVersion: fc.oneof(fc.string(), fc.constant(null)) }),
        value,
      ),
      rest: fc.dictionary(key, value, { maxKeys: 6 }),
    },
    { requiredKeys: ['rest'] },
  )
  .map(({ metadata, rest }) => (metadata === undefined ? rest : { ...rest, metadata }));

describe('packObject', () => {
  it('writes exactly what packBody(toBody(obj)) writes', () => {
    fc.assert(
      fc.property(object, (o) => {
        const expected = packBody(toBody(o as KubeObject));
        expect(packObject(o as KubeObject)).toBe(expected);
        expect(unpackBody(packObject(o as KubeObject))).toBe(toBody(o as KubeObject));
      }),
      { numRuns: 3_000 },
    );
  });

  it('packs a stored Event: names, both UIDs, no resourceVersion', () => {
    const o = {
      metadata: { name: 'a', uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', resourceVersion: '5' },
      involvedObject: { kind: 'Pod', uid: '5d9e0c52-38a4-4c36-9d6f-3d7a0b1d2c3e' },
      count: 1,
    };
    const packed = packObject(o);
    expect(packed).toBe(packBody(toBody(o)));
    expect(packed).not.toContain('resourceVersion');
    expect(packed.split('\u001f')).toHaveLength(3);
  });

  it('writes objects larger than its buffer, and past a megabyte takes the long way', () => {
    for (const size of [10, 20_000, 70_000, 1_100_000]) {
      const o = { metadata: { name: 'big', uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa' }, message: 'm'.repeat(size) };
      expect(packObject(o)).toBe(packBody(toBody(o)));
    }
    const small = { metadata: { name: 'after' }, message: 'é' };
    expect(packObject(small)).toBe(packBody(toBody(small)));
  });

  it('packs an object whose getter packs another (the nested one takes the long way)', () => {
    const inner = { metadata: { name: 'inner' }, count: 2 };
    let nested = '';
    const outer = {
      metadata: { name: 'outer' },
      get message() {
        nested = packObject(inner);
        return 'read';
      },
    };
    expect(packObject(outer)).toBe(packBody(toBody({ metadata: { name: 'outer' }, message: 'read' } as KubeObject)));
    expect(nested).toBe(packBody(toBody(inner)));
    expect(packObject(inner)).toBe(nested);
  });

  it('writes what JSON.stringify writes of an object whose getters remove, add or change members', () => {
    const removing = (): Record<string, unknown> => {
      const o: Record<string, unknown> = {
        metadata: { name: 'r' },
        get reason() {
          delete o['message'];
          return 'R';
        },
        message: 'gone',
        type: 'Normal',
      };
      return o;
    };
    const adding = (): Record<string, unknown> => {
      const o: Record<string, unknown> = {
        metadata: { name: 'a' },
        get reason() {
          o['note'] = 'late';
          o['type'] = 'Warning';
          return 'R';
        },
        type: 'Normal',
      };
      return o;
    };
    for (const make of [removing, adding])
      expect(packObject(make() as unknown as KubeObject)).toBe(packBody(JSON.stringify(make())));
  });

  it('takes the long way, with its errors, for what is not plain JSON data', () => {
    class Meta {
      name = 'x';
    }
    const withClass = { metadata: new Meta() } as unknown as KubeObject;
    expect(packObject(withClass)).toBe(packBody(toBody(withClass)));
    const withNullProto = { metadata: Object.assign(Object.create(null) as object, { name: 'n' }) };
    expect(packObject(withNullProto)).toBe(packBody(toBody(withNullProto)));
    const big = { metadata: {}, n: 1n } as unknown as KubeObject;
    expect(() => packObject(big)).toThrow(StorageError);
    const cyclic: Record<string, unknown> = { metadata: {} };
    cyclic.self = cyclic;
    expect(() => packObject(cyclic as unknown as KubeObject)).toThrow(/not serializable/);
    expect(() => packObject(null as unknown as KubeObject)).toThrow(/must be a JSON object/);
  });
});
