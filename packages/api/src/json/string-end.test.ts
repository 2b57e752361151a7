import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { jsonStringEnd } from './string-end.js';

describe('jsonStringEnd', () => {
  it('finds the quote that ends any string JSON.stringify writes, from its start or its first backslash (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '"', '\\', '\n', '\u0001', 'é', '\ud83d', ':', ' '),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, fc.constantFrom('', ':1}', ',"b":"\\""'), (s, after) => {
        const quoted = JSON.stringify(s);
        const t = `{"a":${quoted}${after}`;
        const start = 5;
        expect(jsonStringEnd(t, start + 1)).toBe(start + quoted.length - 1);
        const slash = t.indexOf('\\', start);
        if (slash !== -1 && slash < start + quoted.length)
          expect(jsonStringEnd(t, slash)).toBe(start + quoted.length - 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('says -1 for a string the text does not end, even after a lone backslash', () => {
    expect(jsonStringEnd('"abc', 1)).toBe(-1);
    expect(jsonStringEnd('"ab\\"', 1)).toBe(-1);
    expect(jsonStringEnd('"ab\\', 1)).toBe(-1);
    expect(jsonStringEnd('"ab\\\\"', 1)).toBe(5);
  });

  it('reads millions of escapes in one string (a search per 65,535 of them)', () => {
    const t = JSON.stringify('"'.repeat(6_000_000));
    expect(jsonStringEnd(t, 1)).toBe(t.length - 1);
    expect(jsonStringEnd(t.slice(0, -1), 1)).toBe(-1);
  });
});
