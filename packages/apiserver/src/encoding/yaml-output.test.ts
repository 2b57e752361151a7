import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readYaml } from '../handlers/yaml-input.js';
import { goJsonText, jsonToYaml, yamlListChunks } from './yaml-output.js';
import type { JSONListShape } from './list-stream.js';

/** JSONToYAML's answers (sigs.k8s.io/yaml v1.4.0), written by tools/yaml-oracle/output-fixtures.js. */
const fixtures = JSON.parse(readFileSync(new URL('./yaml-output.fixtures.json', import.meta.url), 'utf8')) as {
  json: string;
  yaml: string;
}[];

describe('jsonToYaml', () => {
  it(`writes what kube-apiserver writes for each of ${fixtures.length} JSON texts`, () => {
    expect(fixtures.length).toBeGreaterThan(500);
    const differing = fixtures.filter((f) => jsonToYaml(f.json) !== f.yaml);
    expect(differing.map((f) => ({ ...f, kevents: jsonToYaml(f.json) }))).toEqual([]);
  });

  it('sorts keys as goyaml does: other characters, then digits by value, then letters', () => {
    expect(jsonToYaml('{"b":1,"a10":2,"a9":3,"A":4,"_":5,"1":6}')).toBe('_: 5\n"1": 6\nA: 4\na9: 3\na10: 2\nb: 1\n');
  });

  it('quotes strings that read back as another type, timestamps included', () => {
    expect(jsonToYaml('{"a":"true","b":"1.0","c":"2024-01-01T00:00:00Z","d":"yes","e":"0x1F","f":"1:20"}')).toBe(
      'a: "true"\nb: "1.0"\nc: "2024-01-01T00:00:00Z"\nd: "yes"\ne: "0x1F"\nf: "1:20"\n',
    );
    expect(jsonToYaml('{"a":"- a","b":"a: b","c":"#x","d":"","e":"a\\tb"}')).toBe(
      `a: '- a'\nb: 'a: b'\nc: '#x'\nd: ""\ne: "a\\tb"\n`,
    );
  });

  it('writes lists inside maps unindented, empty collections in flow style', () => {
    expect(jsonToYaml('{"a":[1,[2,3],{"b":[]}],"c":{}}')).toBe('a:\n- 1\n- - 2\n  - 3\n- b: []\nc: {}\n');
    expect(jsonToYaml('[]')).toBe('[]\n');
    expect(jsonToYaml('null')).toBe('null\n');
  });

  it('writes line feeds as literal blocks and folds long lines past column 80', () => {
    expect(jsonToYaml('{"a":"x\\ny","b":"x\\n","c":"x\\n\\n"}')).toBe('a: |-\n  x\n  y\nb: |\n  x\nc: |+\n  x\n\n');
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const lines = jsonToYaml(JSON.stringify({ message: words })).split('\n');
    expect(lines[0]).toBe('message: word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11');
    expect(lines[1]).toBe('  word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23');
  });

  it('writes numbers in Go forms: integers digit for digit, floats as the shortest %g', () => {
    expect(jsonToYaml('[1,-0,1.0,-0.0,123456789,123456789.0,1e21,1e-7,18446744073709551615,1e400]')).toBe(
      '- 1\n- 0\n- 1\n- -0\n- 123456789\n- 1.23456789e+08\n- 1e+21\n- 1e-07\n- 18446744073709551615\n- 1e400\n',
    );
  });

  it('escapes characters outside the BMP and controls, and folds raw NEL as goyaml reads it', () => {
    expect(jsonToYaml('{"a":"\\ud83d\\ude00","b":"x\\u0000","c":"x \u0085 y"}')).toBe(
      'a: "\\U0001F600"\nb: "x\\0"\nc: x y\n',
    );
  });

  it('writes DEL and the C1 controls as goyaml’s emitter does (its reader refuses them raw: kube answers 500)', () => {
    const c1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join('');
    expect(jsonToYaml(JSON.stringify({ a: `x\u007fy`, b: c1, c: '\ufffe\uffff' }))).toBe(
      'a: "x\\x7Fy"\nb: "\\x80\\x81\\x82\\x83\\x84 \\x86\\x87\\x88\\x89\\x8A\\x8B\\x8C\\x8D\\x8E\\x8F\\x90\\x91\\x92\\x93\\x94\\x95\\x96\\x97\\x98\\x99\\x9A\\x9B\\x9C\\x9D\\x9E\\x9F"\nc: "\\uFFFE\\uFFFF"\n',
    );
    // A raw NEL is a line break to goyaml's reader, folded to a space (above); escaped it is `\N`.
    expect(jsonToYaml('{"m":"\\u0085\\u007f"}')).toBe('m: "\\N\\x7F"\n');
  });

  it('writes keys past 128 bytes or with line breaks as complex keys', () => {
    const key = 'k'.repeat(129);
    expect(jsonToYaml(JSON.stringify({ [key]: 1, 'a\nb': [2] }))).toBe(`? |-\n  a\n  b\n: - 2\n? ${key}\n: 1\n`);
  });

  it('never throws on JSON goyaml refuses to read, and does on text that is not JSON', () => {
    expect(jsonToYaml('{"a":"\\/","b":"\\ud800","c":"\u007f"}')).toBe('a: /\nb: "\\uD800"\nc: "\\x7F"\n');
    expect(() => jsonToYaml('{"a":')).toThrow(SyntaxError);
    expect(() => jsonToYaml('[1] x')).toThrow(SyntaxError);
  });

  it('reads back as the same value (kevents YAML reader)', () => {
    // LS and PS are line breaks to goyaml (written into quoted scalars and blocks as such) but not
    // to the YAML 1.2 parser under readYaml, so values here leave them out; a raw NEL in a JSON
    // string is a line break that goyaml folds, so the texts escape it.
    const noLineSeparators = (v: unknown): boolean => !/[\u2028\u2029]/.test(JSON.stringify(v));
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }).filter(noLineSeparators), (v) => {
        const json = JSON.stringify(v).replaceAll('\u0085', '\\u0085');
        expect(readYaml(jsonToYaml(json)).value).toEqual(JSON.parse(json));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the same YAML whether or not the fast JSON path applies', () => {
    // A raw NEL anywhere sends the whole text through parseJsonTree.
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const json = JSON.stringify(v);
        const slow = jsonToYaml(`[${json},"\u0085"]`);
        const fast = jsonToYaml(`[${json}," "]`);
        expect(slow.slice(0, slow.lastIndexOf('- '))).toBe(fast.slice(0, fast.lastIndexOf('- ')));
      }),
      { numRuns: 300 },
    );
  });

  it('writes 3 MB strings of words, quotes, controls or lines without a string per word or escape', () => {
    const n = 3 * 1024 * 1024;
    const values = [
      'a '.repeat(n / 2 - 1) + 'a',
      "' a".repeat(n / 3),
      '\u0001'.repeat(n / 6),
      'a\n'.repeat(n / 4),
      '\u0001 '.repeat(n / 7),
    ];
    let ms = 0;
    const lengths = values.map((v) => {
      const text = JSON.stringify({ message: v });
      let best = Infinity;
      let length = 0;
      for (let run = 0; run < 2; run++) {
        const started = performance.now();
        length = jsonToYaml(text).length;
        best = Math.min(best, performance.now() - started);
      }
      ms += best;
      return length;
    });
    // 3.5-4.5 s when each word, space and escape was a string of its own, most of it collecting them
    expect(ms).toBeLessThan(2500);
    expect(lengths[2]).toBe('message: "'.length + 4 * (n / 6) + '"\n'.length);
  });

  it('encodes a 3 MB list (in linear time: timings are measured, not asserted)', () => {
    const item = {
      metadata: { name: 'x', namespace: 'default', creationTimestamp: '2024-05-01T10:11:12Z' },
      message: 'Back-off restarting failed container nginx in pod nginx-7c5ddbdf54-x8vzm_default',
      count: 1,
    };
    const json = JSON.stringify({ kind: 'EventList', items: Array.from({ length: 16000 }, () => item) });
    expect(json.length).toBeGreaterThan(3e6);
    const yaml = jsonToYaml(json);
    expect(yaml.split('\n- count: 1\n').length).toBe(16001);
  });
});

describe('yamlListChunks', () => {
  const shapeOf = (
    envelope: Record<string, unknown>,
    arrayKey: string,
    elements: readonly unknown[],
  ): JSONListShape => ({
    envelope: { ...envelope, [arrayKey]: [] },
    arrayKey,
    length: elements.length,
    items: (from, to) => elements.slice(from, to).map((x) => JSON.stringify(x)),
    values: (from, to) => elements.slice(from, to),
  });
  // Values as kevents' objects hold them: strings, booleans, null and integers (no fractions).
  const leaf = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.integer(),
    fc.constantFrom(
      'true',
      '1.0',
      'a: b',
      'x\ny',
      '',
      'a\u0085b',
      'x \u2028 y',
      '\u2029',
      'n\u0085\u0085 m',
      'l '.repeat(50) + '\u0085 t',
    ),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 }),
    ),
  })).v;

  it('joins to exactly jsonToYaml of Go’s JSON text of the whole list, whatever the chunk size', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((k) => k !== 'items'),
          value,
          { maxKeys: 4 },
        ),
        fc.array(fc.dictionary(fc.string(), value, { maxKeys: 5 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 400 }),
        (envelope, elements, chunk) => {
          const whole = { ...envelope, items: elements };
          const chunks = [...yamlListChunks(shapeOf(envelope, 'items', elements), chunk)];
          expect(chunks.join('')).toBe(jsonToYaml(goJsonText(JSON.stringify(whole))));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ends a piece within one element of the chunk size, however large the elements', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ note: `${i} w`.repeat(40_000) }));
    let taken = 0;
    const shape: JSONListShape = {
      ...shapeOf({ kind: 'EventList' }, 'items', items),
      values: (from, to) => {
        taken += to - from;
        return items.slice(from, to);
      },
    };
    const chunks = yamlListChunks(shape, 64 * 1024);
    // elements of up to 3 MiB were written 16 at a time between two pieces
    expect(chunks.next().value!.length).toBeLessThan(64 * 1024 + 200_000);
    expect(taken).toBe(1);
    expect(['', ...chunks].length).toBe(21);
  });

  it('cuts a large list into pieces of about the chunk size', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ metadata: { name: `e-${i}` }, note: 'x'.repeat(100) }));
    const chunks = [...yamlListChunks(shapeOf({ kind: 'EventList', apiVersion: 'v1' }, 'items', items), 64 * 1024)];
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeLessThan(2 * 64 * 1024);
    expect(chunks.join('')).toBe(jsonToYaml(JSON.stringify({ kind: 'EventList', apiVersion: 'v1', items })));
  });
});
