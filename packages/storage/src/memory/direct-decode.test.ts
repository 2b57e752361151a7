import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseJson } from '@kevents/api';
import { decodeDirect, decodeMetadataDirect } from './direct-decode.js';
import { packBody, packedKeys, unpackBody } from './packed-body.js';
import { decodeFromText, decodeMetadataSharing, decodeSharing } from './sharing-decode.js';

/** What the text decoder gives for a packed body: the parse of its unpacked text. */
const parsed = (packed: string): unknown => parseJson(unpackBody(packed));

/** Deeply equal to the parse, members in the same order (JSON.stringify writes them in order). */
const expectAsParsed = (direct: unknown, packed: string): void => {
  expect(direct).toEqual(parsed(packed));
  expect(JSON.stringify(direct)).toBe(JSON.stringify(parsed(packed)));
};

/** UUIDs (packed as their bytes after `"uid":`, which may be any byte: `"`, `\`, control characters) and near misses. */
const uuidLike = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => u.slice(0, 35)),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    '225c2200-1f1f-5c5c-2222-000102030405',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
);

/** Values the store interns (repeating plain strings, times in seconds and MicroTimes) and others near them. */
const internable = fc.oneof(
  fc.constantFrom('Pod', 'v1', 'Normal', 'kubelet', 'spec.containers{web}', 'ns-01', ''),
  fc.integer({ min: 0, max: 0xffffffff }).map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z')),
  fc.integer({ min: 0, max: 0xffffffff }).map((s) => new Date(s * 1000).toISOString().replace('Z', '123Z')),
  fc.constantFrom('2026-01-02T03:04:05.5Z', 'a"b', 'a\\b', '\u0000', 'caf\u00e9', '\u20ac'),
);

const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...packedKeys) },
  fc.string(),
  fc.constantFrom('"name":', 'a\\b', 'q"', '\u0001', '\u001f', 'constructor', '0', '10', '2'),
);

const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.string({ unit: 'binary' }),
    internable,
    uuidLike,
    fc.constantFrom('\\', '\\"', '"', 'a\\\\"name":', '\u0001', '\u001f', '\u0000kevents:managedFields'),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 5 }),
  ),
})).v;

/** A managedFields array as writers store it: entries with a time each, fieldsV1 of any shape. */
const managedFields = fc.array(
  fc.record({
    manager: fc.constantFrom('kubelet', 'node', '\u0000'),
    operation: fc.constant('Update'),
    apiVersion: fc.constant('events.k8s.io/v1'),
    time: fc.integer({ min: 0, max: 0xffffffff }).map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z')),
    fieldsType: fc.constant('FieldsV1'),
    fieldsV1: fc.oneof(fc.constant({ 'f:note': {}, 'f:type': {} }), fc.jsonValue({ maxDepth: 2 })),
  }),
  { maxLength: 2 },
);

/** Every member name of a value, at any depth. */
const namesOf = (v: unknown): string[] =>
  typeof v !== 'object' || v === null
    ? []
    : Array.isArray(v)
      ? v.flatMap(namesOf)
      : Object.entries(v).flatMap(([k, x]) => [k, ...namesOf(x)]);

describe('decodeDirect', () => {
  it('decodes any packed object as the parse of its text, or leaves it to the text decoder', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 8 }), (obj) => {
        const packed = packBody(JSON.stringify(obj));
        const direct = decodeDirect(packed);
        if (direct !== undefined) expectAsParsed(direct, packed);
        // Left only for a member name `__proto__` or one spelled with an escape.
        else expect(namesOf(obj).some((k) => k === '__proto__' || JSON.stringify(k).includes('\\'))).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('decodes Event-like objects with interned values, UUIDs, times and managedFields as their parse', () => {
    fc.assert(
      fc.property(
        fc.record({ name: fc.string(), namespace: internable, uid: uuidLike, creationTimestamp: internable }),
        managedFields,
        fc.record({ kind: internable, uid: uuidLike, fieldPath: internable, apiVersion: internable }),
        fc.oneof(fc.string(), fc.string({ unit: 'binary' })),
        (meta, mf, involvedObject, message) => {
          const packed = packBody(
            JSON.stringify({ metadata: { ...meta, managedFields: mf }, involvedObject, message }),
          );
          const direct = decodeDirect(packed);
          expect(direct).toBeDefined();
          expectAsParsed(direct, packed);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('leaves to the text decoder a member name that JSON.parse reads specially, and what is no object', () => {
    for (const json of ['{"__proto__":{"a":1}}', '{"a\\u0062":1}', '{"m":{"\\n":2}}', '[1,2]', '"x"']) {
      expect(decodeDirect(packBody(json))).toBeUndefined();
    }
    expect(decodeDirect(packBody('{"a":{"__proto__x":1,"b\\"":2}}'))).toBeUndefined();
    expect(decodeDirect(packBody('{"a":{"__proto__x":1}}'))).toEqual({ a: { __proto__x: 1 } });
  });

  it('reads a lone surrogate escape as U+FFFD, as the text decoder (parseJson) and Go do', () => {
    const cases: [string, string][] = [
      ['x\ud800y', 'x\ufffdy'],
      ['\udfff', '\ufffd'],
      ['a\ud83d\ude00b\ud83d', 'a\ud83d\ude00b\ufffd'],
    ];
    for (const [message, read] of cases) {
      const packed = packBody(JSON.stringify({ metadata: { name: 'a' }, message }));
      expectAsParsed(decodeDirect(packed), packed);
      expect((decodeDirect(packed) as { message: string }).message).toBe(read);
    }
  });

  it('keeps member order, index-like names, numbers and escapes as JSON.parse does', () => {
    const json = JSON.stringify({
      b: 1,
      a: [1.5, -2e-7, 1e21, 0, true, false, null, {}, []],
      10: 'ten',
      2: 'two',
      message: 'say "hi"\n\u2028\\',
      uid: '00ff1020-7f80-9fa0-c0d0-e0f0000a1b2c',
      metadata: { name: 'caf\u00e9', namespace: 'ns-01', creationTimestamp: '2026-01-02T03:04:05Z' },
    });
    const packed = packBody(json);
    expectAsParsed(decodeDirect(packed), packed);
  });
});

describe('decodeSharing', () => {
  it('gives what the text decoder gives, with the resourceVersion, whichever decoder reads the body', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), managedFields, (obj, mf) => {
        const packed = packBody(JSON.stringify({ ...obj, metadata: { name: 'n', managedFields: mf } }));
        const decoded = decodeSharing(packed, 42);
        const fromText = decodeFromText(packed, 42);
        expect(decoded).toEqual(fromText);
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(fromText));
        expect(decoded.metadata.resourceVersion).toBe('42');
      }),
      { numRuns: 1_000 },
    );
    // Metadata absent, or no object: the text decoder's answer (it adds one, or fails as it does).
    expect(decodeSharing(packBody('{"a":1}'), 3)).toEqual({ a: 1, metadata: { resourceVersion: '3' } });
  });
});

describe('decodeMetadataDirect and decodeMetadataSharing', () => {
  const otherKey = key.filter((k) => k !== 'metadata');

  it('decode the metadata of any packed object as the parse of its text, skipping the members before it', () => {
    fc.assert(
      fc.property(
        fc.dictionary(otherKey, value, { maxKeys: 5 }),
        fc.dictionary(key, value, { maxKeys: 3 }),
        managedFields,
        fc.dictionary(otherKey, value, { maxKeys: 3 }),
        (before, meta, mf, after) => {
          const obj = { ...before, metadata: { ...meta, managedFields: mf }, ...after };
          const json = JSON.stringify(obj);
          const packed = packBody(json);
          const parsed = parseJson(json) as { metadata?: unknown };
          const direct = decodeMetadataDirect(packed);
          if (direct !== undefined) expect(JSON.stringify(direct)).toBe(JSON.stringify(parsed.metadata));
          else if (decodeDirect(packed) !== undefined) {
            // left to the text decoder only when the metadata is no object or is not the parse's
            expect(
              typeof parsed.metadata !== 'object' || parsed.metadata === null || Array.isArray(parsed.metadata),
            ).toBe(true);
          }
          const sharing = decodeMetadataSharing(packed, 7) as { metadata: Record<string, unknown> };
          const full = decodeFromText(packed, 7);
          expect(JSON.stringify(sharing.metadata)).toBe(JSON.stringify(full.metadata));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('passes over large values before the metadata without decoding them', () => {
    const message = '"\n'.repeat(500_000);
    const packed = packBody(
      JSON.stringify({ kind: 'Event', message, list: [{ a: [message, 1, null] }], metadata: { name: 'm', uid: 'u' } }),
    );
    expect(decodeMetadataDirect(packed)).toEqual({ name: 'm', uid: 'u' });
    expect(decodeMetadataSharing(packed, 9)).toEqual({ metadata: { name: 'm', uid: 'u', resourceVersion: '9' } });
    expect(decodeMetadataDirect(packBody('{"kind":"x"}'))).toBeUndefined();
    expect(decodeMetadataDirect(packBody('{"metadata":[1]}'))).toBeUndefined();
  });
});
