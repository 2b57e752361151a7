import { describe, expect, it } from '@jest/globals';
import { EncodedEventCache } from './encoded-cache.js';

describe('EncodedEventCache', () => {
  it('encodes a change once and evicts the oldest past capacity', () => {
    const c = new EncodedEventCache(2);
    let calls = 0;
    const enc = (s: string) => () => {
      calls++;
      return Buffer.from(s);
    };
    expect(c.get('a', enc('A')).toString()).toBe('A');
    expect(c.get('a', enc('X')).toString()).toBe('A');
    expect(calls).toBe(1);
    c.get('b', enc('B'));
    c.get('c', enc('C'));
    expect(c.size).toBe(2);
    expect(c.get('a', enc('A2')).toString()).toBe('A2');
    expect(calls).toBe(4);
  });
});
