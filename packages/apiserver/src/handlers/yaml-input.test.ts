import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { excessiveNesting, maxNestingDepth } from './json-depth.js';
import { aliasingError, excessiveYamlNesting, readYaml, YamlInputError } from './yaml-input.js';

const refusal = (text: string): YamlInputError => {
  try {
    readYaml(text, { uniqueKeys: true });
  } catch (err) {
    if (err instanceof YamlInputError) return err;
    throw err;
  }
  throw new Error('accepted');
};

describe('excessiveYamlNesting', () => {
  it('finds flow collections nested past the bound, before the parser runs', () => {
    const deep = `metadata: {annotations: {a: ${'['.repeat(maxNestingDepth + 1)}${']'.repeat(maxNestingDepth + 1)}}}`;
    expect(excessiveYamlNesting(deep)).toBe('[');
    expect(excessiveYamlNesting(`a: ${'{x: '.repeat(maxNestingDepth + 1)}`)).toBe('{');
    expect(
      excessiveYamlNesting(`a: ${'['.repeat(maxNestingDepth - 2)}${']'.repeat(maxNestingDepth - 2)}`),
    ).toBeUndefined();
    const big = `a: ${'['.repeat(1_500_000)}`;
    expect(refusal(big).kind).toBe('depth');
  });

  it('counts brackets only where a node starts: plain scalars, quoted scalars and comments are text', () => {
    const many = 'a['.repeat(maxNestingDepth + 10);
    for (const text of [
      `note: ${many}`,
      `note: it's ${many}`,
      `note: "${'['.repeat(maxNestingDepth + 10)}"`,
      `note: '${'['.repeat(maxNestingDepth + 10)}'`,
      `note: '' # ${'['.repeat(maxNestingDepth + 10)}`,
      `# ${'{'.repeat(maxNestingDepth + 10)}\nnote: x`,
      `list: [${Array.from({ length: 2000 }, () => '[1]').join(', ')}]`,
    ])
      expect(excessiveYamlNesting(text)).toBeUndefined();
  });

  it('agrees with the JSON scan on any JSON text (JSON is YAML)', () => {
    const { v } = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'large' },
        fc.constantFrom(null, 1, 'a', "it's [", '"{', '#x'),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '[', "'"), tie('v'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(v, fc.integer({ min: 1, max: 12 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(excessiveYamlNesting(text, limit) !== undefined).toBe(excessiveNesting(text, limit) !== undefined);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('aliasingError (goyaml v2)', () => {
  it('accepts ordinary aliases, as kube does: 120 aliases of one scalar', () => {
    const text = `a0: &v hello\n${Array.from({ length: 120 }, (_, i) => `a${i + 1}: *v`).join('\n')}\n`;
    expect(aliasingError(parseDocument(text))).toBeUndefined();
    const { value } = readYaml(text, { uniqueKeys: true });
    expect((value as Record<string, string>)['a120']).toBe('hello');
  });

  it('refuses a billion laughs in its words, without expanding it', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const err = refusal(lines.join('\n'));
    expect([err.kind, err.message]).toEqual(['aliasing', 'document contains excessive aliasing']);
  });

  it('refuses more than 4,000 aliases whatever their share (the yaml package resolves each by a scan)', () => {
    const many = (n: number): string => `a: &v x\nb:\n${'- *v\n- y\n'.repeat(n)}`;
    expect(aliasingError(parseDocument(many(4_000)))).toBeUndefined();
    expect(aliasingError(parseDocument(many(4_001)))).toBe('document contains excessive aliasing');
  });

  it('refuses an alias inside its own anchor', () => {
    const err = refusal('labels: &x\n  a: *x\n');
    expect([err.kind, err.message]).toEqual(['aliasing', "anchor 'x' value contains itself"]);
  });

  it('refuses an alias to no anchor', () => {
    const err = refusal('a: *nowhere\n');
    expect([err.kind, err.message]).toEqual(['aliasing', "unknown anchor 'nowhere' referenced"]);
  });

  it('reports a syntax error', () => {
    expect(refusal('a: [1, 2').kind).toBe('syntax');
  });
});
