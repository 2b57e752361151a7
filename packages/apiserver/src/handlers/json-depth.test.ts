import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { excessiveNesting, maxNestingDepth, nestingDepth } from './json-depth.js';

/** The plain definition: the first `{` or `[` outside a string that opens level `limit + 1`. */
function reference(text: string, limit: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > limit) return c;
    } else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

describe('excessiveNesting', () => {
  it('finds the character that nests too deep, whatever the text and the limit', () => {
    const text = fc
      .array(fc.constantFrom('{', '[', '}', ']', '"', '\\', 'a', ':', ','), { maxLength: 40 })
      .map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 12 }), (t, limit) => {
        expect(excessiveNesting(t, limit)).toBe(reference(t, limit));
      }),
      { numRuns: 3_000 },
    );
  });

  it('answers at exactly one level past the limit, and for texts no longer than the limit', () => {
    expect(excessiveNesting('['.repeat(maxNestingDepth + 1))).toBe('[');
    expect(excessiveNesting(`${'['.repeat(maxNestingDepth)}{`)).toBe('{');
    expect(excessiveNesting('['.repeat(maxNestingDepth))).toBeUndefined();
    expect(excessiveNesting('{}'.repeat(maxNestingDepth))).toBeUndefined();
    expect(excessiveNesting('[[[', 2)).toBe('[');
    expect(excessiveNesting('[[', 2)).toBeUndefined();
  });
});

describe('nestingDepth', () => {
  it('measures how deep a value nests', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth({ a: [1, { b: [] }], c: {} })).toBe(4);
    expect(nestingDepth(JSON.parse('['.repeat(maxNestingDepth) + ']'.repeat(maxNestingDepth)))).toBe(maxNestingDepth);
  });

  it('stops one level past the limit, so a value that contains itself (a YAML alias) ends', () => {
    const cyclic = parseYaml('a: &x [ *x ]') as { a: unknown[] };
    expect(cyclic.a[0]).toBe(cyclic.a);
    expect(nestingDepth(cyclic)).toBe(maxNestingDepth + 1);
    expect(nestingDepth(parseYaml('a: &x { b: *x }'), 5)).toBe(6);
    expect(nestingDepth(JSON.parse('['.repeat(50) + ']'.repeat(50)), 10)).toBe(11);
  });

  it('measures what a recursive walk measures, for any JSON value', () => {
    const depthOf = (v: unknown): number =>
      v === null || typeof v !== 'object' ? 0 : 1 + Math.max(0, ...Object.values(v).map(depthOf));
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, limit) => {
        const d = depthOf(v);
        expect(nestingDepth(v)).toBe(d);
        expect(nestingDepth(v, limit)).toBe(Math.min(d, limit + 1));
      }),
      { numRuns: 500 },
    );
  });

  it('reads arrays by index, not by Object.keys (which spells out each index of a million-element array)', () => {
    const keys = jest.spyOn(Object, 'keys');
    try {
      expect(nestingDepth({ items: [[1, 2], { a: [3] }, 'x'] })).toBe(4);
      expect(keys.mock.calls.filter(([v]) => Array.isArray(v))).toEqual([]);
    } finally {
      keys.mockRestore();
    }
  });
});
