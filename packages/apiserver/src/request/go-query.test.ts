import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseGoQuery } from './go-query.js';

const plain = (q: string): Record<string, string | string[]> => ({ ...parseGoQuery(q) });

describe("parseGoQuery (Go's url.ParseQuery)", () => {
  it.each([
    ['', {}],
    ['a=1&b=2', { a: '1', b: '2' }],
    ['a=1&a=2&a=3', { a: ['1', '2', '3'] }],
    ['a', { a: '' }],
    ['a=', { a: '' }],
    ['=1', { '': '1' }],
    ['&&a=1&&', { a: '1' }],
    ['a=b=c', { a: 'b=c' }],
    ['a+b=c+d', { 'a b': 'c d' }],
    ['a=%41%2b%2F', { a: 'A+/' }],
    ['a=%C3%A9', { a: 'é' }],
    ['a=%FF', { a: '\ufffd' }],
    // A pair holding a semicolon is dropped whole (Go 1.17+), the others kept.
    ['watch=1;x&limit=2', { limit: '2' }],
    ['a;b', {}],
    // A bad escape drops its pair only.
    ['a=%zz&b=1', { b: '1' }],
    ['%g0=1&c=%4', {}],
    ['a=%&b=%1', {}],
    ['fieldSelector=metadata.name%3Dx%5C%2Cy', { fieldSelector: 'metadata.name=x\\,y' }],
    ['a=#b&c', { a: '#b', c: '' }],
  ])('%j', (q, want) => {
    expect(plain(q)).toEqual(want);
  });

  it('keeps __proto__ and constructor as keys of an object without a prototype', () => {
    const q = parseGoQuery('__proto__=1&constructor=2');
    expect(Object.getPrototypeOf(q)).toBeNull();
    expect(q['__proto__']).toBe('1');
    expect(q['constructor']).toBe('2');
  });

  it('reads back any keys and values encoded as a client encodes them, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), { maxLength: 8 }),
        (pairs) => {
          const text = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
          const want = new Map<string, string[]>();
          for (const [k, v] of pairs) want.set(k, [...(want.get(k) ?? []), v]);
          const got = parseGoQuery(text);
          for (const [k, vs] of want) expect(got[k]).toEqual(vs.length === 1 ? vs[0] : vs);
          expect(Object.keys(got).sort()).toEqual([...want.keys()].sort());
        },
      ),
    );
  });
});
