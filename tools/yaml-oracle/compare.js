// Compares kevents' YAML reader with the one kube-apiserver uses, sigs.k8s.io/yaml v1.4.0
// (its YAMLToJSON and YAMLToJSONStrict, over goyaml v2), input by input, and prints each class of
// difference with its shortest example: success against failure first, then values, strict
// errors and (with --messages) error wording. A development check, not a test: it needs Go and
// the oracle built (README.md).
//
// Usage: node tools/yaml-oracle/compare.js [--generated=3000] [--seed=1] [--messages]
//        [--oracle=tools/yaml-oracle/oracle/oracle]   (after npm run build)

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { readYaml } from '../../packages/apiserver/dist/handlers/yaml-input.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const oracle = arg('oracle', new URL('./oracle/oracle', import.meta.url).pathname);
const generated = Number(arg('generated', '3000'));
const seed = Number(arg('seed', '1'));
const messages = process.argv.includes('--messages');
if (!existsSync(oracle)) {
  console.error(`no oracle at ${oracle}: build it first (tools/yaml-oracle/README.md)`);
  process.exit(2);
}

/** Inputs that differed once, or that mark a rule: each class of today's reader has one. */
const corpus = [
  'a: yes',
  'a: On',
  'a: y',
  'n: 1',
  'a: 010',
  'a: 0x1F',
  'a: 0o17',
  'a: 0b101',
  'a: 1_000',
  'a: 08',
  'a: 1.',
  'a: .5',
  'a: 1e3',
  'a: 1e400',
  'a: .inf',
  'a: .nan',
  'a: 9223372036854775808',
  'a: 2001-12-14',
  'a: "yes"',
  'a: !!str 010',
  'a: !!int "010"',
  'a: !!int abc',
  'a: !!float 3',
  'a: !!bool maybe',
  'a: !!binary aGVsbG8=',
  'a: !!binary "x!"',
  'a: !!timestamp 2001-12-14',
  'a: !!timestamp 1',
  '!!omap [1]',
  '!!set {a: 1}',
  'a: 1\na: 2',
  'a: {b: 1, b: 2}',
  '1: a\n"1": b',
  '1: a\n1.0: b',
  '~: v',
  'null: v',
  '9223372036854775808: v',
  '1.5: a\n1e20: b\n3.14159265358979: c',
  '? [a]\n: x',
  '? {a: 1}\n: x',
  'a: &a {x: 1}\nb: {*a : 1}',
  'a: &a 1\nb: *a',
  'a: *nowhere',
  'a: &x\n  b: *x',
  'base: &b {x: 1, z: 2}\nr:\n  <<: *b\n  z: 3',
  'c:\n  x: 2\n  <<: {x: 1}',
  'a: &a {k: 1}\nb: &b {k: 2, j: 3}\nc:\n  <<: [*a, *b]',
  'a:\n  <<: 1',
  'a: &x 1\nb: &m {k: &x 2, j: *x}\nc: &x 3\nd: {<<: *m}\ne: *x',
  'c:\n  <<: {a: 1, a: 2}',
  'a: 1\n---\n',
  'a: 1\n---\nb: [',
  '[1, 2]]',
  '{"a": 1} extra',
  "[1]'x",
  '[1] @x',
  '',
  '# c',
  'a: [',
  'data: |\n  x',
  'data: >\n  x\n  y',
  'data: |+\n  x\n\n',
  '{"a": "\\/"}',
  '{"a": "\\ud83d\\ude00"}',
  '{"a": 1e400}',
  '{"a": 1, "a": 2}',
  'a: "x"#c',
  '[-]',
  'a: 1\rb: 2',
  'v: -',
  '...',
  '- - - x',
];

const scalars = [
  'a',
  'x y',
  'y',
  'n',
  'Yes',
  'off',
  '~',
  'null',
  '',
  '0',
  '-1',
  '010',
  '0o17',
  '0x1F',
  '0b11',
  '1_000',
  '1.5',
  '.5',
  '1.',
  '1e3',
  '1e400',
  '.inf',
  '.nan',
  '9223372036854775808',
  '2001-12-14',
  "'q'",
  '"d\\n"',
  '"\\u00e9"',
  '!!str 1',
  '!!int 2',
  '!!float 3',
  '!foo x',
  '"1"',
  'true',
];
const keys = ['a', 'b', 'y', 'n', '1', '"1"', '1.0', '~', 'true', "'b'", '<<', '0x1', '1e3', '-1', '.5', 'on'];
const tree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, tie('scalar'), tie('map'), tie('seq'), tie('alias')),
  scalar: fc.record({
    t: fc.constant('s'),
    v: fc.constantFrom(...scalars),
    anchor: fc.option(fc.constantFrom('x', 'y'), { freq: 6 }),
  }),
  alias: fc.record({ t: fc.constant('alias'), name: fc.constantFrom('x', 'y') }),
  map: fc.record({
    t: fc.constant('m'),
    items: fc.array(fc.tuple(fc.constantFrom(...keys), tie('node')), { maxLength: 4 }),
    anchor: fc.option(fc.constantFrom('x', 'y'), { freq: 4 }),
  }),
  seq: fc.record({
    t: fc.constant('q'),
    items: fc.array(tie('node'), { maxLength: 3 }),
    anchor: fc.option(fc.constantFrom('x', 'y'), { freq: 4 }),
  }),
})).node;
/** A tree as flow YAML (block layout is exercised by the corpus). */
const render = (n) => {
  const pre = n.anchor ? `&${n.anchor} ` : '';
  if (n.t === 's') return pre + (/[:#,[\]{}]/.test(n.v) ? JSON.stringify(n.v) : n.v);
  if (n.t === 'alias') return `*${n.name} `;
  if (n.t === 'm') return `${pre}{${n.items.map(([k, v]) => `${k}: ${render(v)}`).join(', ')}}`;
  return `${pre}[${n.items.map(render).join(', ')}]`;
};
const inputs = [...new Set([...corpus, ...fc.sample(tree.map(render), { numRuns: generated, seed })])];

const run = spawnSync(oracle, [], {
  input: `${inputs.map((t) => JSON.stringify(t)).join('\n')}\n`,
  maxBuffer: 1 << 30,
});
if (run.status !== 0) throw new Error(`the oracle failed: ${run.stderr}`);
const answers = run.stdout
  .toString('utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));

const classes = new Map();
const note = (cls, text, go, kv) => {
  if (!classes.has(cls)) classes.set(cls, []);
  classes.get(cls).push({ text, go, kv });
};
inputs.forEach((text, i) => {
  const go = answers[i];
  let kv;
  try {
    kv = { ok: true, ...readYaml(text) };
  } catch (err) {
    kv = { ok: false, message: err.message };
  }
  if (go.json !== null && !kv.ok) return note('kube accepts, kevents refuses', text, go.json, kv.message);
  if (go.json === null && kv.ok) return note('kube refuses, kevents accepts', text, go.err, JSON.stringify(kv.value));
  if (!kv.ok) {
    if (messages && go.err !== kv.message) note('both refuse, in other words', text, go.err, kv.message);
    return;
  }
  if (!isDeepStrictEqual(JSON.parse(go.json), JSON.parse(JSON.stringify(kv.value ?? null)))) {
    return note('values differ', text, go.json, JSON.stringify(kv.value));
  }
  const strict = kv.duplicateKeys.length > 0 ? `yaml: unmarshal errors:\n  ${kv.duplicateKeys.join('\n  ')}` : null;
  if (strict !== go.strictErr) note('strict errors differ', text, go.strictErr, strict);
});

console.log(`${inputs.length} inputs (${corpus.length} from the corpus), compared with sigs.k8s.io/yaml v1.4.0`);
for (const [cls, list] of classes) {
  list.sort((a, b) => a.text.length - b.text.length);
  console.log(`\n${cls}: ${list.length}`);
  for (const d of list.slice(0, 5)) {
    console.log(
      `  ${JSON.stringify(d.text)}\n    kube:    ${JSON.stringify(d.go)}\n    kevents: ${JSON.stringify(d.kv)}`,
    );
  }
}
