#!/usr/bin/env node
// The main thread's hot spots of a server counted by `instructions.js --keep`, by name: V8's
// builtins and Node's C++ as callgrind names them, and JIT-compiled JavaScript by the name V8 gave
// its code in the server's perf map (`jit.map`, written by node's --perf-basic-prof), which
// callgrind only knows as an address. Self cost, highest first; with --callers, the JIT functions
// that call each of the first --top entries (how a builtin such as `StringIndexOf` is reached);
// with --inclusive, each function's cost with what it calls.
// Usage: node tools/bench/callgrind-top.js <dir printed by instructions.js --keep> [--top=40]
//        [--per=<requests counted>] [--callers] [--inclusive] [--file=cg.1-01]
//        (needs valgrind's callgrind_annotate: Debian package valgrind)
import './lib/help.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberArg, stringArg } from './lib/args.js';

const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!dir) {
  process.stderr.write('name the directory instructions.js --keep printed\n');
  process.exit(2);
}
const top = numberArg('top', 40);
const per = numberArg('per', 0);
const file = join(dir, stringArg('file', 'cg.1-01'));
const callers = process.argv.includes('--callers');
const inclusive = process.argv.includes('--inclusive');

/** The JIT code ranges of the perf map, sorted by start. */
function readMap(path) {
  if (!existsSync(path)) return [];
  const ranges = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (m) ranges.push({ start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3] });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

const ranges = readMap(join(dir, 'jit.map'));
// Piped into head: stop quietly when the reader does.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/** The perf map's name of the code at `address`, the last one written there (code is reused). */
function jitName(address) {
  let lo = 0;
  let hi = ranges.length - 1;
  let found;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid].start <= address) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = found ?? -1; i >= 0 && i > (found ?? 0) - 64; i--) if (address < ranges[i].end) return ranges[i].name;
  return undefined;
}

const name = (fn) =>
  fn.replace(/\?\?\?:0x([0-9a-f]+)('\d+)?( \([\d,]+x\))? \[\?\?\?\]/, (all, hex, rec, calls) => {
    const n = jitName(parseInt(hex, 16));
    return n ? `JIT ${n}${rec ?? ''}${calls ?? ''}` : all;
  });

const text = execFileSync(
  'callgrind_annotate',
  ['--threshold=100', ...(callers ? ['--tree=caller'] : []), ...(inclusive ? ['--inclusive=yes'] : []), file],
  {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  },
);
const total = Number(/^\s*([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS/m.exec(text)?.[1].replace(/,/g, '') ?? 0);
const count = (s) => Number(s.replace(/,/g, ''));
const show = (n) => (per ? `${(n / per).toFixed(0).padStart(8)} a request` : n.toLocaleString('en').padStart(14));

process.stdout.write(`${file}: ${total.toLocaleString('en')} instructions${ranges.length ? '' : ' (no jit.map)'}\n`);
if (!callers) {
  let shown = 0;
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.*)$/.exec(line);
    if (!m || m[2] === '100.0') continue;
    process.stdout.write(`${show(count(m[1]))} ${m[2].padStart(5)}%  ${name(m[3]).slice(0, 150)}\n`);
    if (++shown >= top) break;
  }
} else {
  // --tree=caller: each entry is its callers (`<` lines) followed by the function itself (`*`).
  const blocks = [];
  let pending = [];
  for (const line of text.split('\n')) {
    const c = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+<\s+(.*)$/.exec(line);
    if (c) {
      pending.push({ n: count(c[1]), fn: name(c[2]) });
      continue;
    }
    const f = /^\s*([\d,]+) \(\s*([\d.]+)%\)\s+\*\s+(.*)$/.exec(line);
    if (f) {
      blocks.push({ n: count(f[1]), pct: f[2], fn: name(f[3]), callers: pending });
      pending = [];
    } else if (line.trim() === '') pending = [];
  }
  blocks.sort((a, b) => b.n - a.n);
  for (const b of blocks.filter((x) => x.pct !== '100.0').slice(0, top)) {
    process.stdout.write(`${show(b.n)} ${b.pct.padStart(5)}%  ${b.fn.slice(0, 150)}\n`);
    for (const c of b.callers.sort((x, y) => y.n - x.n).slice(0, 6))
      process.stdout.write(`        <- ${show(c.n)}  ${c.fn.slice(0, 140)}\n`);
  }
}
