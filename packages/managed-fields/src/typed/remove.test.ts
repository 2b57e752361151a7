/** typed/remove_test.go of structured-merge-diff v6 (TestRemove): RemoveItems and ExtractItems. */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { keyElementOf, valueElement } from '../fieldpath/path-element.js';
import { makePath } from '../fieldpath/path.js';
import type { Path } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Atom } from '../schema/types.js';
import type { JsonValue } from '../value/json-value.js';
import { extractItems, removeItems } from './remove.js';
import { associativeAndAtomic, simplePair, structGrabBag } from './smd-test-schemas.test-helper.js';

const y = (s: string): JsonValue => (parse(s) ?? null) as JsonValue;
const K = keyElementOf;

// [name, type, object, set, removeOutput ('unparseable' to skip), extractOutput]
const rows: [string, Atom, string, Path[], string, string][] = [
  ['simple pair-valid-0', simplePair, '{"key":"foo"}', [makePath('key')], '', '{"key":"foo"}'],
  ['simple pair-valid-1', simplePair, '{"key":"foo"}', [], '{"key":"foo"}', ''],
  [
    'simple pair-valid-2',
    simplePair,
    '{"key":"foo","value":true}',
    [makePath('key')],
    '{"value":true}',
    '{"key":"foo"}',
  ],
  [
    'simple pair-valid-3',
    simplePair,
    '{"key":"foo","value":{"a": "b"}}',
    [makePath('value')],
    '{"key":"foo"}',
    '{"value":{"a": "b"}}',
  ],
  [
    'struct grab bag-valid-0',
    structGrabBag,
    '{"setBool":[false]}',
    [makePath('setBool', valueElement(false))],
    '{"setBool":null}',
    '{"setBool":[false]}',
  ],
  [
    'struct grab bag-valid-1',
    structGrabBag,
    '{"setBool":[false]}',
    [makePath('setBool', valueElement(true))],
    '{"setBool":[false]}',
    '{"setBool":null}',
  ],
  [
    'struct grab bag-valid-2',
    structGrabBag,
    '{"setBool":[true,false]}',
    [makePath('setBool', valueElement(true))],
    '{"setBool":[false]}',
    '{"setBool":[true]}',
  ],
  ['struct grab bag-valid-3', structGrabBag, '{"setBool":[true,false]}', [makePath('setBool')], '', '{"setBool":null}'],
  [
    'struct grab bag-valid-4',
    structGrabBag,
    '{"setNumeric":[1,2,3,4.5]}',
    [makePath('setNumeric', valueElement(1)), makePath('setNumeric', valueElement(4.5))],
    '{"setNumeric":[2,3]}',
    '{"setNumeric":[1,4.5]}',
  ],
  [
    'struct grab bag-valid-5',
    structGrabBag,
    '{"setStr":["a","b","c"]}',
    [makePath('setStr', valueElement('a'))],
    '{"setStr":["b","c"]}',
    '{"setStr":["a"]}',
  ],
  [
    'associative and atomic-valid-0 (extract a struct from an associative list)',
    associativeAndAtomic,
    '{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}',
    [makePath('list', K({ key: 'a', id: 1 }), 'key'), makePath('list', K({ key: 'a', id: 1 }), 'id')],
    'unparseable',
    '{"list":[{"key":"a","id":1}]}',
  ],
  [
    'associative and atomic-valid-1 (remove structs from an associative list)',
    associativeAndAtomic,
    '{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}',
    [makePath('list', K({ key: 'a', id: 1 }))],
    '{"list":[{"key":"a","id":2},{"key":"b","id":1}]}',
    'unparseable',
  ],
  [
    'associative and atomic-valid-2',
    associativeAndAtomic,
    '{"atomicList":["a", "a", "a"]}',
    [makePath('atomicList')],
    '',
    '{"atomicList":["a", "a", "a"]}',
  ],
  [
    'associative and atomic-valid-3',
    associativeAndAtomic,
    '{"atomicMap":{"a": "c", "b": "d"}}',
    [makePath('atomicMap')],
    '',
    '{"atomicMap":{"a": "c", "b": "d"}}',
  ],
];

describe('TestRemove (typed/remove_test.go)', () => {
  test.each(rows)('%s', (_name, type, object, paths, removed, extracted) => {
    const set = FieldSet.of(...paths);
    if (removed !== 'unparseable') expect(removeItems(y(object), set, type)).toEqual(y(removed));
    if (extracted !== 'unparseable') expect(extractItems(y(object), set, type)).toEqual(y(extracted));
  });

  test('extractItems with appendKeyFields keeps the key fields of extracted items (TestExtractWithKeys)', () => {
    const set = FieldSet.of(makePath('list', K({ key: 'a', id: 1 }), 'nv'));
    expect(
      extractItems(y('{"list":[{"key":"a","id":1,"nv":2,"bv":true},{"key":"b","id":2}]}'), set, associativeAndAtomic, {
        appendKeyFields: true,
      }),
    ).toEqual(y('{"list":[{"key":"a","id":1,"nv":2}]}'));
  });
});
