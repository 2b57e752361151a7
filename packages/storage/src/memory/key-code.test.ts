import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { keyCode } from './key-code.js';

/** Code units that sit on the code's boundaries: the end, the 8-bit and 17-bit ranges and their edges. */
const unit = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '-', '.', '/', '0', '9', 'a', 'z', '~', '\u007e', '\u007f', '\u0080'),
  fc.constantFrom('\u00ff', '\u0100', '\ud800', '\udfff', '\ufffe', '\uffff'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const tail = fc.string({ unit, maxLength: 12 });
const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7e }).map((u) => String.fromCharCode(u)), maxLength: 9 });

describe('keyCode', () => {
  it('orders keys that share a prefix as their strings order them', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), tail, tail, (prefix, a, b) => {
        const ca = keyCode(prefix + a, prefix.length);
        const cb = keyCode(prefix + b, prefix.length);
        if (a < b) expect(ca).toBeLessThanOrEqual(cb);
        if (ca < cb) expect(a < b).toBe(true);
        if (a === b) expect(ca).toBe(cb);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells apart ASCII keys that differ in their first six units after the prefix', () => {
    fc.assert(
      fc.property(ascii, ascii, (a, b) => {
        if (a.slice(0, 6) === b.slice(0, 6)) return;
        const [ca, cb] = [keyCode(`ns/${a}`, 3), keyCode(`ns/${b}`, 3)];
        expect(ca < cb).toBe(a < b);
        expect(ca === cb).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('stays an exact integer below 2^52', () => {
    for (const key of ['', '\uffff'.repeat(8), '~'.repeat(10), '\u007e\uffff\u007e\uffff', 'a\u0000']) {
      const code = keyCode(key, 0);
      expect(Number.isSafeInteger(code)).toBe(true);
      expect(code).toBeLessThan(2 ** 52);
    }
    expect(keyCode('', 0)).toBe(0);
    expect(keyCode('abc', 3)).toBe(0);
    // A key that ends early leaves the rest of the bits 0: 'a' is 0x62 in the first 8 of 52.
    expect(keyCode('a', 0)).toBe(0x62 * 2 ** 44);
    expect(keyCode('\u00e9', 0)).toBe((0x10000 + 0xe9) * 2 ** 35);
    expect(keyCode('a', 0)).toBeLessThan(keyCode('a\u0000', 0));
    expect(keyCode('\u007e', 0)).toBeLessThan(keyCode('\u007f', 0));
  });
});
