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
});
