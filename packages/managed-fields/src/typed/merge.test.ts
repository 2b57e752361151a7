/**
 * typed/merge_test.go of sigs.k8s.io/structured-merge-diff v6 (`mergeCases`, TestMerge), its
 * schemas and (lhs, rhs, out) triplets copied as data. The left side may hold duplicate keys,
 * the right may not; the result must equal `out` (lists in order, maps in any order).
 */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { fromSMDSchema } from '../schema/smd-schema.js';
import { equalValues } from '../value/compare.js';
import type { JsonValue } from '../value/json-value.js';
import { merge } from './merge.js';
import { validate } from './validate.js';

interface MergeCase {
  readonly name: string;
  readonly root: string;
  readonly schema: string;
  readonly triplets: readonly (readonly [string, string, string])[];
}

const mergeCases: readonly MergeCase[] = [
  {
    name: 'simple pair',
    root: 'stringPair',
    schema:
      'types:\n- name: stringPair\n  map:\n    fields:\n    - name: key\n      type:\n        scalar: string\n    - name: value\n      type:\n        namedType: __untyped_atomic_\n- name: __untyped_atomic_\n  scalar: untyped\n  list:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n',
    triplets: [
      ['{"key":"foo","value":{}}', '{"key":"foo","value":1}', '{"key":"foo","value":1}'],
      ['{"key":"foo","value":{}}', '{"key":"foo","value":1}', '{"key":"foo","value":1}'],
      ['{"key":"foo","value":1}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
      ['{"key":"foo","value":null}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
      ['{"key":"foo"}', '{"value":true}', '{"key":"foo","value":true}'],
    ],
  },
  {
    name: 'null/empty map',
    root: 'nestedMap',
    schema:
      'types:\n- name: nestedMap\n  map:\n    fields:\n    - name: inner\n      type:\n        map:\n          elementType:\n            namedType: __untyped_atomic_\n- name: __untyped_atomic_\n  scalar: untyped\n  list:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n',
    triplets: [
      ['{}', '{"inner":{}}', '{"inner":{}}'],
      ['{}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
      ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
    ],
  },
  {
    name: 'null/empty struct',
    root: 'nestedStruct',
    schema:
      'types:\n- name: nestedStruct\n  map:\n    fields:\n    - name: inner\n      type:\n        map:\n          fields:\n          - name: value\n            type:\n              namedType: __untyped_atomic_\n- name: __untyped_atomic_\n  scalar: untyped\n  list:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n',
    triplets: [
      ['{}', '{"inner":{}}', '{"inner":{}}'],
      ['{}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
      ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
    ],
  },
  {
    name: 'null/empty list',
    root: 'nestedList',
    schema:
      'types:\n- name: nestedList\n  map:\n    fields:\n    - name: inner\n      type:\n        list:\n          elementType:\n            namedType: __untyped_atomic_\n          elementRelationship: atomic\n- name: __untyped_atomic_\n  scalar: untyped\n  list:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: __untyped_atomic_\n    elementRelationship: atomic\n',
    triplets: [
      ['{}', '{"inner":[]}', '{"inner":[]}'],
      ['{}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":null}', '{"inner":[]}', '{"inner":[]}'],
      ['{"inner":[]}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":[]}', '{"inner":[]}', '{"inner":[]}'],
    ],
  },
  {
    name: 'struct grab bag',
    root: 'myStruct',
    schema:
      'types:\n- name: myStruct\n  map:\n    fields:\n    - name: numeric\n      type:\n        scalar: numeric\n    - name: string\n      type:\n        scalar: string\n    - name: bool\n      type:\n        scalar: boolean\n    - name: setStr\n      type:\n        list:\n          elementType:\n            scalar: string\n          elementRelationship: associative\n    - name: setBool\n      type:\n        list:\n          elementType:\n            scalar: boolean\n          elementRelationship: associative\n    - name: setNumeric\n      type:\n        list:\n          elementType:\n            scalar: numeric\n          elementRelationship: associative\n',
    triplets: [
      ['{"numeric":1}', '{"numeric":3.14159}', '{"numeric":3.14159}'],
      ['{"numeric":3.14159}', '{"numeric":1}', '{"numeric":1}'],
      ['{"string":"aoeu"}', '{"bool":true}', '{"string":"aoeu","bool":true}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":[]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":[]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":["a","b"]}', '{"setStr":["b","a"]}', '{"setStr":["b","a"]}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":["d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
      ['{"setStr":["a","b","c","g","f"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","g","d","e","f"]}'],
      [
        '{"setStr":["a","b","c"]}',
        '{"setStr":["d","e","f","x","y","z"]}',
        '{"setStr":["a","b","c","d","e","f","x","y","z"]}',
      ],
      ['{"setStr":["c","d","e","f"]}', '{"setStr":["a","c","e"]}', '{"setStr":["a","c","d","e","f"]}'],
      [
        '{"setStr":["a","b","c","x","y","z"]}',
        '{"setStr":["d","e","f"]}',
        '{"setStr":["a","b","c","x","y","z","d","e","f"]}',
      ],
      [
        '{"setStr":["a","b","c","x","y","z"]}',
        '{"setStr":["d","e","f","x","y","z"]}',
        '{"setStr":["a","b","c","d","e","f","x","y","z"]}',
      ],
      ['{"setStr":["c","a","g","f"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
      ['{"setStr":["a","b","c","d"]}', '{"setStr":["d","e","f","a"]}', '{"setStr":["b","c","d","e","f","a"]}'],
      [
        '{"setStr":["c","d","e","f","g","h","i","j"]}',
        '{"setStr":["2","h","3","e","4","k","l"]}',
        '{"setStr":["c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
      ],
      [
        '{"setStr":["a","b","c","d","e","f","g","h","i","j"]}',
        '{"setStr":["1","b","2","h","3","e","4","k","l"]}',
        '{"setStr":["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
      ],
      ['{"setStr":["a","b","b"]}', '{"setStr":["c"]}', '{"setStr":["a","b","b","c"]}'],
      ['{"setStr":["a","b","b"]}', '{"setStr":["b"]}', '{"setStr":["a","b"]}'],
      ['{"setStr":["a","b","b"]}', '{"setStr":["a"]}', '{"setStr":["a","b","b"]}'],
      [
        '{"setStr":["a","b","c","d","e","c"]}',
        '{"setStr":["1","b","2","e","d"]}',
        '{"setStr":["a","1","b","c","2","e","c","d"]}',
      ],
      [
        '{"setStr":["a","b","c","d","e","c"]}',
        '{"setStr":["1","b","2","c","e","d"]}',
        '{"setStr":["a","1","b","2","c","e","d"]}',
      ],
      ['{"setStr":["a","a","b","b"]}', '{"setStr":["b","c","d"]}', '{"setStr":["a","a","b","c","d"]}'],
      ['{"setStr":["a","a","b","b"]}', '{"setStr":[]}', '{"setStr":["a","a","b","b"]}'],
      ['{"setBool":[true]}', '{"setBool":[false]}', '{"setBool":[true, false]}'],
      ['{"setNumeric":[1,2,3.14159]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
      ['{"setStr":["c","a","g","f","c","a"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
      ['{"setNumeric":[1,2,3.14159,1,2]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
      ['{"setBool":[true,false,true]}', '{"setBool":[false]}', '{"setBool":[true,false,true]}'],
      ['{"setBool":[true,false,true]}', '{"setBool":[true]}', '{"setBool":[true, false]}'],
    ],
  },
  {
    name: 'associative list',
    root: 'myRoot',
    schema:
      'types:\n- name: myRoot\n  map:\n    fields:\n    - name: list\n      type:\n        namedType: myList\n    - name: atomicList\n      type:\n        namedType: mySequence\n- name: myList\n  list:\n    elementType:\n      namedType: myElement\n    elementRelationship: associative\n    keys:\n    - key\n    - id\n- name: mySequence\n  list:\n    elementType:\n      scalar: string\n    elementRelationship: atomic\n- name: myElement\n  map:\n    fields:\n    - name: key\n      type:\n        scalar: string\n    - name: id\n      type:\n        scalar: numeric\n    - name: value\n      type:\n        namedType: myValue\n    - name: bv\n      type:\n        scalar: boolean\n    - name: nv\n      type:\n        scalar: numeric\n- name: myValue\n  map:\n    elementType:\n      scalar: string\n',
    triplets: [
      [
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      ],
      [
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]}',
      ],
      [
        '{"list":[{"key":"a","id":1},{"key":"b","id":1}]}',
        '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}',
        '{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]}',
      ],
      [
        '{"list":[{"key":"b","id":2}]}',
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      ],
      [
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
        '{"list":[{"key":"c","id":3},{"key":"b","id":2}]}',
        '{"list":[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]}',
      ],
      [
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
        '{"list":[{"key":"c","id":3},{"key":"a","id":1}]}',
        '{"list":[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]}',
      ],
      ['{"atomicList":["a","a","a"]}', '{"atomicList":null}', '{"atomicList":null}'],
      ['{"atomicList":["a","b","c"]}', '{"atomicList":[]}', '{"atomicList":[]}'],
      ['{"atomicList":["a","a","a"]}', '{"atomicList":["a","a"]}', '{"atomicList":["a","a"]}'],
      [
        '{"list":[{"key":"a","id":1,"bv":true},{"key":"b","id":2},{"key":"a","id":1,"bv":false,"nv":2}]}',
        '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
        '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
      ],
      [
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
        '{"list":[]}',
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
      ],
      [
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
        '{}',
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
      ],
    ],
  },
];

describe('TestMerge (typed/merge_test.go)', () => {
  const rows = mergeCases.flatMap((c) => c.triplets.map((t, i) => [`${c.name}-valid-${i}`, c, t] as const));
  test.each(rows)('%s', (_name, c, [lhsText, rhsText, outText]) => {
    const type = fromSMDSchema(parse(c.schema), c.root);
    const lhs = parse(lhsText) as JsonValue;
    const rhs = parse(rhsText) as JsonValue;
    const want = parse(outText) as JsonValue;
    validate(lhs, type, { allowDuplicates: true });
    validate(rhs, type);
    const got = merge(lhs, rhs, type) ?? null;
    if (!equalValues(got, want)) expect(got).toEqual(want);
  });

  test('duplicate keys on the right are an error', () => {
    const c = mergeCases.find((x) => x.name === 'associative list')!;
    const type = fromSMDSchema(parse(c.schema), c.root);
    expect(() => merge({}, parse('{"list":[{"key":"a","id":1},{"key":"a","id":1}]}') as JsonValue, type)).toThrow(
      '.list: duplicate entries for key [id=1,key="a"]',
    );
  });
});
