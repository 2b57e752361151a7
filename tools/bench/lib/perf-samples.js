// Reads `perf script -F comm,tid,ip,sym` output of a Node process run with --perf-basic-prof and
// charges its samples to parts, to JavaScript functions and to frames.
import { readFileSync, writeFileSync } from 'node:fs';

const kernel = /^f{6}/;
const gc = /Heap::|Scavenge|MarkCompact|Sweeper|Marking|Evacuat|ConcurrentMark|MinorMS|Heap_|GCTracer/;

/** `JS:*name /long/path/packages/x/dist/y.js:1:2` becomes `name x/y.js` (tiers and columns dropped). */
export function jsName(sym) {
  const body = sym.slice(3).replace(/^[*+~^']+/, '');
  const space = body.indexOf(' ');
  const name = space < 0 ? body : body.slice(0, space);
  const where = space < 0 ? '' : body.slice(space + 1).replace(/:\d+:\d+$/, '');
  const short = where
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(packages|apps)\/([^/]+)\/dist\//, '$2/')
    .replace(/^file:\/\//, '');
  return `${name || '(anonymous)'} ${short}`.trim();
}

const frameName = (sym) => (sym.startsWith('JS:') ? jsName(sym) : sym || '[unknown]');

function partOf(comm, frames) {
  if (comm !== 'MainThread' && comm !== 'node') return `other threads (${comm})`;
  const [top] = frames;
  if (!top) return 'unknown';
  if (kernel.test(top.ip)) return 'kernel (syscalls, page faults)';
  if (frames.some((f) => gc.test(f.sym))) return 'V8 GC on the main thread';
  if (top.sym.startsWith('JS:') || top.sym.startsWith('Builtins_')) return 'JavaScript and V8 builtins';
  return 'native (V8 runtime, node, libuv, libc)';
}

/**
 * Counts samples: `parts` (kernel, GC, JavaScript, native, other threads), `byJS` (the innermost
 * JavaScript function on each main-thread stack, or the part when there is none) and `self`.
 */
export function attribute(script) {
  const parts = new Map();
  const byJS = new Map();
  const self = new Map();
  const add = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
  let samples = 0;
  for (const block of script.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length < 2) continue;
    const comm = lines[0].trim().split(/\s+/)[0];
    const frames = lines.slice(1).map((l) => {
      const m = /^\s*([0-9a-f]+)\s?(.*)$/.exec(l);
      return { ip: m ? m[1].padStart(16, '0') : '', sym: m ? m[2].trim() : '' };
    });
    samples++;
    const part = partOf(comm, frames);
    add(parts, part);
    add(self, frameName(frames[0].sym));
    const js = part.startsWith('other threads') ? undefined : frames.find((f) => f.sym.startsWith('JS:'));
    add(byJS, js ? jsName(js.sym) : `(${part})`);
  }
  return { samples, parts, byJS, self };
}

/** A markdown table of the `top` largest counts, as shares and as µs per request. */
export function formatTable(title, counts, samples, us, top) {
  const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, top);
  const pct = (n) => `${((n / samples) * 100).toFixed(1)}%`;
  return [
    `### ${title}`,
    '',
    '| share | µs/request | where |',
    '|---|---|---|',
    ...rows.map(([k, n]) => `| ${pct(n)} | ${us(n)} | ${k.replaceAll('|', '\\|')} |`),
    '',
    '',
  ].join('\n');
}

/**
 * Rewrites V8's perf map (`/tmp/perf-<pid>.map`, written by --perf-basic-prof) so that no two
 * entries overlap, keeping the later one. V8 appends an entry whenever it places code and never
 * removes one, so once collected code's addresses are reused the map holds two names for them,
 * and `perf script` may pick the dead one: a session-14 profile charged 13% of a list's samples
 * to `processHeader`, whose collected code's addresses held `unpackBody` at the time. Code placed
 * later is what ran while a benchmark records after its warm-up. Returns how many entries it
 * dropped.
 */
export function dedupePerfMap(file) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const kept = []; // accepted [start, end, line], sorted by start
  let dropped = 0;
  const firstEndingAfter = (start) => {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (kept[mid][1] <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) /.exec(lines[i]);
    if (!m) continue;
    const start = BigInt(`0x${m[1]}`);
    const end = start + BigInt(`0x${m[2]}`);
    const at = firstEndingAfter(start);
    if (at < kept.length && kept[at][0] < end) {
      dropped++;
      continue;
    }
    kept.splice(at, 0, [start, end, lines[i]]);
  }
  writeFileSync(file, `${kept.map((k) => k[2]).join('\n')}\n`);
  return dropped;
}
