import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { mergePatch } from './merge-patch.js';

describe('mergePatch (RFC 7386)', () => {
  // The examples of RFC 7386, appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (target, patch, want) => {
    expect(mergePatch(target, patch)).toEqual(want);
  });

  it('does not change the target', () => {
    const target = { a: { b: 1 }, c: 2 };
    mergePatch(target, { a: { b: 2 }, c: null });
    expect(target).toEqual({ a: { b: 1 }, c: 2 });
  });

  it('an empty patch object changes nothing; patching with the target itself is the identity', () => {
    const json = fc.jsonValue().filter((v) => v !== null);
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), (target) => {
        expect(mergePatch(target, {})).toEqual(target);
      }),
      { numRuns: 200 },
    );
  });
});
