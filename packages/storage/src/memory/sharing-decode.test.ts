import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { KubeObject } from '@kevents/api';
import { fromBody } from '../body.js';
import { deepFreeze } from '../deep-freeze.js';
import { managedFieldsMarker, unpackBody } from './packed-body.js';
import { packObject } from './packed-object.js';
import { decodeSharing } from './sharing-decode.js';

const fieldsV1 = (): Record<string, unknown> => ({
  'f:action': {},
  'f:note': {},
  'f:regarding': { 'f:kind': {}, 'f:name': {}, 'f:uid': {} },
});

const entry = (manager: string, time?: string, fields: unknown = fieldsV1()): Record<string, unknown> => ({
  manager,
  operation: 'Update',
  apiVersion: 'events.k8s.io/v1',
  ...(time === undefined ? {} : { time }),
  fieldsType: 'FieldsV1',
  fieldsV1: fields,
});

const event = (name: string, managedFields: unknown, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    metadata: { name, namespace: 'ns', uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', managedFields },
    involvedObject: { kind: 'Pod', name },
    message: 'm',
    ...extra,
  }) as KubeObject;

/** What decode() gives for the object packed: its parse. */
const parsed = (packed: string, rv: number): KubeObject => fromBody(unpackBody(packed), rv);

/** Equal to the parse, members in the same order. */
const expectAsParsed = (packed: string, rv: number): KubeObject => {
  const shared = decodeSharing(packed, rv);
  const want = parsed(packed, rv);
  expect(shared).toEqual(want);
  expect(JSON.stringify(shared)).toBe(JSON.stringify(want));
  return shared;
};

const fieldsOf = (o: KubeObject, i = 0): unknown =>
  (o.metadata.managedFields as unknown as Record<string, unknown>[])[i]!['fieldsV1'];

/** A time as metav1.Time marshals it (seconds, UTC), which the store packs as four characters. */
const seconds = fc
  .integer({ min: 0, max: 0xffffffff })
  .map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

describe('decodeSharing', () => {
  it('gives the parsed object, the entries new and their fieldsV1 one frozen value for every object of a template', () => {
    const a = packObject(event('a', [entry('kubelet', '2026-01-02T03:04:05Z')]));
    const b = packObject(event('b', [entry('kubelet', '2026-11-28T16:51:36Z')]));
    const oa = expectAsParsed(a, 7);
    const ob = expectAsParsed(b, 8);
    expect(fieldsOf(oa)).toBe(fieldsOf(ob));
    expect(Object.isFrozen(fieldsOf(oa))).toBe(true);
    expect(oa.metadata.managedFields![0]).not.toBe(ob.metadata.managedFields![0]);
    expect(oa.metadata.managedFields![0]!.time).toBe('2026-01-02T03:04:05Z');
    expect(oa.metadata.resourceVersion).toBe('7');
  });

  it('finds the marker by its text only: a stored string that ends with it, after another character, is no marker', () => {
    const packed = packObject(
      event('e', [entry('kubelet', '2026-01-02T03:04:05Z')], { message: `x${managedFieldsMarker}` }),
    );
    const other = packObject(event('f', [entry('kubelet', '2026-01-02T03:04:06Z')]));
    expect(fieldsOf(expectAsParsed(packed, 5))).toBe(fieldsOf(expectAsParsed(other, 6)));
  });

  it('shares the fieldsV1 a writer shared frozen (the apiserver does per create shape)', () => {
    const fields = deepFreeze(fieldsV1());
    const packs = ['2026-01-02T03:04:05Z', '2026-01-02T03:04:06Z'].map((t, i) =>
      packObject(event(`f${i}`, [entry('frozen-writer', t, fields)])),
    );
    const [x, y] = packs.map((p) => expectAsParsed(p, 3));
    expect(fieldsOf(x!)).toBe(fieldsOf(y!));
    expect(fieldsOf(x!)).toEqual(fields);
  });

  it('parses where the array is not only metadata.managedFields, or a stored string spells the marker', () => {
    const cases: KubeObject[] = [
      // several entries, one without a time
      event('s', [entry('one'), entry('two', '2026-01-02T03:04:05Z')]),
      // a time inside fieldsV1 too: the template's times are not one per entry
      event('t', [entry('three', '2026-01-02T03:04:05Z', { time: '2026-01-02T03:04:05Z' })]),
      // managedFields elsewhere only, then twice
      { ...event('u', undefined), spec: { managedFields: [entry('four', '2026-01-02T03:04:05Z')] } } as KubeObject,
      event('v', [entry('five', '2026-01-02T03:04:05Z')], {
        spec: { managedFields: [entry('six', '2026-01-02T03:04:05Z')] },
      }),
      // the marker as a stored string, and as the managedFields value itself
      event('w', [entry('seven', '2026-01-02T03:04:05Z')], { message: managedFieldsMarker }),
      event('x', managedFieldsMarker),
      // the marker's text after an escaped quote, or a stored string that ends with it
      event('q', [entry('nine', '2026-01-02T03:04:05Z')], { message: `"${managedFieldsMarker}` }),
      event('r', [entry('ten', '2026-01-02T03:04:05Z')], { message: `x${managedFieldsMarker}` }),
      // not interned: no array, an empty one, characters past U+00FF
      event('y', { not: 'an array' }),
      event('z', []),
      event('é€', [entry('é€', '2026-01-02T03:04:05Z')]),
      // an entry that is no object
      event('n', ['x', entry('eight', '2026-01-02T03:04:05Z')]),
    ];
    for (const o of cases) expectAsParsed(packObject(o), 11);
  });

  it('equals the parse of any object with managedFields the store packs', () => {
    const anEntry = fc.record(
      {
        manager: fc.constantFrom('kubelet', 'kube-controller-manager', 'é', '\u0000'),
        operation: fc.constantFrom('Update', 'Apply'),
        apiVersion: fc.constantFrom('v1', 'events.k8s.io/v1'),
        time: fc.oneof(seconds, fc.constant('2026-01-02T03:04:05.5Z')),
        fieldsType: fc.constant('FieldsV1'),
        fieldsV1: fc.oneof(fc.constant(fieldsV1()), fc.jsonValue({ maxDepth: 3 })),
        subresource: fc.constantFrom('status', ''),
      },
      { requiredKeys: ['manager'] },
    );
    fc.assert(
      fc.property(
        fc.array(anEntry, { maxLength: 3 }),
        fc.option(fc.jsonValue({ maxDepth: 2 })),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (entries, spec, freeze, rv) => {
          const mf = freeze ? entries.map((e) => ({ ...e, fieldsV1: deepFreeze(e.fieldsV1) })) : entries;
          expectAsParsed(packObject(event('p', mf, spec === null ? {} : { spec })), rv);
        },
      ),
      { numRuns: 500 },
    );
  });
});
