import { describe, expect, it } from '@jest/globals';
import { EncodedItems } from './encoded-items.js';

describe('EncodedItems', () => {
  it('encodes a resourceVersion once, and forgets the oldest texts beyond its size', () => {
    const items = new EncodedItems(10);
    let calls = 0;
    const enc = (s: string) => () => {
      calls++;
      return s;
    };
    expect(items.get(1, enc('aaaa'))).toBe('aaaa');
    expect(items.get(1, enc('xxxx'))).toBe('aaaa');
    expect(items.get(2, enc('bbbb'))).toBe('bbbb');
    expect(items.get(1, enc('xxxx'))).toBe('aaaa');
    expect(calls).toBe(2);
    // Two generations of 5 characters: a third text drops the oldest one.
    expect(items.get(3, enc('cccc'))).toBe('cccc');
    expect(items.get(2, enc('yyyy'))).toBe('bbbb');
    expect(items.get(1, enc('AAAA'))).toBe('AAAA');
    expect(calls).toBe(4);
    // A text larger than a generation is returned, not kept.
    expect(items.get(4, enc('0123456789abc'))).toBe('0123456789abc');
    expect(items.get(4, enc('again'))).toBe('again');
  });

  it('keeps a text of exactly half its size, and starts a generation only past half', () => {
    const items = new EncodedItems(8);
    const encoded: number[] = [];
    const enc = (rv: number, s: string) => items.get(rv, () => (encoded.push(rv), s));
    enc(1, 'abcd');
    enc(1, 'abcd');
    expect(encoded).toEqual([1]);
    const gens = new EncodedItems(8);
    const calls: number[] = [];
    const get = (rv: number, s: string) => gens.get(rv, () => (calls.push(rv), s));
    get(1, 'ab');
    get(2, 'cd'); // exactly half together: one generation
    get(3, 'e'); // past half: {1, 2} become the older one
    get(4, 'fgh'); // 1 + 3 is half: still the newer one
    get(1, 'ab');
    expect(calls).toEqual([1, 2, 3, 4]);
  });

  it('keeps the text of a list item only while the whole list would fit, and returns the others unflattened', () => {
    const items = new EncodedItems(40);
    const calls: number[] = [];
    const get = (rv: number, s: string, listed: number) => items.get(rv, () => (calls.push(rv), s), listed);
    get(1, 'abcd', 10); // 10 texts of 4: fits in 40
    get(1, 'abcd', 10);
    expect(calls).toEqual([1]);
    get(2, 'efgh', 11); // 11 texts of 4 would not: a walk through a large list
    get(2, 'efgh', 11);
    expect(calls).toEqual([1, 2, 2]);
    const rope = `${'x'.repeat(20)}${String(calls.length)}`;
    expect(items.get(3, () => rope, 100)).toBe(rope);
  });
});
