import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { SortedIndex } from './sorted-index.js';

interface E {
  readonly key: string;
}

/**
 * The keys of `entries` equal `want`, reported around the first difference: a diff of two arrays
 * of thousands of keys takes Jest minutes.
 */
function expectKeys(entries: Iterable<E>, want: readonly string[]): void {
  const got = [...entries].map((e) => e.key);
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  if (i < got.length || i < want.length)
    expect({ at: i, got: got.slice(i, i + 5) }).toEqual({ at: i, want: want.slice(i, i + 5) });
}

describe('SortedIndex', () => {
  it('agrees with a sorted array on inserts, removals, ranks and ranges', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '/', '0', 'z'), minLength: 0, maxLength: 4 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), keys: fc.array(key, { maxLength: 1500, size: 'max' }) }),
      fc.record({ kind: fc.constant('remove' as const), keys: fc.array(key, { maxLength: 600, size: 'max' }) }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 6 }),
        fc.array(fc.tuple(key, fc.option(key)), { maxLength: 20 }),
        (ops, queries) => {
          const index = new SortedIndex<E>();
          const model = new Map<string, E>();
          for (const { kind, keys } of ops) {
            for (const k of keys) {
              if (kind === 'insert' && !model.has(k)) {
                const e = { key: k };
                model.set(k, e);
                index.insert(e);
              } else if (kind === 'remove') {
                const e = model.get(k);
                expect(index.remove(e ?? { key: k })).toBe(e !== undefined);
                model.delete(k);
              }
            }
          }
          const sorted = [...model.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(index.size).toBe(sorted.length);
          expectKeys(index.range(''), sorted);
          for (const [k, e] of model) expect(index.find(k)).toBe(e);
          for (const [from, to] of queries) {
            expect(index.find(from)).toBe(model.get(from));
            expect(index.rank(from)).toBe(sorted.filter((k) => k < from).length);
            const want = sorted.filter((k) => k >= from && (to === null || k < to));
            expectKeys(index.range(from, to ?? undefined), want);
          }
        },
      ),
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('agrees with a sorted array for keys with long shared prefixes and any code units, through slots', () => {
    // Keys like `ns/name-xyz` share most of their characters: the chunks' prefixes and codes decide.
    const unit = fc.constantFrom('a', 'b', '-', '/', '\u0000', '\u00ff', '\ud800', '\uffff');
    const key = fc
      .tuple(fc.constantFrom('', 'bench/bench-', 'bench/bench-a', 'ns/'), fc.string({ unit, maxLength: 5 }))
      .map(([p, s]) => p + s);
    fc.assert(
      fc.property(
        fc.constantFrom(4, 8, 16, 512),
        fc.array(fc.tuple(fc.boolean(), key), { minLength: 200, maxLength: 2500, size: 'max' }),
        fc.array(key, { maxLength: 30 }),
        (chunkSize, ops, queries) => {
          const index = new SortedIndex<E>(chunkSize);
          const model = new Map<string, E>();
          for (const [add, k] of ops) {
            const slot = index.locate(k);
            const found = index.at(slot, k);
            expect(found).toBe(model.get(k));
            if (add && found === undefined) {
              const e = { key: k };
              index.insertAt(slot, e);
              model.set(k, e);
            } else if (!add && found !== undefined) {
              expect(index.remove(found)).toBe(true);
              model.delete(k);
            }
          }
          const sorted = [...model.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expectKeys(index.range(''), sorted);
          for (const q of queries) {
            expect(index.find(q)).toBe(model.get(q));
            expect(index.rank(q)).toBe(sorted.filter((k) => k < q).length);
            expectKeys(
              index.range(q),
              sorted.filter((k) => k >= q),
            );
          }
        },
      ),
      { numRuns: 80, endOnFailure: true },
    );
  });

  it('takes an even chunk size from 4 to 1024', () => {
    for (const n of [2, 5, 1026, 4.5]) expect(() => new SortedIndex<E>(n)).toThrow(RangeError);
    expect(new SortedIndex<E>(4).size).toBe(0);
  });

  it('removes only the entry it holds for a key', () => {
    const index = new SortedIndex<E>();
    const a = { key: 'a' };
    index.insert(a);
    expect(index.remove({ key: 'a' })).toBe(false);
    expect(index.remove(a)).toBe(true);
    expect(index.size).toBe(0);
  });
});
