import { describe, expect, it } from '@jest/globals';
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
});
