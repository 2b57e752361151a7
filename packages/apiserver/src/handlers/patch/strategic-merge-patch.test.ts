import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../errors/api-error.js';
import { strategicMerge } from './strategic-merge-patch.js';

const owner = (uid: string, extra: Record<string, unknown> = {}) => ({ uid, kind: 'Pod', name: uid, ...extra });

describe('strategicMerge', () => {
  it('merges objects recursively, deletes on null, replaces scalars', () => {
    const target = { a: 1, b: { c: 2, d: 3 }, e: 'x' };
    expect(strategicMerge(target, { a: 2, b: { c: null, f: 4 }, e: null, g: true })).toEqual({
      a: 2,
      b: { d: 3, f: 4 },
      g: true,
    });
    expect(target).toEqual({ a: 1, b: { c: 2, d: 3 }, e: 'x' });
  });

  it('returns a non-object patch as it is, and merges an object into a non-object target', () => {
    expect(strategicMerge({ a: 1 }, 'x')).toBe('x');
    expect(strategicMerge({ a: 1 }, [1])).toEqual([1]);
    expect(strategicMerge({ a: 1 }, null)).toBe(null);
    expect(strategicMerge('x', { a: 1 })).toEqual({ a: 1 });
    expect(strategicMerge([1], { a: 1 })).toEqual({ a: 1 });
    expect(strategicMerge({ a: 'x' }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
  });

  it('replaces lists that have no merge strategy (every Event list)', () => {
    expect(strategicMerge({ a: [1, 2], b: 1 }, { a: [3] })).toEqual({ a: [3], b: 1 });
    expect(strategicMerge({ finalizers: ['x'] }, { finalizers: ['y'] })).toEqual({ finalizers: ['y'] });
    expect(
      strategicMerge({ spec: { metadata: { finalizers: ['x'] } } }, { spec: { metadata: { finalizers: ['y'] } } }),
    ).toEqual({
      spec: { metadata: { finalizers: ['y'] } },
    });
  });

  it('merges metadata.finalizers as a set', () => {
    expect(strategicMerge({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { finalizers: ['b', 'c'] } })).toEqual({
      metadata: { finalizers: ['a', 'b', 'c'] },
    });
    expect(strategicMerge({ metadata: {} }, { metadata: { finalizers: ['a'] } })).toEqual({
      metadata: { finalizers: ['a'] },
    });
  });

  it('merges metadata.ownerReferences by uid: updates, appends, deletes', () => {
    const target = { metadata: { ownerReferences: [owner('1'), owner('2', { controller: true })] } };
    const out = strategicMerge(target, {
      metadata: {
        ownerReferences: [
          { uid: '2', controller: null, blockOwnerDeletion: true },
          owner('3'),
          { uid: '1', $patch: 'delete' },
          { uid: '9', $patch: 'delete' },
          'not-an-object',
        ],
      },
    });
    expect(out).toEqual({
      metadata: { ownerReferences: [owner('2', { blockOwnerDeletion: true }), owner('3')] },
    });
    expect(target.metadata.ownerReferences).toHaveLength(2);
    expect(target.metadata.ownerReferences[1]).toEqual(owner('2', { controller: true }));
  });

  it('updates the first ownerReference too, and merges nested owner fields as plain objects', () => {
    const out = strategicMerge(
      { metadata: { ownerReferences: [owner('1', { x: { metadata: { finalizers: ['a'] } } }), owner('2')] } },
      { metadata: { ownerReferences: [{ uid: '1', controller: true, x: { metadata: { finalizers: ['b'] } } }] } },
    );
    expect(out).toEqual({
      metadata: {
        ownerReferences: [owner('1', { controller: true, x: { metadata: { finalizers: ['b'] } } }), owner('2')],
      },
    });
  });

  it('merges finalizers only under the top-level metadata', () => {
    expect(
      strategicMerge(
        { x: { y: { metadata: { finalizers: ['a'] } } } },
        { x: { y: { metadata: { finalizers: ['b'] } } } },
      ),
    ).toEqual({ x: { y: { metadata: { finalizers: ['b'] } } } });
  });

  it('keeps ownerReferences items that are not objects and compares the uid only', () => {
    const out = strategicMerge(
      { metadata: { ownerReferences: ['x', owner('1')] } },
      { metadata: { ownerReferences: [owner('2')] } },
    );
    expect(out).toEqual({ metadata: { ownerReferences: ['x', owner('1'), owner('2')] } });
    const kept = strategicMerge(
      { metadata: { ownerReferences: ['x', owner('1')] } },
      { metadata: { ownerReferences: [{ uid: '1', $patch: 'delete' }] } },
    );
    expect(kept).toEqual({ metadata: { ownerReferences: ['x'] } });
  });

  it('$patch: replace replaces the object, $patch: merge merges, $patch: delete removes it', () => {
    const target = { a: { b: 1, c: 2 }, d: 1 };
    expect(strategicMerge(target, { a: { $patch: 'replace', e: 3 } })).toEqual({ a: { e: 3 }, d: 1 });
    expect(strategicMerge(target, { a: { $patch: 'merge', e: 3 } })).toEqual({ a: { b: 1, c: 2, e: 3 }, d: 1 });
    expect(strategicMerge(target, { a: { $patch: 'delete' } })).toStrictEqual({ d: 1 });
    expect(Object.keys(strategicMerge(target, { a: { $patch: 'delete' } }) as object)).toEqual(['d']);
    expect(strategicMerge(target, { $patch: 'delete' })).toBeUndefined();
    expect(strategicMerge(target, { $patch: 'replace', x: 1 })).toEqual({ x: 1 });
  });

  it('refuses an unknown $patch directive with a 400', () => {
    let err: unknown;
    try {
      strategicMerge({}, { a: { $patch: 'bogus' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(400);
    expect((err as ApiError).status.message).toBe('Unable to find the patch directive: bogus');
  });

  it('$retainKeys keeps only the listed keys', () => {
    expect(strategicMerge({ a: 1, b: 2, c: 3 }, { $retainKeys: ['a', 'd'], d: 4 })).toEqual({ a: 1, d: 4 });
    expect(strategicMerge({ a: 1, b: 2 }, { $retainKeys: 'a' })).toEqual({ a: 1, b: 2 });
  });

  it('$deleteFromPrimitiveList removes values; $setElementOrder is ignored', () => {
    expect(
      strategicMerge(
        { l: ['a', 'b', 'c'], m: 1 },
        { '$deleteFromPrimitiveList/l': ['b', 'x'], '$setElementOrder/l': ['c', 'a'] },
      ),
    ).toEqual({ l: ['a', 'c'], m: 1 });
    expect(strategicMerge({ l: 'a' }, { '$deleteFromPrimitiveList/l': ['a'] })).toEqual({ l: 'a' });
    expect(strategicMerge({ l: ['a'] }, { '$deleteFromPrimitiveList/l': 'a' })).toEqual({ l: ['a'] });
    expect(strategicMerge({}, { '$deleteFromPrimitiveList/l': ['a'] })).toEqual({});
  });
});
