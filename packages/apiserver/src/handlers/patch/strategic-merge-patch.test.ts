import { describe, expect, it, jest } from '@jest/globals';
import { eventsV1EventSchema, leaseSchema } from '@kevents/api';
import { ApiError } from '../../errors/api-error.js';
import { apiFailure } from '../../testing/api-failure.js';
import { strategicMerge } from './strategic-merge-patch.js';
import { hashSteps, WorkBudget } from './work-budget.js';

const owner = (uid: string, extra: Record<string, unknown> = {}) => ({ uid, kind: 'Pod', name: uid, ...extra });

describe('strategicMerge', () => {
  // Each expectation is k8s.io/apimachinery's StrategicMergeMapPatch's answer for a core/v1 Event
  // (tools/patch-oracle/strategic), named after the Go function that gives it.
  const failure = (target: unknown, patch: Record<string, unknown>): [number, string | undefined] => {
    const err = apiFailure(() => strategicMerge(target, patch));
    return [err.code, err.status.message];
  };

  it('merges maps, deletes on null, replaces scalars and lists without a merge strategy', () => {
    const target = { metadata: { labels: { a: '1', b: '2' }, managedFields: [{ manager: 'a' }] }, count: 1 };
    expect(
      strategicMerge(target, {
        metadata: { labels: { a: null, c: '3' }, managedFields: [{ manager: 'b', time: null }] },
        count: 2,
        message: 'm',
      }),
    ).toEqual({
      metadata: { labels: { b: '2', c: '3' }, managedFields: [{ manager: 'b', time: null }] },
      count: 2,
      message: 'm',
    });
    expect(target.metadata.labels).toEqual({ a: '1', b: '2' });
    // A map where the object has none loses its null members (discardNullValuesFromPatch).
    expect(strategicMerge({ metadata: {} }, { metadata: { labels: { a: null, b: '1' } } })).toEqual({
      metadata: { labels: { b: '1' } },
    });
  });

  it('merges finalizers as a set, the patch items first, then the others in order (normalizeElementOrder)', () => {
    expect(strategicMerge({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { finalizers: ['c', 'b'] } })).toEqual({
      metadata: { finalizers: ['c', 'a', 'b'] },
    });
    // Each value once (deduplicateScalars).
    expect(
      strategicMerge({ metadata: { finalizers: ['a', 'b', 'a'] } }, { metadata: { finalizers: ['c', 'c'] } }),
    ).toEqual({ metadata: { finalizers: ['c', 'a', 'b'] } });
  });

  it('merges ownerReferences by uid: merges, deletes, appends the patch item as it is', () => {
    expect(
      strategicMerge(
        { metadata: { ownerReferences: [owner('1'), { uid: '2', controller: true }] } },
        {
          metadata: {
            ownerReferences: [
              { uid: '3' },
              { uid: '2', controller: null, blockOwnerDeletion: true },
              { uid: '1', $patch: 'delete' },
              { uid: '9', $patch: 'delete' },
            ],
          },
        },
      ),
    ).toEqual({ metadata: { ownerReferences: [{ uid: '3' }, { uid: '2', blockOwnerDeletion: true }] } });
    // mergeSliceWithoutSpecialElements appends the item with its nulls and directives.
    expect(
      strategicMerge(
        { metadata: { ownerReferences: [{ uid: '1' }] } },
        { metadata: { ownerReferences: [{ uid: '2', name: null, x: { $patch: 'delete' } }] } },
      ),
    ).toEqual({ metadata: { ownerReferences: [{ uid: '2', name: null, x: { $patch: 'delete' } }, { uid: '1' }] } });
    // Where the object has no list, the patch's loses them (removeDirectives).
    expect(
      strategicMerge(
        { metadata: {} },
        { metadata: { ownerReferences: [{ uid: '2', name: null, x: { $patch: 'delete' } }, { $patch: 'delete' }] } },
      ),
    ).toEqual({ metadata: { ownerReferences: [{ uid: '2' }] } });
  });

  it('$patch: replace in a merged list makes its other items the list, grouped by uid (mergeSliceWithSpecialElements)', () => {
    // The deletion deletes from the object's list, which the replace drops: the patch's uid 1 stays.
    expect(
      strategicMerge(
        { metadata: { ownerReferences: [{ uid: '1' }, { uid: '2' }] } },
        {
          metadata: {
            ownerReferences: [
              { uid: '1', $patch: 'delete' },
              { $patch: 'replace' },
              { uid: '1', name: 'x' },
              { uid: '3' },
              { uid: '1', name: 'y' },
            ],
          },
        },
      ),
    ).toEqual({ metadata: { ownerReferences: [{ uid: '1', name: 'x' }, { uid: '1', name: 'y' }, { uid: '3' }] } });
  });

  it('refuses list items without their merge key, of mixed types, and lists of lists', () => {
    const owners = { metadata: { ownerReferences: [{ uid: '1' }] } };
    expect(failure(owners, { metadata: { ownerReferences: [{ name: 'no-uid' }] } })).toEqual([
      400,
      'map: map[name:no-uid] does not contain declared merge key: uid',
    ]);
    expect(failure(owners, { metadata: { ownerReferences: ['x'] } })).toEqual([
      400,
      'list element types are not identical: [[map[uid:1]] [x]]',
    ]);
    expect(failure({ metadata: { ownerReferences: [] } }, { metadata: { ownerReferences: ['x'] } })).toEqual([
      400,
      'expected a map[string]interface {}, but received a string',
    ]);
    const fin = { metadata: { finalizers: ['a'] } };
    expect(failure(fin, { metadata: { finalizers: [1] } })).toEqual([
      400,
      'list element types are not identical: [[a] [1]]',
    ]);
    expect(failure({ metadata: { finalizers: [] } }, { metadata: { finalizers: [['a']] } })).toEqual([
      422,
      'the server rejected our request due to an error in our request: lists of lists are not supported',
    ]);
  });

  it('$patch: delete is an empty map, replace the patch as it is, others are refused (handleDirectiveInMergeMap)', () => {
    expect(
      strategicMerge(
        { metadata: { labels: { a: '1' } }, source: { host: 'h' } },
        {
          metadata: { labels: { $patch: 'delete' } },
          source: { $patch: 'replace', component: 'c', x: { $patch: 'delete' } },
        },
      ),
    ).toEqual({ metadata: { labels: {} }, source: { component: 'c', x: { $patch: 'delete' } } });
    expect(strategicMerge({ metadata: { name: 'e' } }, { $patch: 'delete' })).toEqual({});
    const labels = { metadata: { labels: { a: '1' } } };
    expect(failure(labels, { metadata: { labels: { $patch: 'bogus', b: ['x', null] } } })).toEqual([
      400,
      'unknown patch type: bogus in map: map[$patch:bogus b:[x <nil>]]',
    ]);
    expect(failure(labels, { metadata: { labels: { $patch: 'merge' } } })).toEqual([
      400,
      'unknown patch type: merge in map: map[$patch:merge]',
    ]);
  });

  it('$retainKeys keeps the members it lists, which must name all the patch sets (applyRetainKeysDirective)', () => {
    expect(
      strategicMerge(
        { metadata: { name: 'n', namespace: 'ns', uid: 'u' } },
        { metadata: { $retainKeys: ['name', 'labels'], labels: { a: '1' }, namespace: null } },
      ),
    ).toEqual({ metadata: { name: 'n', labels: { a: '1' } } });
    const meta = { metadata: { name: 'n' } };
    expect(failure(meta, { metadata: { $retainKeys: ['name'], labels: { a: '1' } } })).toEqual([
      400,
      'invalid patch format of retainKeys',
    ]);
    expect(failure(meta, { metadata: { $retainKeys: 'name' } })).toEqual([400, 'invalid patch format of retainKeys']);
  });

  it('$setElementOrder orders the list, the object-only items among them (mergePatchIntoOriginal)', () => {
    const fin = { metadata: { finalizers: ['a', 'b', 'c'] } };
    expect(strategicMerge(fin, { metadata: { '$setElementOrder/finalizers': ['c', 'a'] } })).toEqual({
      metadata: { finalizers: ['b', 'c', 'a'] },
    });
    expect(strategicMerge(fin, { metadata: { '$setElementOrder/finalizers': ['d', 'a'], finalizers: ['d'] } })).toEqual(
      { metadata: { finalizers: ['d', 'a', 'b', 'c'] } },
    );
    expect(
      strategicMerge(
        { metadata: { ownerReferences: [{ uid: '1' }, { uid: '2' }] } },
        { metadata: { '$setElementOrder/ownerReferences': [{ uid: '2' }, { uid: '1' }] } },
      ),
    ).toEqual({ metadata: { ownerReferences: [{ uid: '2' }, { uid: '1' }] } });
    expect(failure(fin, { metadata: { '$setElementOrder/finalizers': ['a'], finalizers: ['d'] } })).toEqual([
      400,
      "The order in patch list:\n[d]\n doesn't match $setElementOrder list:\n[a]\n",
    ]);
    expect(failure(fin, { metadata: { '$setElementOrder/finalizers': 'a' } })).toEqual([
      400,
      'expected a []interface {}, but received a string',
    ]);
    expect(failure({ metadata: { finalizers: [] } }, { metadata: { '$setElementOrder/finalizers': ['a'] } })).toEqual([
      400,
      'no elements in any of the given slices',
    ]);
    expect(
      failure(
        { metadata: { ownerReferences: [{ uid: '1' }] } },
        { metadata: { '$setElementOrder/ownerReferences': [{ uid: '1' }, { name: 'x' }] } },
      ),
    ).toEqual([400, 'map: map[name:x] does not contain declared merge key: uid']);
  });

  it('$deleteFromPrimitiveList deletes values of a list of the same type (deleteFromSlice)', () => {
    const fin = { metadata: { finalizers: ['a', 'b', 'c'] } };
    expect(strategicMerge(fin, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'x'] } })).toEqual({
      metadata: { finalizers: ['a', 'c'] },
    });
    expect(strategicMerge(fin, { metadata: { '$deleteFromPrimitiveList/finalizers': 'b' } })).toEqual(fin);
    expect(strategicMerge(fin, { metadata: { '$deleteFromPrimitiveList/finalizers': null } })).toEqual({
      metadata: {},
    });
    expect(failure(fin, { metadata: { $deleteFromPrimitiveListx: ['a'] } })).toEqual([
      400,
      'invalid patch format of primitive list',
    ]);
  });

  it('looks fields up in the Event type (PatchMetaFromStruct)', () => {
    expect(failure({ bogus: { a: 1 } }, { bogus: { b: 1 } })).toEqual([
      400,
      'unable to find api field in struct Event for the json field "bogus"',
    ]);
    expect(failure({ metadata: { labels: { a: {} } } }, { metadata: { labels: { a: { b: 1 } } } })).toEqual([
      400,
      'merging an object in json but data type is not struct, instead is: map',
    ]);
    expect(failure({ series: { count: [1] } }, { series: { count: [2] } })).toEqual([
      400,
      'expected slice or array type, but got: ptr',
    ]);
    // A field the object lacks takes the patch's value, whatever its name.
    expect(strategicMerge({}, { bogus: { b: 1 } })).toEqual({ bogus: { b: 1 } });
  });

  it('looks fields up in the kind it is given: Leases, events.k8s.io Events', () => {
    expect(
      strategicMerge(
        { spec: { holderIdentity: 'a', leaseDurationSeconds: 10 } },
        { spec: { holderIdentity: 'b' } },
        undefined,
        leaseSchema,
      ),
    ).toEqual({ spec: { holderIdentity: 'b', leaseDurationSeconds: 10 } });
    expect(
      strategicMerge(
        { regarding: { kind: 'Pod', name: 'p' } },
        { regarding: { name: 'q' } },
        undefined,
        eventsV1EventSchema,
      ),
    ).toEqual({ regarding: { kind: 'Pod', name: 'q' } });
    expect(
      apiFailure(() => strategicMerge({ spec: { x: {} } }, { spec: { x: { a: 1 } } }, undefined, leaseSchema)).status
        .message,
    ).toBe('unable to find api field in struct LeaseSpec for the json field "x"');
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
        unbounded(),
      );
      // Go's order (normalizeElementOrder): the patch's values, the object's others among them.
      same(out, { metadata: { finalizers: [...names('b'), ...names('a', 10)] } });
      expectLinear((c, budget) =>
        strategicMerge(
          { metadata: { finalizers: names('a', c) } },
          { metadata: { finalizers: names('b', c) } },
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
          unbounded(),
        ),
        {
          metadata: { finalizers: ['a0'] },
        },
      );
      same(strategicMerge(target, { metadata: { '$setElementOrder/finalizers': names('a').reverse() } }, unbounded()), {
        metadata: { finalizers: names('a').reverse() },
      });
      const wide = Object.fromEntries(names('k').map((k) => [k, 1]));
      const retain = strategicMerge(wide, { $retainKeys: names('k').filter((_, i) => i % 2 === 0) }, unbounded());
      expect(Object.keys(retain as object)).toHaveLength(n / 2);
      expectLinear((c, budget) =>
        strategicMerge(
          { metadata: { finalizers: names('a', c) } },
          { metadata: { '$deleteFromPrimitiveList/finalizers': names('a', c).slice(1) } },
          budget,
        ),
      );
      expectLinear((c, budget) =>
        strategicMerge(
          { metadata: { finalizers: names('a', c) } },
          { metadata: { '$setElementOrder/finalizers': names('a', c).reverse() } },
          budget,
        ),
      );
      expectLinear((c, budget) =>
        strategicMerge(
          Object.fromEntries(names('k', c).map((k) => [k, 1])),
          { $retainKeys: names('k', c).filter((_, i) => i % 2 === 0) },
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
      const long = names('a', n);
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
      // Go panics hashing a map (partitionPrimitivesByPresentInList, applyRetainKeysDirective: a
      // 500 on kube).
      for (const patch of [
        { metadata: { '$setElementOrder/finalizers': [...long, {}] } },
        { $retainKeys: [...long, {}] },
      ]) {
        expect(failure(target, patch)).toEqual([400, 'runtime error: hash of unhashable type map[string]interface {}']);
      }
    });

    it('charges hashSteps for each value a table holds', () => {
      // 150,000 new finalizers: 150,000 Map insertions, more than a request's budget.
      const err = apiFailure(() =>
        strategicMerge({ metadata: { finalizers: ['x'] } }, { metadata: { finalizers: names('f', 150_000) } }),
      );
      expect(err.code).toBe(422);
    });

    it('merges many patch items with one key into their item without copying it for each', () => {
      // 5,000 items with one uid, each adding a member: copying the growing item for each took
      // quadratic work (~0.3 s of event loop before the budget ran out).
      const merge = (c: number, budget?: WorkBudget): unknown =>
        strategicMerge(
          { metadata: { ownerReferences: [{ uid: 'a', kind: 'Pod' }] } },
          { metadata: { ownerReferences: names('k', c).map((k) => ({ uid: 'a', [k]: 1 })) } },
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
        strategicMerge({ metadata: {} }, { metadata: { finalizers: names('f', 2_000) } }, budget);
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
});
