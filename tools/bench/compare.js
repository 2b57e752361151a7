#!/usr/bin/env node
// Server CPU per create (and throughput) of this build against another git ref's build, side by side in one run.
// Usage: node tools/bench/compare.js --baseline=<git ref> [--rounds=8] [--seconds=3] [--connections=32]
//          [--slice=1] [--warmup-creates=30000] [--reads=1] [--read-rounds=3] [--read-seconds=2] [--install]
//          [--node-arg=X ...] [--baseline-node-arg=X ...] [--pairs=2] [--self] [--pin]   (after npm run build)
// --pairs=N starts N fresh pairs of servers one after the other and splits the rounds among them
// (a process can be persistently slower than another of the same build); --self runs this build
// in both slots, to see what the slots differ by when the builds do not; --pin puts the load
// generator on CPU 0 and the servers on CPU 1 (Linux; fewer CPUs for each, steadier ratios).
// --node-arg / --baseline-node-arg pass a Node flag to the current / baseline server: with
// --baseline=HEAD the two builds are the same, so the run measures the flag (e.g.
// --node-arg=--max-semi-space-size=32).
// The baseline is built once in a git worktree under node_modules/.cache/kevents-bench/<sha> and reused.
// Both servers run at once (only one is loaded at a time); each round alternates between them in
// slices of 1 s (AB BA AB ...), so drift of the machine hits both. It measures and reports; it always exits 0.
import './lib/help.js';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median } from './lib/args.js';
import { prepareBaseline } from './lib/baseline.js';
import { cpuSeconds, freePort, pinToCpu, startNode, waitReady } from './lib/processes.js';
import { benchEvent as event } from './lib/bench-event.js';

const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const arg = (name, def) => Number(flag(name) ?? def);
// --self runs this build in both slots: what two processes of one build differ by (it should be ~1.000).
const self = process.argv.includes('--self');
const ref = self ? 'HEAD' : (flag('baseline') ?? flag('compare')); // --compare= is how tools/bench/run.js names it
const rounds = arg('rounds', 8);
// Fresh server processes per pair: one process can run a build 20% slower than another for its
// whole life (measured: the same build against itself, 0.761 in one pair and 0.978 in the next).
const pairs = Math.max(1, arg('pairs', 2));
const perPair = Math.ceil(rounds / pairs);
// --pin (Linux, taskset): this process (the load generator) on CPU 0, every server thread on CPU 1,
// so that the scheduler cannot put one server beside the load generator for a whole pair.
const pin = process.argv.includes('--pin');
const seconds = arg('seconds', 3);
const connections = arg('connections', 32);
const warmupCreates = arg('warmup-creates', 30000); // kevents' hot paths take ~20,000 requests to be compiled
const reads = arg('reads', 1) !== 0;
const readRounds = arg('read-rounds', 3);
const readSeconds = arg('read-seconds', 2);
const slice = arg('slice', 1); // seconds per alternation within a round
const forceInstall = process.argv.includes('--install');
const nodeArgs = (name) => process.argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const currentMain = `${root}/apps/apiserver/dist/main.js`;

const json = { 'content-type': 'application/json' };

const sorted = (xs) => [...xs].sort((x, y) => x - y);

/**
 * One bounded autocannon load against one server, with the server's CPU time (user + system, all its
 * threads, from /proc) over exactly that load.
 */
async function load(server, o) {
  const before = cpuSeconds(server.pid);
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    body: o.body,
    headers: o.headers,
    ...(o.amount ? { amount: o.amount } : { duration: o.seconds }),
    connections: o.connections ?? connections,
    pipelining: 1,
  });
  const after = cpuSeconds(server.pid);
  const cpu = before !== undefined && after !== undefined ? after - before : NaN;
  const failed = result.non2xx + result.errors + result.timeouts;
  return { ok: result['2xx'], failed, seconds: result.duration, cpu, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Sums of slices: 2xx answers per second and server CPU per 2xx answer. */
function summarise(server, title, slices) {
  const sum = (k) => slices.reduce((a, x) => a + x[k], 0);
  const ok = sum('ok');
  const failed = sum('failed');
  const out = {
    ok,
    failed,
    rps: ok / sum('seconds'),
    cpuUs: ok > 0 ? (sum('cpu') / ok) * 1e6 : NaN,
    p50: median(slices.map((x) => x.p50)),
    p99: Math.max(...slices.map((x) => x.p99)),
  };
  process.stderr.write(
    `  ${server.name.padEnd(8)} ${title}: ${Math.round(out.rps)} ok/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ` +
      `server CPU ${out.cpuUs.toFixed(1)} µs per ok answer${failed ? `, ${failed} failed` : ''}\n`,
  );
  return out;
}

/** A load on one server (e.g. a warm-up), summarised. */
const measure = async (server, title, o) => summarise(server, title, [await load(server, o)]);

/** AB on even counts, BA on odd ones. */
const orderOf = (r, a, b) => (r % 2 === 0 ? [a, b] : [b, a]);

/**
 * One round: `seconds` of load on each server, cut into slices of `slice` seconds that alternate
 * between the two (A B B A A B ..., starting with the other server every other round), so a busy spell
 * of a few seconds on this shared machine falls on both. Returns each server's sums.
 */
async function pairedRound(r, title, a, b, opts, roundSeconds, c) {
  const n = Math.max(1, Math.round(roundSeconds / slice));
  const slices = { [a.name]: [], [b.name]: [] };
  for (let i = 0; i < n; i++) {
    for (const s of orderOf(r + i, a, b))
      slices[s.name].push(await load(s, { ...opts(s), seconds: roundSeconds / n, connections: c }));
  }
  return { [a.name]: summarise(a, title, slices[a.name]), [b.name]: summarise(b, title, slices[b.name]) };
}

const createsInto = (server, namespace) => ({
  url: `${server.base}/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
  method: 'POST',
  body: event.replace('"namespace":"bench"', `"namespace":"${namespace}"`),
  headers: json,
});

async function startServer(name, main, flags = []) {
  const port = await freePort();
  const p = startNode([
    ...flags,
    main,
    `--insecure-port=${port}`,
    '--secure-port=0',
    '--log-level=warn',
    '--watch-history=10000',
  ]);
  const base = `http://127.0.0.1:${port}`;
  if (pin) pinToCpu(1, p.child.pid);
  return { name, main, pid: p.child.pid, base, stop: p.stop, ready: () => waitReady(`${base}/readyz`) };
}

async function compare() {
  if (!ref) throw new Error('usage: node tools/bench/compare.js --baseline=<git ref> [--rounds=N] [--seconds=S]');
  if (!existsSync(currentMain)) throw new Error(`${currentMain} is missing: run npm run build first`);
  const t0 = Date.now();
  const git = (...a) => spawnSync('git', a, { cwd: root, encoding: 'utf8' }).stdout.trim();
  const head = git('rev-parse', 'HEAD');
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const baseline = self
    ? { main: currentMain, sha: head, deps: 'of this build' }
    : prepareBaseline(ref, { root, forceInstall });
  const info = {
    ref,
    nodeArgs: nodeArgs('node-arg'),
    baselineNodeArgs: nodeArgs('baseline-node-arg'),
    baselineSha: baseline.sha,
    baselineDeps: baseline.deps,
    head,
    dirty,
    prepareSeconds: (Date.now() - t0) / 1000,
    loadBefore: loadavg()[0],
  };
  process.stderr.write(
    `current: ${head.slice(0, 12)}${dirty ? ' + uncommitted changes' : ''} (${root})${info.nodeArgs.length ? ` with ${info.nodeArgs.join(' ')}` : ''}; baseline: ${ref} = ${baseline.sha.slice(0, 12)}${info.baselineNodeArgs.length ? ` with ${info.baselineNodeArgs.join(' ')}` : ''}\n`,
  );

  const results = { info, creates: [], gets: [], lists: [], pairMedians: [] };
  for (let p = 0; p < pairs; p++) {
    const B = await startServer('baseline', baseline.main, nodeArgs('baseline-node-arg'));
    const C = await startServer('current', currentMain, nodeArgs('node-arg'));
    try {
      await Promise.all([B.ready(), C.ready()]);
      process.stderr.write(`== server pair ${p + 1} of ${pairs} (pids ${B.pid}, ${C.pid})\n`);
      if (warmupCreates > 0) {
        process.stderr.write(`== warm-up: ${n0(warmupCreates)} creates each\n`);
        for (const s of [B, C]) await measure(s, 'warm-up', { ...createsInto(s, 'warmup'), amount: warmupCreates });
      }
      const mine = [];
      for (let r = 0; r < perPair; r++) {
        process.stderr.write(`== creates, pair ${p + 1}, round ${r + 1} of ${perPair}\n`);
        // A fresh namespace per round: both servers start each round from the same namespace size.
        mine.push(await pairedRound(r, 'create', B, C, (s) => createsInto(s, `bench-${r + 1}`), seconds));
      }
      results.creates.push(...mine);
      results.pairMedians.push(median(mine.map((x) => x.current.cpuUs / x.baseline.cpuUs)));
      if (reads && p === pairs - 1) await measureReads(B, C, results);
    } finally {
      await Promise.all([B.stop(), C.stop()]);
    }
  }
  info.totalSeconds = (Date.now() - t0) / 1000;
  info.loadAfter = loadavg()[0];
  return results;
}

/** The get and list rounds on one server pair: 1,000 events into `bench-list` of each, warm-ups, then alternated rounds. */
async function measureReads(B, C, results) {
  process.stderr.write('== reads: 1,000 events into namespace bench-list of each server, then warm-up\n');
  const paths = {};
  for (const s of [B, C]) {
    await measure(s, 'fill', { ...createsInto(s, 'bench-list'), amount: 1000, connections: 8 });
    const list = `${s.base}/apis/events.k8s.io/v1/namespaces/bench-list/events`;
    const first = await (await fetch(`${list}?limit=1`)).json();
    paths[s.name] = { get: `${list}/${first.items[0].metadata.name}`, list: `${list}?limit=500` };
    await measure(s, 'get warm-up', { url: paths[s.name].get, seconds: readSeconds });
    await measure(s, 'list warm-up', { url: paths[s.name].list, seconds: readSeconds, connections: 8 });
  }
  for (let r = 0; r < readRounds; r++) {
    process.stderr.write(`== reads, round ${r + 1} of ${readRounds}\n`);
    results.gets.push(await pairedRound(r, 'get', B, C, (s) => ({ url: paths[s.name].get }), readSeconds));
    results.lists.push(await pairedRound(r, 'list 500', B, C, (s) => ({ url: paths[s.name].list }), readSeconds, 8));
  }
}

const n0 = (x) => Math.round(x).toLocaleString('en-US');
const us = (x) => (Number.isNaN(x) ? 'n/a' : x.toFixed(1));
const ratio = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** Rows per round, then the medians (of each column; the ratios' median is of the per-round ratios). */
function table(title, rows, per = rows.length) {
  const lines = [
    `| ${title} | baseline ok/s | current ok/s | baseline CPU µs/op | current CPU µs/op | CPU current/baseline | throughput current/baseline |`,
    '|---|---|---|---|---|---|---|',
  ];
  const cpuRatios = rows.map((x) => x.current.cpuUs / x.baseline.cpuUs);
  const rpsRatios = rows.map((x) => x.current.rps / x.baseline.rps);
  rows.forEach((x, i) => {
    const first = (i % per) % 2 === 0 ? 'baseline' : 'current';
    lines.push(
      `| round ${i + 1} (${first} first) | ${n0(x.baseline.rps)} | ${n0(x.current.rps)} | ${us(x.baseline.cpuUs)} | ${us(x.current.cpuUs)} | ${ratio(cpuRatios[i])} | ${ratio(rpsRatios[i])} |`,
    );
  });
  const col = (side, k) => median(rows.map((x) => x[side][k]));
  lines.push(
    `| **median** | **${n0(col('baseline', 'rps'))}** | **${n0(col('current', 'rps'))}** | **${us(col('baseline', 'cpuUs'))}** | **${us(col('current', 'cpuUs'))}** | **${ratio(median(cpuRatios))}** | **${ratio(median(rpsRatios))}** |`,
  );
  const s = sorted(cpuRatios);
  // All rounds pooled: total server CPU over total 2xx answers, per side.
  const pooled = (side) =>
    rows.reduce((a, x) => a + x[side].cpuUs * x[side].ok, 0) / rows.reduce((a, x) => a + x[side].ok, 0);
  return {
    text: lines.join('\n'),
    cpuMedian: median(cpuRatios),
    cpuMin: s[0],
    cpuMax: s[s.length - 1],
    cpuPooled: pooled('current') / pooled('baseline'),
  };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && pin) pinToCpu(0, process.pid);
if (isMain) {
  try {
    const r = await compare();
    const { info } = r;
    console.log(
      `\ncurrent ${info.head.slice(0, 12)}${info.dirty ? ' (+ uncommitted changes)' : ''} vs baseline ${info.ref} = ${info.baselineSha.slice(0, 12)} ` +
        `(dependencies ${info.baselineDeps}); ${pairs} server pair(s), ${perPair} rounds each of ${seconds} s per server in alternating ${slice} s slices, ${connections} connections, after a warm-up of ${n0(warmupCreates)} creates each`,
    );
    const c = table('creates (POST events.k8s.io/v1)', r.creates, perPair);
    console.log(`\n${c.text}`);
    if (r.gets.length) {
      console.log(`\n${table('get one event', r.gets).text}`);
      console.log(`\n${table('list, limit=500 of 1,000 (8 conns)', r.lists).text}`);
    }
    console.log(
      `\nserver CPU per create, current / baseline: median ${ratio(c.cpuMedian)} over ${r.creates.length} rounds ` +
        `(rounds ${ratio(c.cpuMin)}–${ratio(c.cpuMax)}; all rounds pooled ${ratio(c.cpuPooled)}); ${c.cpuMedian <= 1 ? 'not higher' : `${((c.cpuMedian - 1) * 100).toFixed(1)}% higher`} than the baseline`,
    );
    if (r.pairMedians.length > 1) {
      const m = r.pairMedians;
      const spread = Math.max(...m) - Math.min(...m);
      console.log(
        `server pairs' medians: ${m.map(ratio).join(', ')}${spread > 0.05 ? ' — they disagree by more than 0.05 (one process of a pair may have run slower throughout, or the rounds were too short): add pairs or rounds before believing a small ratio' : ''}`,
      );
    }
    console.log(
      `took ${info.totalSeconds.toFixed(0)} s (of which ${info.prepareSeconds.toFixed(0)} s preparing the baseline); ` +
        `load average ${info.loadBefore.toFixed(1)} before, ${info.loadAfter.toFixed(1)} after, on ${availableParallelism()} cores`,
    );
  } catch (e) {
    console.error(`compare: ${e.message}`);
  }
  process.exitCode = 0; // it measures; it does not assert
}
