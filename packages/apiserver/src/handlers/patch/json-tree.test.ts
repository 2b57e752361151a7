import { describe, expect, it } from '@jest/globals';
import { cloneTree, equalTrees } from './json-tree.js';
import { WorkBudget } from './work-budget.js';

const equal = (a: unknown, b: unknown): [boolean, number] => {
  const budget = new WorkBudget();
  return [equalTrees(a, b, budget), budget.spent];
};

describe('equalTrees', () => {
  it('compares scalars, arrays in order and objects in any order', () => {
    expect(equal(1, 1)[0]).toBe(true);
    expect(equal(1, '1')[0]).toBe(false);
    expect(equal(null, {})[0]).toBe(false);
    expect(equal([1, { a: [2] }], [1, { a: [2] }])[0]).toBe(true);
    expect(equal({ a: 1, b: 2 }, { b: 2, a: 1 })[0]).toBe(true);
    for (const [a, b] of [
      [[1], { 0: 1 }],
      [{ 0: 1 }, [1]],
      [[1], [1, 2]],
      [
        [1, 2],
        [1, 3],
      ],
      [
        [1, 2],
        [2, 1],
      ],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1 }, { b: 1 }],
      [{ a: { b: 1 } }, { a: { b: 2 } }],
    ] as const)
      expect([a, b, equal(a, b)[0]]).toEqual([a, b, false]);
  });

  it('charges a step per value compared, per array element and per member of both objects', () => {
    expect(equal(1, 1)[1]).toBe(1);
    // the pair, 2 elements, then each element
    expect(equal([1, 2], [1, 2])[1]).toBe(1 + 2 + 2);
    // the pair, 2 + 2 members, then each value
    expect(equal({ a: 1, b: 2 }, { b: 2, a: 1 })[1]).toBe(1 + 4 + 2);
    expect(equal({ a: 1 }, { a: 1, b: 2 })[1]).toBe(1 + 3);
  });
});

describe('cloneTree', () => {
  it('copies every container, keeps `__proto__` as data, and charges one step per container and per member', () => {
    const shared = { x: 1 };
    const value = JSON.parse('{"a":[1,{"b":null}],"__proto__":{"c":2},"s":"t"}') as Record<string, unknown>;
    value['one'] = shared;
    value['two'] = shared;
    const budget = new WorkBudget();
    const copy = cloneTree(value, budget) as Record<string, unknown>;
    expect(copy).toEqual(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy['one']).not.toBe(shared);
    expect(copy['one']).not.toBe(copy['two']);
    expect(copy['a']).not.toBe(value['a']);
    // root (5 members + 1), a (2 elements + 1), {b} (1 + 1), __proto__ (1 + 1), one and two (1 + 1 each)
    expect(budget.spent).toBe(6 + 3 + 2 + 2 + 2 + 2);
    expect(cloneTree('s', new WorkBudget())).toBe('s');
  });

  it('stops with the budget exhausted', () => {
    const big = Array.from({ length: 100 }, (_, i) => i);
    expect(() => cloneTree(big, new WorkBudget(100))).toThrow(/more than 100 steps/);
    expect(cloneTree(big, new WorkBudget(101))).toEqual(big);
  });
});
