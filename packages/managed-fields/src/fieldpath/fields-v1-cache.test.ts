import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { FieldsV1Error, fieldsV1ToSet, setToFieldsV1, setToFieldsV1JSON } from './fields-v1.js';
import { FieldsV1Cache } from './fields-v1-cache.js';
import { makePath } from './path.js';
import { FieldSet } from './set.js';

const labels = (...names: string[]) => ({
  'f:metadata': { 'f:labels': Object.fromEntries(names.map((n) => [`f:${n}`, {}])) },
});

describe('FieldsV1Cache', () => {
  test('reads a text once: equal texts give the same set, other texts their own', () => {
    const cache = new FieldsV1Cache();
    const a = cache.read(labels('a'));
    expect(cache.read(JSON.parse(JSON.stringify(labels('a'))))).toBe(a);
    expect(a.equals(fieldsV1ToSet(labels('a')))).toBe(true);
    const b = cache.read(labels('b'));
    expect(b).not.toBe(a);
    expect(b.equals(FieldSet.of(makePath('metadata', 'labels', 'b')))).toBe(true);
    // member order is part of the text: another order is read on its own, to the same set
    const ab = cache.read(labels('a', 'b'));
    const ba = cache.read(labels('b', 'a'));
    expect(ba).not.toBe(ab);
    expect(ba.equals(ab)).toBe(true);
    expect(cache.size.texts).toBe(4);
  });

  test('writes a set once, frozen, as setToFieldsV1 writes it (not as the text it was read from)', () => {
    const cache = new FieldsV1Cache();
    const unsorted = { 'f:b': {}, 'f:a': { '.': {}, 'f:x': {} } };
    const set = cache.read(unsorted);
    const out = cache.write(set);
    expect(cache.write(set)).toBe(out);
    expect(out).toEqual(setToFieldsV1(set));
    expect(JSON.stringify(out)).toBe('{"f:a":{".":{},"f:x":{}},"f:b":{}}');
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out['f:a'])).toBe(true);
  });

  test('keeps errors to itself: an unreadable FieldsV1 throws on every read', () => {
    const cache = new FieldsV1Cache();
    expect(() => cache.read({ 'x:y': {}, f: {} })).toThrow(FieldsV1Error);
    expect(() => cache.read({ 'x:y': {}, f: {} })).toThrow(FieldsV1Error);
    expect(() => cache.read('nope')).toThrow(FieldsV1Error);
    expect(cache.size.texts).toBe(0);
  });

  test('lets the least recently used texts go past its limits, and reads a text over them uncached', () => {
    const cache = new FieldsV1Cache({ texts: 2, chars: 200 });
    const a = cache.read(labels('a'));
    cache.read(labels('b'));
    expect(cache.read(labels('a'))).toBe(a);
    cache.read(labels('c'));
    expect(cache.size.texts).toBe(2);
    expect(cache.read(labels('a'))).toBe(a);
    const wide = labels(...Array.from({ length: 40 }, (_, i) => `k${i}`));
    expect(JSON.stringify(wide).length).toBeGreaterThan(200);
    expect(cache.read(wide)).not.toBe(cache.read(wide));
    expect(cache.size.chars).toBeLessThanOrEqual(200);
  });

  test('reads and writes as fieldsV1ToSet and setToFieldsV1 do, on any JSON (fast-check)', () => {
    const key = fc.oneof(
      fc.constantFrom('.', 'f:a', 'f:b', 'v:1', 'v:"x"', 'i:0', 'k:{"name":"a"}', 'k:{"name":"a" }', 'x:y', 'f', 'k:{'),
      fc.string({ maxLength: 6 }),
    );
    const fields = fc.letrec((tie) => ({
      node: fc.oneof(
        { maxDepth: 4 },
        fc.constantFrom(null, 1, 'x', [] as unknown[]),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    const cache = new FieldsV1Cache({ texts: 8, chars: 400 });
    fc.assert(
      fc.property(fields, (v) => {
        let want: FieldSet | Error;
        try {
          want = fieldsV1ToSet(v);
        } catch (err) {
          want = err as Error;
        }
        for (let round = 0; round < 2; round++) {
          if (want instanceof Error) {
            expect(() => cache.read(v)).toThrow(want.message);
            continue;
          }
          const got = cache.read(v);
          expect(got.equals(want)).toBe(true);
          expect(JSON.stringify(cache.write(got))).toBe(JSON.stringify(setToFieldsV1(want)));
          expect(setToFieldsV1JSON(got)).toBe(setToFieldsV1JSON(want));
        }
      }),
    );
  });
});
