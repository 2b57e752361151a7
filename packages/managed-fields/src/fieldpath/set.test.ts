import { describe, expect, test } from '@jest/globals';
import { keyElementOf, valueElement } from './path-element.js';
import { makePath, pathString } from './path.js';
import { FieldSet } from './set.js';

const k = (name: string) => keyElementOf({ name });

describe('FieldSet (structured-merge-diff fieldpath/set_test.go)', () => {
  test.each([
    ['all leaves', [makePath('path1'), makePath('path2')], [makePath('path1'), makePath('path2')]],
    [
      'only one leaf',
      [makePath('root'), makePath('root', 'l1'), makePath('root', 'l1', 'l2')],
      [makePath('root', 'l1', 'l2')],
    ],
    [
      'multiple values and nested',
      [
        makePath('root', k('a')),
        makePath('root', k('a'), 'name'),
        makePath('root', k('a'), 'value', 'b'),
        makePath('root', k('a'), 'value', 'b', 'd'),
        makePath('root', k('a'), 'value', 'c'),
      ],
      [
        makePath('root', k('a'), 'name'),
        makePath('root', k('a'), 'value', 'b', 'd'),
        makePath('root', k('a'), 'value', 'c'),
      ],
    ],
  ])('TestSetLeaves: %s', (_name, input, expected) => {
    expect(
      FieldSet.of(...input)
        .leaves()
        .equals(FieldSet.of(...expected)),
    ).toBe(true);
  });

  test.each([
    ['removes simple path', [makePath('a')], [makePath('a')], [], []],
    [
      'does not remove parent of specific path',
      [makePath('a')],
      [makePath('a', 'aa')],
      [makePath('a')],
      [makePath('a')],
    ],
    [
      'RecursiveDifference removes nested path',
      [makePath('a', 'b', 'c')],
      [makePath('a')],
      [makePath('a', 'b', 'c')],
      [],
    ],
    [
      'only removes matching child',
      [makePath('a', 'b', 'c'), makePath('b', 'b', 'c')],
      [makePath('a', 'b', 'c')],
      [makePath('b', 'b', 'c')],
      [makePath('b', 'b', 'c')],
    ],
  ])('TestSetDifference: %s', (_name, a, b, diff, recursive) => {
    const sa = FieldSet.of(...a);
    const sb = FieldSet.of(...b);
    expect(sa.difference(sb).equals(FieldSet.of(...diff))).toBe(true);
    expect(sa.recursiveDifference(sb).equals(FieldSet.of(...recursive))).toBe(true);
  });

  test('TestSetString: one path per line, keys and values printed as Go prints them', () => {
    const s = FieldSet.of(
      makePath('foo', keyElementOf({ name: 'first', port: 443 }), 'bar'),
      makePath('set', valueElement('x')),
    );
    expect(s.toString()).toBe('.foo[name="first",port=443].bar\n.set[="x"]');
    expect(pathString(makePath('a', 3))).toBe('.a[3]');
  });

  test('TestSetInsertHas: parents are not members; the empty path is never tracked', () => {
    const s = FieldSet.of(makePath('a', 'b'), makePath());
    expect(s.has(makePath('a', 'b'))).toBe(true);
    expect(s.has(makePath('a'))).toBe(false);
    expect(s.has(makePath())).toBe(false);
    expect(s.size()).toBe(1);
  });

  test('path element order: fields < keys < values < indexes; values by Go value order', () => {
    const s = FieldSet.of(
      makePath(3),
      makePath(valueElement(true)),
      makePath(valueElement('b')),
      makePath(valueElement(2)),
      makePath(valueElement(1.5)),
      makePath(k('z')),
      makePath('zz'),
    );
    expect(s.paths().map(pathString)).toEqual(['.zz', '[name="z"]', '[=1.5]', '[=2]', '[="b"]', '[=true]', '[3]']);
  });
});
