import { describe, expect, it } from '@jest/globals';
import { EncodedEventCache } from './encoded-cache.js';

describe('EncodedEventCache', () => {
  it('encodes an object once per event type', () => {
    const c = new EncodedEventCache();
    let calls = 0;
    const enc = (s: string) => () => {
      calls++;
      return Buffer.from(s);
    };
    const a = {};
    expect(c.get(a, 'ADDED', enc('A')).toString()).toBe('A');
    expect(c.get(a, 'ADDED', enc('X')).toString()).toBe('A');
    expect(c.get(a, 'DELETED', enc('D')).toString()).toBe('D');
    expect(c.get({}, 'ADDED', enc('B')).toString()).toBe('B');
    expect(calls).toBe(3);
  });
});
