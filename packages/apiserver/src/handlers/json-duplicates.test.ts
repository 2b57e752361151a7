import { describe, expect, it } from '@jest/globals';
import { findDuplicateKeys, hasDuplicateKeys } from './json-duplicates.js';

describe('findDuplicateKeys', () => {
  it('finds duplicates with their paths, at any depth', () => {
    expect(findDuplicateKeys('{"a":1,"b":{"c":1,"c":2},"a":3}')).toEqual(['b.c', 'a']);
    expect(findDuplicateKeys('{"items":[{"x":1},{"x":1,"x":2}]}')).toEqual(['items[1].x']);
    expect(findDuplicateKeys('{"metadata":{"labels":{"k":"v","k":"w"}}}')).toEqual(['metadata.labels.k']);
  });

  it('is not fooled by strings that look like keys or escapes', () => {
    expect(findDuplicateKeys('{"a":"\\"a\\":","b":"{\\"a\\":1}","c":"x\\\\"}')).toEqual([]);
    expect(findDuplicateKeys('{"a\\u0062":1,"ab":2}')).toEqual(['ab']);
    expect(findDuplicateKeys(' { "a" : 1 , "a" : [ "a" , "a" ] } ')).toEqual(['a']);
  });

  it('finds nothing in ordinary documents', () => {
    expect(findDuplicateKeys(JSON.stringify({ a: [1, { b: 2 }], c: { d: { e: 'f' } } }))).toEqual([]);
  });

  it('tells cheaply whether a text has duplicates at all', () => {
    for (const text of ['{"a":1,"b":{"c":1,"c":2}}', '{"items":[{"x":1},{"x":1,"x":2}]}', '{"a\\u0062":1,"ab":2}']) {
      expect(hasDuplicateKeys(text, JSON.parse(text))).toBe(true);
    }
    for (const text of [
      '{"a":"\\"a\\":","b":"{\\"a\\":1}"}',
      '[]',
      '"x"',
      JSON.stringify({ a: [1, { b: 2 }], c: { d: { e: 'f:' } }, 'g"h': 'i' }),
    ]) {
      expect(hasDuplicateKeys(text, JSON.parse(text))).toBe(false);
    }
  });
});
