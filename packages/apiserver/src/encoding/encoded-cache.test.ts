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

  it('gives the lines of the last frozen batch again, and encodes any other batch', () => {
    const c = new EncodedEventCache();
    let calls = 0;
    const enc = (batch: readonly string[]): Buffer[] => {
      calls++;
      return batch.map((s) => Buffer.from(s));
    };
    const shared = Object.freeze(['a', 'b']);
    const lines = c.linesOf(shared, enc);
    expect(lines.map(String)).toEqual(['a', 'b']);
    expect(c.linesOf(shared, enc)).toBe(lines);
    expect(calls).toBe(1);
    const other = Object.freeze(['a', 'b']);
    const otherLines = c.linesOf(other, enc);
    expect(otherLines).not.toBe(lines);
    expect(c.linesOf(shared, enc)).toBe(lines);
    expect(c.linesOf(other, enc)).toBe(otherLines);
    expect(Object.isFrozen(lines)).toBe(true);
    const own = ['c'];
    expect(c.linesOf(own, enc).map(String)).toEqual(['c']);
    expect(c.linesOf(own, enc).map(String)).toEqual(['c']);
    expect(calls).toBe(4);
  });
});
