import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { packBody, unpackBody } from './packed-body.js';

describe('packBody', () => {
  it('gives back the same JSON text for any JSON, whatever its keys and strings hold', () => {
    const known = fc.constantFrom('metadata', 'name', 'uid', 'message', 'firstTimestamp', 'host', 'kind', 'note');
    const text = fc.oneof(
      known,
      fc.string(),
      fc.constantFrom('"name":', '\\', '\\"', '"', 'a\\\\"name":', '\u0001', '\u001f'),
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

  it('packs the member names of a stored (core/v1) Event into one character each', () => {
    const json = JSON.stringify({
      metadata: { name: 'a', namespace: 'b', uid: 'c' },
      message: '"name": stays in a value',
      firstTimestamp: null,
      custom: 1,
    });
    const packed = packBody(json);
    expect(packed).toBe(
      '{\u0001{\u0002"a",\u0004"b",\u0005"c"},\u0011"\\"name\\": stays in a value",\u0015null,"custom":1}',
    );
    expect(unpackBody(packed)).toBe(json);
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
