import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { apiFailure } from '../../testing/api-failure.js';
import { readPatch } from './apply.js';
import { overflowingNumber } from '../json-scan.js';
import { refuseOverflowingNumbers } from './number-overflow.js';

describe('overflowingNumber', () => {
  it('finds the first literal past a double, skipping strings', () => {
    expect(overflowingNumber('{"a":"1e400","b":[1,-2.5e3,-1e400,1e999]}')).toBe('-1e400');
    expect(overflowingNumber('{"a\\"1e400":1.7976931348623157e308}')).toBeUndefined();
    expect(overflowingNumber(`[${'9'.repeat(400)}]`)).toBe('9'.repeat(400));
  });

  it('finds one exactly when JSON.parse makes an infinity of the text', () => {
    const literal = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constant('1e400'));
    const doc = fc.array(fc.tuple(fc.string(), literal), { maxLength: 6 });
    fc.assert(
      fc.property(doc, (pairs) => {
        const text = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
        const infinite = Object.values(JSON.parse(text) as Record<string, number>).some((v) => !Number.isFinite(v));
        const anyInfinite = pairs.some(([, v]) => !Number.isFinite(Number(v)));
        expect(overflowingNumber(text) !== undefined).toBe(anyInfinite);
        if (!anyInfinite) expect(infinite).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('refuseOverflowingNumbers', () => {
  const body = readPatch('{"deprecatedCount":1e400}');
  it('refuses where kube decodes the patch into a map first', () => {
    const merge = apiFailure(() => refuseOverflowingNumbers('application/merge-patch+json', body, 'Warn'));
    expect([merge.code, merge.status.message]).toEqual([
      400,
      'error decoding patch: json: cannot unmarshal number 1e400 into Go value of type float64',
    ]);
    const smp = apiFailure(() => refuseOverflowingNumbers('application/strategic-merge-patch+json', body, 'Ignore'));
    expect(smp.status.message).toBe('json: cannot unmarshal number 1e400 into Go value of type float64');
  });
  it('lets JSON patches and merge patches under Ignore through', () => {
    refuseOverflowingNumbers('application/merge-patch+json', body, 'Ignore');
    refuseOverflowingNumbers(
      'application/json-patch+json',
      readPatch('[{"op":"add","path":"/a","value":1e400}]'),
      'Strict',
    );
  });

  it('looks at scalars in place, never listing array indices or stacking scalars', () => {
    // Object.keys of a million-element array makes a million index strings, and pushing and
    // popping a million scalars on a stack costs a quarter of a second: ~0.5 s of event loop.
    // Parsed here: readPatch refuses a patch of so many values.
    const text = `{"a":[${Array(100_000).fill('1').join(',')},{"b":[1e400]}]}`;
    const big = { text, value: JSON.parse(text) as unknown };
    const keys = jest.spyOn(Object, 'keys');
    const push = jest.spyOn(Array.prototype, 'push');
    let failure, arrayKeys, pushes;
    try {
      failure = apiFailure(() => refuseOverflowingNumbers('application/strategic-merge-patch+json', big, 'Warn'));
    } finally {
      // Counted before restoring, which clears the calls.
      pushes = push.mock.calls.length;
      arrayKeys = keys.mock.calls.filter(([v]) => Array.isArray(v)).length;
      push.mockRestore();
      keys.mockRestore();
    }
    expect(failure.code).toBe(400);
    expect(arrayKeys).toBe(0);
    expect(pushes).toBeLessThan(10);
  });
});

describe('overflowingNumber of valid JSON', () => {
  it('is the first literal Number reads as infinite, whatever its digits and exponent', () => {
    const literal = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
      fc
        .tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 400 }), fc.boolean())
        .map(([neg, lead, zeros, frac]) => `${neg ? '-' : ''}${lead}${'0'.repeat(zeros)}${frac ? '.5' : ''}`),
      fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(420))
        .map(([m, e, sign, x]) => `${m}${e}${sign}${x}`),
    );
    fc.assert(
      fc.property(fc.array(literal, { maxLength: 6 }), (literals) => {
        const first = literals.find((l) => !Number.isFinite(Number(l)));
        expect(overflowingNumber(`[${literals.join(',')}]`)).toBe(first);
      }),
      { numRuns: 2000 },
    );
  });
});
