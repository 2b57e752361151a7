import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import type { ApiError } from '../errors/api-error.js';
import { checkObjectValues, countValuesUpTo, maxObjectValues, withinObjectValues } from './object-values.js';

/** Every member and element at every depth, counted by recursion: the reference. */
function reference(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
  return children.reduce<number>((n, c) => n + 1 + reference(c), 0);
}

describe('countValuesUpTo', () => {
  test('counts the members and elements below the root', () => {
    expect(countValuesUpTo(null, 10)).toBe(0);
    expect(countValuesUpTo('x', 10)).toBe(0);
    expect(countValuesUpTo({}, 10)).toBe(0);
    expect(countValuesUpTo({ a: 1, b: [1, 2, { c: null }] }, 10)).toBe(6);
    expect(countValuesUpTo([[], {}], 10)).toBe(2);
    expect(countValuesUpTo({ a: undefined, b: { c: undefined, d: 1 } }, 10)).toBe(2);
  });

  test('agrees with a recursive count up to the limit, and stops past it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat(60), (value, limit) => {
        const all = reference(value);
        const counted = countValuesUpTo(value, limit);
        if (all <= limit) expect(counted).toBe(all);
        else {
          expect(counted).toBeGreaterThan(limit);
          expect(counted).toBeLessThanOrEqual(all);
        }
      }),
    );
  });

  test('reads own members only, __proto__ among them, and nests as deep as the value does', () => {
    const own = JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown;
    expect(countValuesUpTo(own, 10)).toBe(3);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(countValuesUpTo(deep, 1_000_000)).toBe(100_000);
  });

  test('stops counting a wide object past the limit', () => {
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    expect(countValuesUpTo(wide, 100)).toBe(101);
  });
});

describe('checkObjectValues', () => {
  test('passes the limit exactly and refuses one more with kube-shaped 413', () => {
    const at = { labels: Object.fromEntries(Array.from({ length: maxObjectValues - 1 }, (_, i) => [`k${i}`, 'v'])) };
    expect(() => checkObjectValues(at)).not.toThrow();
    (at.labels as Record<string, string>)['one-more'] = 'v';
    let thrown: unknown;
    try {
      checkObjectValues(at);
    } catch (err) {
      thrown = err;
    }
    expect((thrown as ApiError).status).toMatchObject({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: `Request entity too large: limit is ${maxObjectValues} values (object members and array elements) in one object`,
    });
  });
});

describe('withinObjectValues', () => {
  test('spares the count for bodies of up to a fifth of the bound, and only when their count is known', () => {
    expect(withinObjectValues(undefined)).toBe(false);
    expect(withinObjectValues(0)).toBe(true);
    expect(withinObjectValues(maxObjectValues / 5)).toBe(true);
    expect(withinObjectValues(maxObjectValues / 5 + 1)).toBe(false);
  });
});
