import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { goJSON } from '@kevents/validation';
import { jsonSize, stringSize } from './json-size.js';
import { WorkBudget } from './work-budget.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Strings heavy in what the two encodings write differently. */
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom('<', '>', '&', '"', '\\', '\n', '\b', '\f', '\u0000', '\u001f', '\u007f', 'é', '中'),
      fc.constantFrom('\u2028', '\u2029', '\ud800', '\udc00', '😀', '\ud83d', 'a'),
    ),
    { maxLength: 12 },
  )
  .map((cs) => cs.join(''));
/** Keys Go would hold as they are (its decoder turns a lone surrogate into U+FFFD, as goJSON does for values only). */
const key = fc.oneof(
  fc.string(),
  tricky.filter((k) => !/[\ud800-\udfff]/.test(k)),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    tricky,
    fc.string({ unit: 'binary' }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('jsonSize', () => {
  it('counts the bytes JSON.stringify writes, and those Go’s encoding/json writes (html)', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(jsonSize(v, false)).toBe(bytes(JSON.stringify(v)));
        expect(jsonSize(v, true)).toBe(bytes(goJSON(v)));
      }),
      { numRuns: 5_000 },
    );
  });

  it('counts strings as Go writes them: <, >, &, U+2028/9 escaped, a lone surrogate as U+FFFD', () => {
    expect(stringSize('<a&b>', true)).toBe(2 + 6 + 1 + 6 + 1 + 6);
    expect(stringSize('<a&b>', false)).toBe(7);
    expect(stringSize('\u2028', true)).toBe(8);
    expect(stringSize('\u2028', false)).toBe(5);
    expect(stringSize('\ud800', true)).toBe(5);
    expect(stringSize('\ud800', false)).toBe(8);
    expect(stringSize('😀\t\u0001', true)).toBe(2 + 4 + 2 + 6);
  });

  it('stops past the cap, and charges one step per container and per member', () => {
    fc.assert(
      fc.property(value, fc.nat({ max: 200 }), (v, cap) => {
        const size = jsonSize(v, false);
        const capped = jsonSize(v, false, cap);
        if (size <= cap) expect(capped).toBe(size);
        else expect(capped).toBeGreaterThan(cap);
      }),
    );
    const budget = new WorkBudget();
    jsonSize({ a: [1, 2, { b: 'c' }], d: null }, true, Infinity, budget);
    expect(budget.spent).toBe(9);
    // A value that contains itself ends at the cap.
    const cyclic: unknown[] = [];
    cyclic.push(cyclic, cyclic);
    expect(jsonSize(cyclic, false, 1000)).toBeGreaterThan(1000);
  });
});
