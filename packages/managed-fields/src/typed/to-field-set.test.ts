/** typed/toset_test.go of structured-merge-diff v6 (TestToFieldSet), and Compare (typed/comparison of symdiff_test.go). */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { keyElementOf, valueElement } from '../fieldpath/path-element.js';
import { makePath, pathString } from '../fieldpath/path.js';
import type { Path } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import { deduced } from '../schema/deduced.js';
import type { Atom } from '../schema/types.js';
import type { JsonValue } from '../value/json-value.js';
import { compare } from './compare.js';
import { associativeAndAtomic, simplePair, structGrabBag } from './smd-test-schemas.test-helper.js';
import { toFieldSet } from './to-field-set.js';
import { validate } from './validate.js';

const y = (s: string): JsonValue => (parse(s) ?? null) as JsonValue;
const K = (key: string, id: number) => keyElementOf({ key, id });
const paths = (s: FieldSet): string[] => s.paths().map(pathString).sort();
const want = (...p: Path[]): string[] => paths(FieldSet.of(...p));

const rows: [string, Atom, string, Path[]][] = [
  ['simple pair-0', simplePair, '{"key":"foo","value":1}', [makePath('key'), makePath('value')]],
  ['simple pair-1', simplePair, '{"key":"foo","value":{"a": "b"}}', [makePath('key'), makePath('value')]],
  ['simple pair-2', simplePair, '{"key":"foo","value":null}', [makePath('key'), makePath('value')]],
  ['simple pair-3', simplePair, '{"key":"foo"}', [makePath('key')]],
  [
    'struct grab bag: set with repeats',
    structGrabBag,
    '{"setStr":["a","b","c","a","b","c","c"]}',
    ['a', 'b', 'c'].map((v) => makePath('setStr', valueElement(v))),
  ],
  [
    'struct grab bag: numeric set',
    structGrabBag,
    '{"setNumeric":[1,2,3,3.14159]}',
    [1, 2, 3, 3.14159].map((v) => makePath('setNumeric', valueElement(v))),
  ],
  ['associative list-0', associativeAndAtomic, '{"list":[]}', []],
  [
    'associative list-1',
    associativeAndAtomic,
    '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
    [
      makePath('list', K('a', 1)),
      makePath('list', K('a', 1), 'key'),
      makePath('list', K('a', 1), 'id'),
      makePath('list', K('a', 1), 'value', 'a'),
    ],
  ],
  [
    'associative list-3 (a repeated key is one member with nothing beneath)',
    associativeAndAtomic,
    '{"list":[{"key":"a","id":1,"nv":2},{"key":"a","id":2,"nv":3},{"key":"b","id":1},{"key":"a","id":2,"bv":true}]}',
    [
      makePath('list', K('a', 1)),
      makePath('list', K('a', 1), 'key'),
      makePath('list', K('a', 1), 'id'),
      makePath('list', K('a', 1), 'nv'),
      makePath('list', K('a', 2)),
      makePath('list', K('b', 1)),
      makePath('list', K('b', 1), 'key'),
      makePath('list', K('b', 1), 'id'),
    ],
  ],
  ['associative list-4', associativeAndAtomic, '{"atomicList":["a","a","a"]}', [makePath('atomicList')]],
  [
    'deduced: maps granular, lists atomic',
    deduced,
    '{"a":{"b":1,"c":[1,2]},"d":{}}',
    [makePath('a'), makePath('a', 'b'), makePath('a', 'c'), makePath('d')],
  ],
];

describe('TestToFieldSet (typed/toset_test.go)', () => {
  test.each(rows)('%s', (_name, type, object, expected) => {
    validate(y(object), type, { allowDuplicates: true });
    expect(paths(toFieldSet(y(object), type))).toEqual(want(...expected));
  });
});

describe('Compare (typed/compare.go)', () => {
  test('added, modified and removed leaves; a granular map that appears is added with its leaves', () => {
    const c = compare(
      y('{"numeric":1,"string":"a","setStr":["x","y"]}'),
      y('{"numeric":2,"bool":true,"setStr":["y","z"]}'),
      structGrabBag,
    );
    expect(paths(c.modified)).toEqual(want(makePath('numeric')));
    expect(paths(c.added)).toEqual(want(makePath('bool'), makePath('setStr', valueElement('z'))));
    expect(paths(c.removed)).toEqual(want(makePath('string'), makePath('setStr', valueElement('x'))));
    const d = compare(undefined, y('{"value":{"a":"a"}}'), deduced);
    expect(paths(d.added)).toEqual(want(makePath('value'), makePath('value', 'a')));
  });

  test('a key repeated on one side makes the item one leaf', () => {
    const c = compare(
      y('{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}'),
      y('{"list":[{"key":"a","id":1,"nv":3}]}'),
      associativeAndAtomic,
    );
    expect(paths(c.removed)).toEqual(want(makePath('list', K('a', 1))));
    expect(paths(c.added)).toEqual(
      // the item is both removed (as the repeated leaf) and added (as the new single item)
      want(
        makePath('list', K('a', 1)),
        makePath('list', K('a', 1), 'key'),
        makePath('list', K('a', 1), 'id'),
        makePath('list', K('a', 1), 'nv'),
      ),
    );
  });

  test('equal values compare the same, whatever the map key order', () => {
    const c = compare(
      y('{"list":[{"key":"a","id":1,"value":{"x":"1","y":"2"}}]}'),
      y('{"list":[{"id":1,"key":"a","value":{"y":"2","x":"1"}}]}'),
      associativeAndAtomic,
    );
    expect(c.added.empty() && c.modified.empty() && c.removed.empty()).toBe(true);
  });
});
