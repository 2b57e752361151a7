import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { internValue } from './interned-managed-fields.js';
import { packBody, unpackBody } from './packed-body.js';

/** UUIDs (any case, any version) and strings one step away from one. */
const uuidLike = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => u.slice(0, 35)),
  fc.uuid().map((u) => `${u}0`),
  fc.uuid().map((u) => u.replace('-', 'x')),
  fc.uuid().map((u) => u.replace(/[0-9a-f]/, 'g')),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
);

describe('packBody', () => {
  it('gives back the same JSON text for any JSON, whatever its keys and strings hold', () => {
    const known = fc.constantFrom(
      'metadata',
      'name',
      'uid',
      'uid',
      'message',
      'firstTimestamp',
      'host',
      'kind',
      'note',
    );
    const text = fc.oneof(
      known,
      fc.string(),
      fc.constantFrom('"name":', '\\', '\\"', '"', 'a\\\\"name":', '\u0001', '\u001f'),
      uuidLike,
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(known, text), tie('v'), { maxKeys: 5 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(known, text), value, { maxKeys: 8 }), (obj) => {
        const json = JSON.stringify(obj);
        const packed = packBody(json);
        expect(unpackBody(packed)).toBe(json);
        expect(packed.length).toBeLessThanOrEqual(json.length);
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives back the same text for long bodies unpacked as strings (past 1 MiB, or above U+00FF), packed characters anywhere', () => {
    const item = fc.oneof(
      fc.constantFrom('name', 'uid', 'message', 'note', 'a\\"name":', '\u0001', '\u20ac'),
      uuidLike,
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(item, item), { maxLength: 20 }),
        fc.nat(3_000),
        fc.constantFrom('\u20ac', 'x'),
        (members, pad, ch) => {
          const obj: Record<string, unknown> = { message: ch.repeat(pad) };
          for (const [k, v] of members) obj[k] = v;
          obj['name'] = ch.repeat(3_000 - pad);
          const json = JSON.stringify(obj);
          expect(unpackBody(packBody(json))).toBe(json);
        },
      ),
      { numRuns: 300 },
    );
    const huge = JSON.stringify({
      metadata: { name: 'n', uid: '6a1f4a5c-3d2b-4c1e-9f0a-123456789abc' },
      message: 'x'.repeat(1_200_000),
      note: 'y',
    });
    expect(unpackBody(packBody(huge))).toBe(huge);
  });

  it('packs the member names of a stored (core/v1) Event into one character each', () => {
    const json = JSON.stringify({
      metadata: { name: 'a', namespace: 'b', uid: 'c' },
      message: '"name": stays in a value',
      firstTimestamp: null,
      custom: 1,
    });
    const packed = packBody(json);
    expect(packed).toBe(
      `{\u0001{\u0002"a",\u0004${internValue('b')},\u0005"c"},\u0010"\\"name\\": stays in a value",\u0014null,"custom":1}`,
    );
    expect(unpackBody(packed)).toBe(json);
  });

  it('packs the values of repeating members as a template index, and times in seconds in four characters', () => {
    const event = (i: number, host: string) =>
      JSON.stringify({
        kind: 'Event',
        metadata: { name: `e${i}`, namespace: 'ns', creationTimestamp: '2026-11-28T21:50:59Z' },
        reportingInstance: host,
        reportingComponent: 'kubelet',
        firstTimestamp: null,
        lastTimestamp: '2026-02-30T00:00:00Z',
        message: 'kubelet',
        type: 'Normal\u0100',
        reason: 'with "quotes"',
        action: 'x'.repeat(257),
      });
    const first = packBody(event(1, 'node-17.cluster.example.internal'));
    const second = packBody(event(2, 'node-17.cluster.example.internal'));
    expect(unpackBody(first)).toBe(event(1, 'node-17.cluster.example.internal'));
    expect(unpackBody(second)).toBe(event(2, 'node-17.cluster.example.internal'));
    const head = internValue('node-17.cluster.example.internal')!;
    expect(head).toHaveLength(3);
    expect(second).toContain(`\u001e${head},`);
    expect(internValue('2026-11-28T21:50:59Z')).toHaveLength(7);
    expect(internValue('2026-01-02T03:04:05.000007Z')).toHaveLength(10);
    const micro = JSON.stringify({ eventTime: '2026-01-02T03:04:05.000007Z', fieldPath: 'spec.containers{web}' });
    expect(packBody(micro)).toHaveLength(1 + 1 + 10 + 1 + 1 + 3 + 1);
    expect(unpackBody(packBody(micro))).toBe(micro);
    expect(second).toContain(`\u0006${internValue('2026-11-28T21:50:59Z')}}`);
    // Not a time that prints back the same, a member not interned, a value with escapes or
    // characters past U+00FF, a long value: as they are.
    expect(second).toContain('\u0015"2026-02-30T00:00:00Z"');
    expect(second).toContain('\u0010"kubelet"');
    expect(second).toContain('\u0017"Normal\u0100"');
    expect(second).toContain('\u000f"with \\"quotes\\""');
    expect(second).toContain(`\u001b"${'x'.repeat(257)}"`);
    expect(second.length).toBeLessThan(event(2, 'node-17.cluster.example.internal').length - 60);
  });
});

describe('packedKeys', () => {
  it('packs every member name of a stored Event the bench writes', () => {
    const json = JSON.stringify({
      metadata: { name: 'n', namespace: 'ns', uid: 'u', creationTimestamp: 't' },
      involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u', apiVersion: 'v1' },
      reportingComponent: 'c',
      reportingInstance: 'i',
      reason: 'r',
      message: 'm',
      source: { component: 'c', host: 'h' },
      firstTimestamp: 't',
      lastTimestamp: 't',
      count: 1,
      type: 'Normal',
      eventTime: 't',
      series: { count: 2, lastObservedTime: 't' },
      action: 'a',
      related: { fieldPath: 'f', resourceVersion: '1' },
    });
    expect(packBody(json)).not.toMatch(/"[A-Za-z]+":/);
  });
});

describe('packed UIDs', () => {
  it('packs a lowercase UUID after "uid": into a mark and its 16 bytes, and gives it back', () => {
    const json = JSON.stringify({ metadata: { uid: '00ff1020-7f80-9fa0-c0d0-e0f0000a1b2c' }, x: { uid: 'A' } });
    const packed = packBody(json);
    expect(packed).toBe(
      '{\u0001{\u0005\u001f\u0000\u00ff\u0010\u0020\u007f\u0080\u009f\u00a0\u00c0\u00d0\u00e0\u00f0\u0000\u000a\u001b\u002c},"x":{\u0005"A"}}',
    );
    expect(unpackBody(packed)).toBe(json);
  });

  it('leaves UUIDs elsewhere, uppercase ones and near misses as text', () => {
    for (const uid of [
      '0B7A3F4E-8A1C-4C44-9A55-D2F0A4F1F7AA',
      '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7a',
      '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aaa',
    ]) {
      const json = JSON.stringify({ uid, name: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa' });
      const packed = packBody(json);
      expect(packed).not.toContain('\u001f');
      expect(unpackBody(packed)).toBe(json);
    }
  });

  it('gives back any object whose uid members hold UUIDs or near misses', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ uid: uuidLike, n: fc.integer() }), { maxLength: 4 }), (items) => {
        const json = JSON.stringify({ metadata: { uid: items[0]?.uid ?? '' }, items });
        expect(unpackBody(packBody(json))).toBe(json);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('unpackBody', () => {
  /** Strings of one-byte characters (unpacked byte by byte) or of any UTF-16 units (as strings). */
  const latin1 = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)) });
  const anyUnits = fc.string({ unit: 'binary' });

  it('gives back any packed Event-like object, one-byte text or not', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: fc.oneof(latin1, anyUnits),
          uid: fc.oneof(fc.uuid(), latin1),
          note: fc.oneof(latin1, anyUnits),
        }),
        fc.array(latin1, { maxLength: 3 }),
        (meta, labels) => {
          const json = JSON.stringify({ metadata: meta, message: labels.join('\u00ff'), labels, count: labels.length });
          expect(unpackBody(packBody(json))).toBe(json);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('unpacks one-byte characters as they are, and mixed text through the string path', () => {
    const json = JSON.stringify({
      metadata: { name: 'caf\u00e9-\u00ff', uid: '00ff1020-7f80-9fa0-c0d0-e0f0000a1b2c' },
      message: '\u20ac',
    });
    expect(unpackBody(packBody(json))).toBe(json);
    const latin = JSON.stringify({ metadata: { name: 'caf\u00e9' }, message: '\u0080\u00a0\u00ff' });
    expect(unpackBody(packBody(latin))).toBe(latin);
  });

  it('grows its buffer for a large body and builds one past its cap as a string', () => {
    for (const size of [800, 40_000, 60_000]) {
      const json = JSON.stringify({
        metadata: { name: 'n', uid: '00ff1020-7f80-9fa0-c0d0-e0f0000a1b2c' },
        message: 'm\u00e9'.repeat(size),
      });
      expect(unpackBody(packBody(json))).toBe(json);
    }
    const short = JSON.stringify({ metadata: { name: 'after' }, message: 'x' });
    expect(unpackBody(packBody(short))).toBe(short);
  });
});
