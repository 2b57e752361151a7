/** Compares kevents' Accept parser (parseAccept) with goautoneg's ParseAccept, the one kube-apiserver negotiates with, on generated headers (README.md). */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseAccept } from '../../packages/apiserver/dist/encoding/accept.js';
const pieces = [
  'application',
  'json',
  'yaml',
  '*',
  '/',
  ';',
  ',',
  '=',
  ' ',
  'q',
  '0.5',
  '1',
  '0',
  'as',
  'Table',
  'g',
  'meta.k8s.io',
  'v',
  'v1',
  'stream',
  'watch',
  'text',
  'html',
  '\t',
  'q=',
  '.5',
  '1e1',
  'inf',
  'NaN',
  '-1',
  '0.9',
  'APPLICATION',
  'x',
  ';q=0.3',
  ', ',
  '*/*',
  'application/json',
  'application/*',
];
let seed = 7;
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const cases = [];
for (let i = 0; i < 20000; i++) {
  let s = '';
  const len = 1 + rnd(14);
  for (let j = 0; j < len; j++) s += pieces[rnd(pieces.length)];
  cases.push(s);
}
const structured = [
  ...['1_0', '0x1p0', '0x1p-2', '1__0', '_1', '0x1', '0X1.8P1', '+nan', 'infin', '1e1_0', '0x1p128'].map(
    (q) => `a/b;q=${q}, c/d;q=0.7`,
  ),
  // Hex mantissas longer than 16 digits, zero mantissas with large exponents, long digit runs.
  ...[
    `0x${'1'.repeat(300)}p-2000`,
    `0x${'1'.repeat(300)}p0`,
    `0x1${'0'.repeat(40)}p-160`,
    `0x.${'0'.repeat(40)}1p164`,
    `0x${'f'.repeat(17)}p-68`,
    `0x${'8'.repeat(20)}p-80`,
    '0x0p2000',
    '-0x0p2000',
    '0x0.0p-3000',
    `${'1'.repeat(400)}e-400`,
    `0.${'0'.repeat(400)}1e400`,
    `${'1'.repeat(2000)}x`,
  ].map((q) => `a/b;q=${q}, c/d;q=0.7`),
  'application/json;q=0.5, */*;q=0.9, text/*',
  'a/b;q=0.1,*/*;q=0.9,c/*;q=0.5,d/e',
  '*/*;q=0.1, application/json;q=0.1',
  'a/b/, */, */x',
  'a/b;c==,a/c;d=e=,a/d;f=g=h',
];
cases.push(...structured);
// More than 12 clauses: Go's sort.Sort orders them with pdqsort, whose order under goautoneg's
// Less (not a strict order) depends on each comparison. Many equal keys, wildcards, and runs
// already in order or reversed, to reach every path (partitionEqual, reversal, breakPatterns; 50
// and more reach the ninther and partialInsertionSort's shifting).
const clausePool = ['a/b', 'a/*', '*/*', '*', 'c/d', 'application/json', 'text/*', 'e/f;x=1'];
const qs = ['', ';q=0', ';q=0.1', ';q=0.5', ';q=0.9', ';q=1', ';q=0.5'];
const clauseOf = () => `${clausePool[rnd(clausePool.length)]}${qs[rnd(qs.length)]}`;
for (let i = 0; i < 6000; i++) {
  const n = i < 5000 ? 13 + rnd(28) : 41 + rnd(260);
  const clauses = Array.from({ length: n }, clauseOf);
  const shape = rnd(4);
  if (shape === 1) clauses.sort();
  if (shape === 2) clauses.sort().reverse();
  // Tag each clause so that equal ones can be told apart in the order.
  cases.push(clauses.map((c, k) => `${c};i=${k}`).join(', '));
}
const oraclePath = new URL('./oracle/oracle', import.meta.url).pathname;
// The oracle's Go release: pdqsort's pattern breaker changed its xorshift in Go 1.24.
const goMinor = Number(/go1\.(\d+)/.exec(execFileSync('go', ['version', oraclePath], { encoding: 'utf8' }))?.[1]);
const xorshift = goMinor >= 24 ? 'go1.24' : 'go1.19';
const go = spawn(oraclePath);
const rl = createInterface({ input: go.stdout });
const answers = [];
rl.on('line', (l) => answers.push(JSON.parse(l)));
for (const c of cases) go.stdin.write(JSON.stringify(c) + '\n');
go.stdin.end();
await new Promise((r) => go.on('close', r));
const fmtQ = (q) =>
  Number.isNaN(q)
    ? 'nan'
    : q === Infinity
      ? 'inf'
      : q === -Infinity
        ? '-inf'
        : Object.is(q, -0)
          ? '-0'
          : JSON.stringify(q);
let diffs = 0;
for (let i = 0; i < cases.length; i++) {
  const mine = parseAccept(cases[i], xorshift).map((c) => ({
    type: c.type,
    subType: c.subType,
    q: fmtQ(c.q),
    params: Object.fromEntries([...c.params].sort()),
  }));
  const theirs = answers[i].map((c) => ({ ...c, params: Object.fromEntries(Object.entries(c.params).sort()) }));
  if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
    if (diffs++ < 8)
      console.log(JSON.stringify(cases[i]), '\n mine  ', JSON.stringify(mine), '\n theirs', JSON.stringify(theirs));
  }
}
const long = cases.filter((c) => c.split(',').length > 12).length;
console.log(`${cases.length} cases (${long} of more than 12 clauses; Go ${goMinor}: ${xorshift}), ${diffs} differ`);
