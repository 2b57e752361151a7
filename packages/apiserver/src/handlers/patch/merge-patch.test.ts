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

  it('drops the null members of objects in an array put where the target has no object, as json-patch v4 does', () => {
    // evanphx/json-patch v4 merge.go: mergeDocs prunes a value set where the member was missing
    // or null, merge prunes the patch when the current value is not an object; null elements stay.
    const list = [{ a: 1, b: null, c: [{ d: null, e: [null] }] }, null, [{ f: null }]];
    const pruned = [{ a: 1, c: [{ e: [null] }] }, null, [{}]];
    expect(mergePatch({}, { x: list })).toEqual({ x: pruned });
    expect(mergePatch({ x: null }, { x: list })).toEqual({ x: pruned });
    expect(mergePatch({ x: [1] }, { x: list })).toEqual({ x: pruned });
    expect(mergePatch({ x: 'v' }, { x: { y: list } })).toEqual({ x: { y: pruned } });
    // Over an object, an array replaces it as it is.
    expect(mergePatch({ x: { y: 1 } }, { x: list })).toEqual({ x: list });
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
