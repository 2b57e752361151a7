import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { fieldsV1ToSet, setToFieldsV1, setToFieldsV1JSON, FieldsV1Error } from './fields-v1.js';
import { fieldElement, indexElement, keyElementOf, valueElement } from './path-element.js';
import type { PathElement } from './path-element.js';
import { makePath } from './path.js';
import type { Path } from './path.js';
import { FieldSet } from './set.js';

const fromText = (text: string): FieldSet => fieldsV1ToSet(JSON.parse(text));

// structured-merge-diff fieldpath/serialize_test.go TestSerializeV1GoldenData: decoding then
// encoding gives back the same bytes (order of members and children, ".", key and value JSON).
const golden = [
  `{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}`,
  `{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\\"name\\":\\"second\\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\\"name\\":\\"first\\"}":{"k:{\\"name\\":\\"first\\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\\"name\\":\\"first\\"}":{"f:aad":{"f:aaf":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"f:aaa":{"f:aad":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"f:aac":{},"k:{\\"name\\":\\"first\\"}":{"i:3":{}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\\"name\\":\\"first\\"}":{},"i:2":{}},"v:\\"aa\\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\\"name\\":\\"first\\"}":{"f:aad":{}},"i:2":{}},"v:\\"ab\\"":{"f:aaf":{"i:4":{}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\\"name\\":\\"second\\"}":{"f:aaa":{}},"i:2":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\\"aa\\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}`,
  `{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}`,
];

describe('FieldsV1 (structured-merge-diff fieldpath/serialize.go)', () => {
  test.each(golden.map((g, i) => [i, g] as const))(
    'TestSerializeV1GoldenData %i: decode then encode is byte-identical',
    (_i, text) => {
      const set = fromText(text);
      expect(setToFieldsV1JSON(set)).toBe(text);
      expect(JSON.stringify(setToFieldsV1(set))).toBe(text);
    },
  );

  test('TestDeserializeForValidNonNormalized: unsorted keys and spaced JSON normalise', () => {
    const text = `{"f:aad":{},"f:aaa":{},"k:{ \\"protocol\\":\\"udp\\",\\"port\\":443}":{},"v: 3":{},"i:4":{},"f:aab":{}}`;
    expect(setToFieldsV1JSON(fromText(text))).toBe(
      `{"f:aaa":{},"f:aab":{},"f:aad":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:3":{},"i:4":{}}`,
    );
  });

  test('a member that is also a parent carries "." first; a plain member an empty object', () => {
    const set = FieldSet.of(
      makePath('metadata', 'labels', 'app'),
      makePath('spec', keyElementOf({ name: 'a', port: 80 })),
      makePath('spec', keyElementOf({ name: 'a', port: 80 }), 'image'),
      makePath('spec', 'set', valueElement('x')),
    );
    expect(setToFieldsV1(set)).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:set': { 'v:"x"': {} },
        'k:{"name":"a","port":80}': { '.': {}, 'f:image': {} },
      },
    });
    expect(Object.keys(setToFieldsV1(set)['f:spec'] as object)).toEqual(['f:set', 'k:{"name":"a","port":80}']);
  });

  test('keys and values are escaped as json-iterator does (HTML-safe)', () => {
    const set = FieldSet.of(makePath('a', valueElement('<b>&')));
    // the value is written `v:"\u003cb\u003e\u0026"`, then the key's backslashes are escaped
    expect(setToFieldsV1JSON(set)).toBe('{"f:a":{"v:\\"\\\\u003cb\\\\u003e\\\\u0026\\"":{}}}');
    expect(setToFieldsV1JSON(FieldSet.of(makePath('a<b')))).toBe('{"f:a\\u003cb":{}}');
    expect(fieldsV1ToSet(JSON.parse(setToFieldsV1JSON(set))).equals(set)).toBe(true);
  });

  test('unknown element types are dropped; malformed keys are errors (TestSetFromJSON)', () => {
    expect(fromText('{"x:foo":{},"f:a":{}}').equals(FieldSet.of(makePath('a')))).toBe(true);
    expect(() => fromText('{"i:abc":{}}')).toThrow(FieldsV1Error);
    expect(() => fromText('{"k:[1]":{}}')).toThrow(FieldsV1Error);
    expect(() => fromText('{"f":{}}')).toThrow(FieldsV1Error);
    expect(() => fieldsV1ToSet('nope')).toThrow(FieldsV1Error);
  });
});

const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean());
const element: fc.Arbitrary<PathElement> = fc.oneof(
  fc.string({ maxLength: 5 }).map(fieldElement),
  fc.dictionary(fc.constantFrom('name', 'port', 'protocol'), scalar, { minKeys: 1 }).map(keyElementOf),
  scalar.map(valueElement),
  fc.nat(20).map(indexElement),
);
const path: fc.Arbitrary<Path> = fc.array(element, { minLength: 1, maxLength: 4 });
const fieldSet = fc.array(path, { maxLength: 12 }).map((paths) => FieldSet.of(...paths));

describe('FieldsV1 and set algebra properties (fast-check)', () => {
  test('encode then decode gives the same set, and the JSON text is stable (TestSerializeV1)', () => {
    fc.assert(
      fc.property(fieldSet, (s) => {
        const text = setToFieldsV1JSON(s);
        const back = fieldsV1ToSet(JSON.parse(text));
        return back.equals(s) && setToFieldsV1JSON(back) === text;
      }),
    );
  });

  test('membership follows the operations', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, path, (a, b, p) => {
        expect(a.union(b).has(p)).toBe(a.has(p) || b.has(p));
        expect(a.intersection(b).has(p)).toBe(a.has(p) && b.has(p));
        expect(a.difference(b).has(p)).toBe(a.has(p) && !b.has(p));
      }),
    );
  });

  test('union is commutative and idempotent; a ∖ a and a ∩ ∅ are empty; (a ∪ b) ∖ b ⊆ a', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, (a, b) => {
        expect(a.union(b).equals(b.union(a))).toBe(true);
        expect(a.union(a).equals(a)).toBe(true);
        expect(a.difference(a).empty()).toBe(true);
        expect(a.intersection(new FieldSet()).empty()).toBe(true);
        expect(a.union(b).difference(b).difference(a).empty()).toBe(true);
        expect(a.intersection(b).equals(b.intersection(a))).toBe(true);
        expect(a.size()).toBe(a.paths().length);
      }),
    );
  });

  test('intersects is a non-empty intersection; a difference that takes nothing away is the set itself', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, (a, b) => {
        expect(a.intersects(b)).toBe(!a.intersection(b).empty());
        const d = a.difference(b);
        if (!a.intersects(b) && !a.empty()) expect(d.equals(a)).toBe(true);
        if (d !== a) expect(a.intersects(b) || !d.equals(a)).toBe(true);
      }),
    );
  });

  test('unionOf is the union of all, united in any order', () => {
    fc.assert(
      fc.property(fc.array(fieldSet, { maxLength: 9 }), (sets) => {
        const folded = sets.reduce((acc, s) => acc.union(s), new FieldSet());
        expect(FieldSet.unionOf(sets).equals(folded)).toBe(true);
        expect(setToFieldsV1JSON(FieldSet.unionOf(sets))).toBe(setToFieldsV1JSON(folded));
      }),
    );
  });

  test('recursive difference removes everything under a member of the other set', () => {
    fc.assert(
      fc.property(fieldSet, path, (a, p) => {
        const cut = FieldSet.of(p);
        for (const q of a.recursiveDifference(cut).paths()) {
          const under = q.length >= p.length && FieldSet.of(q.slice(0, p.length)).equals(cut);
          expect(under).toBe(false);
        }
      }),
    );
  });
});

describe('fieldsV1ToSet on wide input', () => {
  test('reads keys in any order into the set built one path at a time (each level sorted once)', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `f:k${i}`);
    const fields = Object.fromEntries(keys.map((k) => [k, {}]));
    const read = fieldsV1ToSet(fields);
    const built = FieldSet.of(...keys.map((k) => [fieldElement(k.slice(2))]));
    expect(read.equals(built)).toBe(true);
    // Keys that read as the same element are one member; their children are united.
    const twice = fieldsV1ToSet({ 'k:{"a":1,"b":2}': { 'f:x': {} }, 'k:{"b":2,"a":1}': { 'f:y': {} } });
    expect(twice.children).toHaveLength(1);
    expect(twice.children[0]!.set.members).toEqual([fieldElement('x'), fieldElement('y')]);
  });
});
