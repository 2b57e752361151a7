import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { canonicalObject, coreEventSchema, objectMetaSchema, type KubeObject } from '@kevents/api';
import { fromBody, toBody, withResourceVersion } from './body.js';
import { metadataWithResourceVersion } from './metadata-order.js';
import { unpackBody } from './memory/packed-body.js';
import { packObject } from './memory/packed-object.js';
import { decodeMetadataSharing, decodeSharing } from './memory/sharing-decode.js';

/** ObjectMeta's members in Go's field order. */
const goOrder = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

const stored = (): KubeObject =>
  ({
    metadata: {
      name: 'e',
      namespace: 'ns',
      uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa',
      creationTimestamp: '2026-11-30T09:00:00Z',
      managedFields: [
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-11-30T09:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:message': {} },
        },
      ],
    },
    involvedObject: { kind: 'Pod', name: 'p' },
    reason: 'Pulled',
    message: 'm',
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  }) as unknown as KubeObject;

const metadataKeys = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields'];

describe('metadataWithResourceVersion', () => {
  it('puts resourceVersion where Go writes it: before the first member that follows it, or last', () => {
    expect(Object.keys(metadataWithResourceVersion({ name: 'a', uid: 'u', labels: {} }, '5'))).toEqual([
      'name',
      'uid',
      'resourceVersion',
      'labels',
    ]);
    expect(Object.keys(metadataWithResourceVersion({ name: 'a', namespace: 'n' }, '5'))).toEqual([
      'name',
      'namespace',
      'resourceVersion',
    ]);
    expect(metadataWithResourceVersion({}, '5')).toEqual({ resourceVersion: '5' });
  });

  it('replaces a resourceVersion in its own place and leaves the metadata given unchanged', () => {
    const m = { labels: {}, resourceVersion: '1', name: 'a' };
    const out = metadataWithResourceVersion(m, '9');
    expect(Object.keys(out)).toEqual(['resourceVersion', 'labels', 'name']);
    expect(out['resourceVersion']).toBe('9');
    expect(m.resourceVersion).toBe('1');
  });

  it('keeps an own __proto__ member as a member, not as the prototype', () => {
    const m = JSON.parse('{"name":"a","__proto__":{"x":1}}') as Record<string, unknown>;
    const out = metadataWithResourceVersion(m, '3');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"name":"a","__proto__":{"x":1},"resourceVersion":"3"}');
  });

  it('is the metadata with resourceVersion set, members in their order and resourceVersion in Go’s (property)', () => {
    const key = fc.oneof(fc.constantFrom(...goOrder), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 12 }), fc.string(), (keys, rv) => {
        const m: Record<string, unknown> = {};
        keys.forEach((k, i) =>
          Object.defineProperty(m, k, { value: i, enumerable: true, writable: true, configurable: true }),
        );
        const out = metadataWithResourceVersion(m, rv);
        expect(out).toEqual({ ...m, resourceVersion: rv });
        const rest = Object.keys(m).filter((k) => k !== 'resourceVersion');
        const at = Object.keys(m).findIndex(
          (k) => k === 'resourceVersion' || goOrder.indexOf(k) > goOrder.indexOf('resourceVersion'),
        );
        const want =
          at < 0
            ? [...rest, 'resourceVersion']
            : [
                ...Object.keys(m)
                  .slice(0, at)
                  .filter((k) => k !== 'resourceVersion'),
                'resourceVersion',
                ...Object.keys(m)
                  .slice(at)
                  .filter((k) => k !== 'resourceVersion'),
              ];
        expect(Object.keys(out)).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('objects read from a store', () => {
  it('have their metadata in Go’s order, so encoding copies none of it (the memory store’s decoders, fromBody, withResourceVersion)', () => {
    const obj = stored();
    const packed = packObject(obj);
    const reads = {
      decodeSharing: decodeSharing(packed, 12),
      decodeMetadataSharing: decodeMetadataSharing(packed, 12) as KubeObject,
      fromBody: fromBody(toBody(obj), 12),
      unpacked: fromBody(unpackBody(packed), 12),
      withResourceVersion: withResourceVersion(obj, 12),
    };
    for (const [name, read] of Object.entries(reads)) {
      expect([name, Object.keys(read.metadata)]).toEqual([name, metadataKeys]);
      expect([name, read.metadata.resourceVersion]).toEqual([name, '12']);
      expect([name, canonicalObject(read.metadata, objectMetaSchema)]).toEqual([name, read.metadata]);
      expect(canonicalObject(read.metadata, objectMetaSchema)).toBe(read.metadata as unknown);
    }
    expect(canonicalObject(reads.decodeSharing, coreEventSchema)).toBe(reads.decodeSharing as unknown);
  });
});
