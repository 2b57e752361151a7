import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { excessiveNesting, maxNestingDepth } from './json-depth.js';
import { aliasingError, excessiveYamlNesting, readYaml, YamlInputError } from './yaml-input.js';
import { maxInvalidKeyText } from './yaml-decode.js';

const refusal = (text: string): YamlInputError => {
  try {
    readYaml(text);
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
    const { value } = readYaml(text);
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
    expect([err.kind, err.message]).toEqual(['aliasing', 'yaml: document contains excessive aliasing']);
  });

  it('counts as goyaml v2 counts, while it decodes: alias nodes too, the share checked at every node', () => {
    const many = (n: number): string => `a: &v x\nb:\n${'- *v\n- y\n'.repeat(n)}`;
    expect(aliasingError(parseDocument(many(10_000)))).toBeUndefined();
    const list = (items: number, aliases: number): string =>
      `a: &a [${Array(items).fill('x').join(', ')}]\nb: [${Array(aliases).fill('*a').join(', ')}]\n`;
    // 150 × (1 + 51) aliased of 7,857 decoded: 0.974, under 0.99.
    expect(aliasingError(parseDocument(list(50, 150)))).toBeUndefined();
    expect(aliasingError(parseDocument(list(500, 300)))).toBe('document contains excessive aliasing');
    expect(aliasingError(parseDocument(list(500, 100)))).toBeUndefined();
    // The share passed the bound while decoding, and plain nodes after it do not undo that.
    const late = `${list(999, 200)}c: [${Array(200_000).fill('1').join(',')}]\n`;
    expect(aliasingError(parseDocument(late))).toBe('document contains excessive aliasing');
  });

  it('refuses a document whose scalars pass the body limit once aliases are expanded (goyaml counts nodes only)', () => {
    const labels = (n: number): string =>
      `labels:\n  k: &s ${'x'.repeat(100_000)}\n${Array.from({ length: n }, (_, i) => `  k${i}: *s\n`).join('')}`;
    expect(aliasingError(parseDocument(labels(20)))).toBeUndefined();
    expect(aliasingError(parseDocument(labels(40)))).toBe('document contains excessive aliasing');
    // 127 KB that decoded to 200 MB and ran the server out of heap.
    const err = refusal(labels(2000));
    expect([err.kind, err.message]).toEqual(['aliasing', 'yaml: document contains excessive aliasing']);
  });

  it('refuses an alias inside its own anchor', () => {
    const err = refusal('labels: &x\n  a: *x\n');
    expect([err.kind, err.message]).toEqual(['aliasing', "yaml: anchor 'x' value contains itself"]);
  });

  it('refuses an alias to no anchor', () => {
    const err = refusal('a: *nowhere\n');
    expect([err.kind, err.message]).toEqual(['aliasing', "yaml: unknown anchor 'nowhere' referenced"]);
  });

  it('reports a syntax error', () => {
    expect(refusal('a: [1, 2').kind).toBe('syntax');
  });
});

describe('readYaml', () => {
  it('keeps the last of repeated keys and names each as goyaml strict does, in linear time', () => {
    const read = readYaml('a: 1\nb:\n  c: u\n  c: w\na: 2\n1: p\n"1": q\n1: r\n');
    expect(read.value).toEqual({ a: 2, b: { c: 'w' }, '1': 'r' });
    expect(read.duplicateKeys).toEqual([
      'line 4: key "c" already set in map',
      'line 5: key "a" already set in map',
      'line 8: key 1 already set in map',
    ]);
    // The yaml package's own uniqueKeys check costs the keys' number squared: 60,000 keys took 16 s.
    const keys = 200_000;
    const many = Array.from({ length: keys }, (_, i) => `k${i}: v`).join('\n');
    const started = process.hrtime.bigint();
    const big = readYaml(`${many}\nk7: w\n`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    expect(big.duplicateKeys).toEqual([`line ${keys + 1}: key "k7" already set in map`]);
    expect((big.value as Record<string, string>)['k7']).toBe('w');
    expect(seconds).toBeLessThan(30);
  });

  it('refuses a key that is a map or a list as goyaml does, whatever it nests (1 KiB of `? ` took 19 s)', () => {
    expect(refusal('? a: 1\n: x\n').message).toBe('yaml: invalid map key: map[interface {}]interface {}{"a":1}');
    expect(refusal('? [b, 2, null, 1.5, true]\n: x\n').message).toBe(
      'yaml: invalid map key: []interface {}{"b", 2, interface {}(nil), 1.5, true}',
    );
    expect(refusal('k: {? {z: 1, a: [x]} : v}\n').message).toBe(
      'yaml: invalid map key: map[interface {}]interface {}{"a":[]interface {}{"x"}, "z":1}',
    );
    expect(refusal('a: &m {x: y}\nb: {*m : 1}\n').message).toBe(
      'yaml: invalid map key: map[interface {}]interface {}{"x":true}',
    );
    // goyaml fails on the innermost key first.
    const nested = refusal(`${'? '.repeat(600)}x\n`);
    expect([nested.kind, nested.message]).toEqual([
      'syntax',
      'yaml: invalid map key: map[interface {}]interface {}{"x":interface {}(nil)}',
    ]);
    const long = refusal(`? [${'"aaaaaaaaaa", '.repeat(500)}]\n: x\n`).message;
    expect(long.length).toBe('yaml: invalid map key: '.length + maxInvalidKeyText + 3);
    expect(long.endsWith('...')).toBe(true);
  });

  it('refuses block nesting the parser cannot hold as too deep, not with a stack overflow', () => {
    for (const text of [`${'- '.repeat(5000)}x\n`, `${'- '.repeat(30000)}x\n`]) {
      const err = refusal(text);
      expect([err.kind, err.message]).toEqual(['depth', `exceeded max depth of ${maxNestingDepth}`]);
    }
  });

  it('reads JSON with the JSON parser, and JSON with repeated keys as YAML', () => {
    const text = JSON.stringify({ metadata: { name: 'x', labels: { a: 'yes', b: '010' } }, n: [1, 2.5, null] });
    expect(readYaml(text)).toEqual({ value: JSON.parse(text), duplicateKeys: [] });
    expect(readYaml('{"a": 1,\n "a": 2}')).toEqual({
      value: { a: 2 },
      duplicateKeys: ['line 2: key "a" already set in map'],
    });
  });

  it('gives the value the YAML parser gives for any JSON text', () => {
    const value = fc.jsonValue({ maxDepth: 4 }).filter((v) => v !== null && typeof v === 'object');
    fc.assert(
      fc.property(value, fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        const fromYaml = parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: -1 }) as unknown;
        expect(readYaml(text).value).toEqual(fromYaml);
      }),
      { numRuns: 500 },
    );
  });

  it('never writes a warning to the process for what a client sends', () => {
    const warnings: string[] = [];
    const listener = (w: Error): void => {
      warnings.push(w.message);
    };
    process.on('warning', listener);
    try {
      readYaml('a: !unknown x\nb: !!binary aGVsbG8=\n');
    } finally {
      process.off('warning', listener);
    }
    expect(warnings).toEqual([]);
  });
});

describe('readYaml bounds (found by fuzzing; each took minutes, or the heap, before)', () => {
  const seconds = (f: () => void): number => {
    const started = process.hrtime.bigint();
    f();
    return Number(process.hrtime.bigint() - started) / 1e9;
  };

  it('prints at most 1,024 characters of a repeated key however long the key (4,000 uses of a 300 KB key ran out of heap)', () => {
    // Within the expansion budget: 1,000 uses of a 3,000-character key.
    const text = `a: &k ${'x'.repeat(3000)}\nb:\n${'  *k : 1\n'.repeat(1000)}`;
    let read: ReturnType<typeof readYaml> | undefined;
    expect(seconds(() => (read = readYaml(text)))).toBeLessThan(20);
    expect(read!.duplicateKeys).toHaveLength(999);
    expect(read!.duplicateKeys[0]!.length).toBeLessThan(1100);
    // Past it, the document is refused before anything is quoted.
    const huge = `a: &k ${'x'.repeat(300_000)}\nb:\n${'  *k : 1\n'.repeat(4000)}`;
    expect(seconds(() => expect(refusal(huge).kind).toBe('aliasing'))).toBeLessThan(20);
  });

  it('resolves each scalar once, however many aliases use it (4,000 uses of a 300,000-digit integer key took 145 s)', () => {
    const text = `a: &k 1${'2'.repeat(700)}\nb:\n${'- *k : 1\n'.repeat(4000)}`;
    expect(seconds(() => readYaml(text))).toBeLessThan(20);
  });

  it('reads nothing past the first document: 1 MB of stray brackets after it is never parsed', () => {
    let read: ReturnType<typeof readYaml> | undefined;
    expect(seconds(() => (read = readYaml(`a: 1\n${']'.repeat(1_000_000)}`)))).toBeLessThan(20);
    expect(read!.value).toEqual({ a: 1 });
    // goyaml's scanner reads one token past the content: a token it cannot read fails the body.
    expect(readYaml(`a: 1\n---\n'unterminated`).value).toEqual({ a: 1 });
    expect(refusal(`[1]'unterminated`).message).toMatch(/^yaml: /);
    expect(refusal('[1] @x').message).toMatch(/^yaml: /);
  });
});
