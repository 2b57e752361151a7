import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from '../../errors/api-error.js';
import { apiFailure } from '../../testing/api-failure.js';
import { strategicMerge } from './strategic-merge-patch.js';
import { hashSteps, WorkBudget } from './work-budget.js';

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

  describe('long lists take linear time (they took quadratic time before)', () => {
    const n = 100_000;
    const names = (prefix: string, count = n): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    const same = (a: unknown, b: unknown): void => expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    /** A budget for the checks of results at `n` items, which spend more than a request may. */
    const unbounded = (): WorkBudget => new WorkBudget(Infinity);
    /**
     * Counted, not timed: the steps charged to the work budget are at most a few per item (and
     * {@link hashSteps} for each value a table is built of), and
     * twice the items cost at most twice the steps (the quadratic code this replaced took minutes
     * at 100,000 items; a quadratic mutant is a timeout).
     */
    const expectLinear = (run: (count: number, budget: WorkBudget) => unknown): void => {
      const [small, large] = [10_000, 20_000];
      const half = new WorkBudget();
      run(small, half);
      const full = new WorkBudget();
      run(large, full);
      expect(full.spent).toBeLessThanOrEqual((8 + 3 * hashSteps) * large);
      expect(full.spent).toBeLessThanOrEqual(2.1 * half.spent);
    };

    it('merges a long finalizers set', () => {
      const out = strategicMerge(
        { metadata: { finalizers: names('a', 10) } },
        { metadata: { finalizers: [...names('b'), 'a1'] } },
        '',
        unbounded(),
      );
      same(out, { metadata: { finalizers: [...names('a', 10), ...names('b')] } });
      expectLinear((c, budget) =>
        strategicMerge(
          { metadata: { finalizers: names('a', c) } },
          { metadata: { finalizers: names('b', c) } },
          '',
          budget,
        ),
      );
    });

    it('deletes from, orders and retains with long lists', () => {
      const target = { metadata: { finalizers: names('a') } };
      same(
        strategicMerge(
          target,
          { metadata: { '$deleteFromPrimitiveList/finalizers': names('a').slice(1) } },
          '',
          unbounded(),
        ),
        {
          metadata: { finalizers: ['a0'] },
        },
      );
      same(
        strategicMerge(target, { metadata: { '$setElementOrder/finalizers': names('a').reverse() } }, '', unbounded()),
        { metadata: { finalizers: names('a').reverse() } },
      );
      const wide = Object.fromEntries(names('k').map((k) => [k, 1]));
      const retain = strategicMerge(wide, { $retainKeys: names('k').filter((_, i) => i % 2 === 0) }, '', unbounded());
      expect(Object.keys(retain as object)).toHaveLength(n / 2);
      expectLinear((c, budget) =>
        strategicMerge(
          { metadata: { finalizers: names('a', c) } },
          { metadata: { '$deleteFromPrimitiveList/finalizers': names('a', c).slice(1) } },
          '',
          budget,
        ),
      );
      expectLinear((c, budget) =>
        strategicMerge(
          { metadata: { finalizers: names('a', c) } },
          { metadata: { '$setElementOrder/finalizers': names('a', c).reverse() } },
          '',
          budget,
        ),
      );
      expectLinear((c, budget) =>
        strategicMerge(
          Object.fromEntries(names('k', c).map((k) => [k, 1])),
          { $retainKeys: names('k', c).filter((_, i) => i % 2 === 0) },
          '',
          budget,
        ),
      );
    });

    it('merges a long ownerReferences list by uid', () => {
      const merge = (c: number, budget?: WorkBudget): unknown =>
        strategicMerge(
          { metadata: { ownerReferences: names('u', c).map((uid) => ({ uid })) } },
          {
            metadata: {
              ownerReferences: [
                ...names('u', c).map((uid, i) => (i % 2 ? { uid, $patch: 'delete' } : { uid, name: 'x' })),
                ...names('v', c).map((uid) => ({ uid })),
              ],
            },
          },
          '',
          budget,
        );
      same(merge(n, unbounded()), {
        metadata: {
          ownerReferences: [
            ...names('u')
              .filter((_, i) => i % 2 === 0)
              .map((uid) => ({ uid, name: 'x' })),
            ...names('v').map((uid) => ({ uid })),
          ],
        },
      });
      expectLinear(merge);
    });

    it('builds tables of the object, looking a long directive list up in them', () => {
      // Building a Set or Map of a 3 MiB patch's 300,000 values holds the event loop 100-250 ms.
      const target = { metadata: { finalizers: names('a', 10) }, a: 1, b: 2 };
      const long = [...names('a', n), ...Array.from({ length: 1000 }, () => ({}))];
      const set = jest.spyOn(Map.prototype, 'set');
      const add = jest.spyOn(Set.prototype, 'add');
      let out, inserts;
      try {
        out = [
          strategicMerge(target, { metadata: { '$deleteFromPrimitiveList/finalizers': long.slice(1) } }),
          strategicMerge(target, { metadata: { '$setElementOrder/finalizers': [...long].reverse() } }),
          strategicMerge(target, { $retainKeys: [...long, 'b'] }),
        ];
      } finally {
        // Counted before restoring, which clears the calls.
        inserts = set.mock.calls.length + add.mock.calls.length;
        set.mockRestore();
        add.mockRestore();
      }
      same(out, [
        { metadata: { finalizers: ['a0'] }, a: 1, b: 2 },
        { metadata: { finalizers: names('a', 10).reverse() }, a: 1, b: 2 },
        { b: 2 },
      ]);
      expect(inserts).toBeLessThan(100);
    });

    it('charges hashSteps for each value a table holds', () => {
      // 150,000 new finalizers: 150,000 Set insertions, more than a request's budget.
      const err = apiFailure(() => strategicMerge({ metadata: {} }, { metadata: { finalizers: names('f', 150_000) } }));
      expect(err.code).toBe(422);
    });

    it('merges many patch items with one key into their item without copying it for each', () => {
      // 5,000 items with one uid, each adding a member: copying the growing item for each took
      // quadratic work (~0.3 s of event loop before the budget ran out).
      const merge = (c: number, budget?: WorkBudget): unknown =>
        strategicMerge(
          { metadata: { ownerReferences: [{ uid: 'a', kind: 'Pod' }] } },
          { metadata: { ownerReferences: names('k', c).map((k) => ({ uid: 'a', [k]: 1 })) } },
          '',
          budget,
        );
      const patch = { metadata: { ownerReferences: [{ uid: 'a', x: 1 }, { uid: 'a', y: 2 }, { uid: 'b' }] } };
      const target = { metadata: { ownerReferences: [{ uid: 'a', kind: 'Pod' }] } };
      same(strategicMerge(target, patch), {
        metadata: { ownerReferences: [{ uid: 'a', kind: 'Pod', x: 1, y: 2 }, { uid: 'b' }] },
      });
      // Neither the target nor the patch changed.
      same(
        [target, patch],
        [
          { metadata: { ownerReferences: [{ uid: 'a', kind: 'Pod' }] } },
          { metadata: { ownerReferences: [{ uid: 'a', x: 1 }, { uid: 'a', y: 2 }, { uid: 'b' }] } },
        ],
      );
      expectLinear(merge);
    });

    it('charges the budget it is given, a 422 once spent', () => {
      const budget = new WorkBudget(1_000);
      let err: unknown;
      try {
        strategicMerge({ metadata: {} }, { metadata: { finalizers: names('f', 2_000) } }, '', budget);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect([(err as ApiError).code, (err as ApiError).status.message]).toEqual([
        422,
        'the server rejected our request due to an error in our request: applying the patch takes more than 1000 steps, the most this server spends on one patch',
      ]);
    });
  });

  it('merges lists exactly as the plain (quadratic) reading does', () => {
    const uid = fc.constantFrom('1', '2', '3', null, undefined);
    const ref = fc
      .record({
        uid,
        name: fc.constantFrom('a', 'b', null),
        $patch: fc.constantFrom('delete', 'merge', undefined),
        $retainKeys: fc.constantFrom(undefined, ['name'], ['uid']),
      })
      .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
    const item = fc.oneof(
      { weight: 8, arbitrary: ref },
      { weight: 1, arbitrary: fc.constantFrom('s', 1, null, ['x']) },
    );
    const fin = fc.constantFrom('a', 'b', 'c', 'd', 1, null);
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 6 }),
        fc.array(item, { maxLength: 6 }),
        fc.array(fin, { maxLength: 5 }),
        fc.array(fin, { maxLength: 5 }),
        fc.array(fin, { maxLength: 5 }),
        fc.array(fc.oneof(fin, ref), { maxLength: 5 }),
        (targetRefs, patchRefs, targetFin, patchFin, drop, order) => {
          const target = { metadata: { ownerReferences: targetRefs, finalizers: targetFin } };
          const patch = {
            metadata: {
              ownerReferences: patchRefs,
              finalizers: patchFin,
              '$deleteFromPrimitiveList/finalizers': drop,
              '$setElementOrder/finalizers': order,
              '$setElementOrder/ownerReferences': order,
            },
          };
          let expected: unknown;
          let got: unknown;
          try {
            expected = referenceMerge(target, patch);
          } catch (e) {
            expected = (e as Error).message;
          }
          try {
            got = strategicMerge(target, patch);
          } catch (e) {
            got = (e as Error).message;
          }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

// The implementation before lists were indexed (kevents at 8a5a597), as the oracle of the test above.
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const refKeys: Readonly<Record<string, string | null>> = { finalizers: null, ownerReferences: 'uid' };
function referenceList(target: unknown, patch: unknown[], key: string | null): unknown[] {
  const base = Array.isArray(target) ? [...target] : [];
  if (key === null) {
    for (const v of patch) if (!base.includes(v)) base.push(v);
    return base;
  }
  for (const item of patch) {
    if (!isObj(item)) continue;
    if (own(item, '$patch') === 'delete') {
      const idx = base.findIndex((b) => isObj(b) && own(b, key) === own(item, key));
      if (idx >= 0) base.splice(idx, 1);
      continue;
    }
    const idx = base.findIndex((b) => isObj(b) && own(b, key) === own(item, key));
    if (idx >= 0) base[idx] = referenceMerge(base[idx], item, '');
    else base.push(item);
  }
  return base;
}
function referenceOrder(list: unknown[], order: unknown[], key: string | null): unknown[] {
  const id = (v: unknown): unknown => (key === null ? v : isObj(v) ? own(v, key) : undefined);
  const wanted = order.map(id);
  const rank = (v: unknown): number => {
    const i = wanted.indexOf(id(v));
    return i < 0 ? wanted.length : i;
  };
  return list
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
    .map((x) => x.v);
}
function referenceMerge(target: unknown, patch: unknown, path = ''): unknown {
  if (!isObj(patch)) return patch;
  const directive = own(patch, '$patch');
  if (directive === 'delete') return undefined;
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge') {
    throw new Error(`Unable to find the patch directive: ${String(directive)}`);
  }
  const src: Record<string, unknown> = directive === 'replace' || !isObj(target) ? {} : { ...target };
  const retain = own(patch, '$retainKeys');
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const f = k.slice('$deleteFromPrimitiveList/'.length);
      const list = own(src, f);
      if (Array.isArray(list) && Array.isArray(v)) src[f] = list.filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) {
      delete src[k];
      continue;
    }
    const childPath = path ? `${path}.${k}` : k;
    if (Array.isArray(v) && path === 'metadata' && Object.hasOwn(refKeys, k)) {
      src[k] = referenceList(own(src, k), v, refKeys[k]!);
    } else {
      const merged = referenceMerge(own(src, k), v, childPath);
      if (merged === undefined) delete src[k];
      else src[k] = merged;
    }
  }
  for (const [k, order] of Object.entries(patch)) {
    if (!k.startsWith('$setElementOrder/') || !Array.isArray(order)) continue;
    const f = k.slice('$setElementOrder/'.length);
    const list = own(src, f);
    if (Array.isArray(list) && path === 'metadata' && Object.hasOwn(refKeys, f)) {
      src[f] = referenceOrder(list, order, refKeys[f]!);
    }
  }
  if (Array.isArray(retain)) {
    for (const k of Object.keys(src)) if (!retain.includes(k)) delete src[k];
  }
  return src;
}
