#!/usr/bin/env node
// Instructions per request of this build against another git ref's, counted by valgrind's
// callgrind: a count that does not move with the VM's speed or its neighbours, for changes too
// small for the timed benchmarks to resolve on a shared machine (two identical processes differ by
// up to 1.3x there; docs/benchmarks.md, "Noise between processes"). Each server (the apiserver on
// the memory store, plain HTTP, 32 MiB semi-spaces as shipped) runs under callgrind; a node:http
// client with --connections keep-alive connections sends --warmup requests, the counters are
// zeroed (`callgrind_control -z`), --requests more are sent and the counters dumped
// (`callgrind_control -d`). Reported per request: the main thread's instructions (the event loop,
// where a request's JavaScript runs: ±1% between identical runs) and all threads' (with V8's
// compilers, GC helpers and concurrent marking, which move more). The baseline and current servers
// of a run are counted side by side, two processes at a time (the counts do not depend on what
// else runs; the wall time does). Verbs: `create` (POST of lib/bench-event.js under a fresh name
// each), `get` (GET of one stored Event), `page` (GET of a page of 500 of --page-events stored Events,
// more than the encoded-item cache keeps: each item decoded and encoded, as in a walk through a large
// store; --page-warmup pages, then --page-requests counted). Not a measure of speed: an instruction of the socket
// write's syscall, a cache miss or a page fault costs what it costs, and the kernel's own work is
// not counted at all; use it to tell whether a change adds or removes work, then measure speed
// with the timed benchmarks.
// Usage: node tools/bench/instructions.js --baseline=<git ref> [--verb=create,get,page] [--runs=2]
//        [--warmup=3000] [--requests=3000] [--connections=8] [--page-events=6000] [--page-warmup=24]
//        [--page-requests=24] [--store=memory|redis] [--self] [--keep] [--install]
//        (after npm run build; needs valgrind: Debian package valgrind). --self counts this build in
//        both slots (what identical runs differ by). --keep leaves each server's callgrind files in
//        the directory it prints, with the server's JIT code map (node's --perf-basic-prof):
//        `node tools/bench/callgrind-top.js <dir>` lists the main thread's hot spots by name.
//        --install forces npm ci in the baseline's tree. --store=redis stores in a private
//        redis-server (not counted: only the apiserver runs under callgrind), each server under a
//        key prefix of its own.
import './lib/help.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiserverMain, median, numberArg, stringArg } from './lib/args.js';
import { prepareBaseline } from './lib/baseline.js';
import { benchEvent } from './lib/bench-event.js';
import { freePort, track } from './lib/processes.js';
import { send } from './user.js';
import { startRedisServer } from './lib/redis-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ref = stringArg('baseline', '');
const self = process.argv.includes('--self');
const keep = process.argv.includes('--keep');
const verbs = stringArg('verb', 'create,get').split(',');
const store = stringArg('store', 'memory');
if (store !== 'memory' && store !== 'redis') throw new Error(`--store takes memory or redis, not ${store}`);
const runs = numberArg('runs', 2);
const warmup = numberArg('warmup', 3000);
const requests = numberArg('requests', 3000);
const connections = numberArg('connections', 8);
const log = (s) => process.stderr.write(`${s}\n`);

if (!ref && !self) {
  log('name a baseline: --baseline=<git ref> (or --self)');
  process.exit(2);
}
for (const v of verbs)
  if (v !== 'create' && v !== 'get' && v !== 'page') throw new Error(`--verb takes create, get and page, not ${v}`);
// A page is ~500 creates' worth of work: the walk is counted over fewer requests.
const pageEvents = numberArg('page-events', 6000);
const pageWarmup = numberArg('page-warmup', 24);
const pageRequests = numberArg('page-requests', 24);
if (spawnSync('valgrind', ['--version']).status !== 0) {
  log('valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(2);
}
// Started once the arguments and valgrind are known good: a refused run leaves no server behind.
const redis = store === 'redis' ? await startRedisServer() : undefined;
let prefixes = 0;

const path = '/apis/events.k8s.io/v1/namespaces/bench/events';
const template = JSON.parse(benchEvent);
const eventNamed = (name) =>
  JSON.stringify({ ...template, metadata: { ...template.metadata, generateName: undefined, name } });

/** Sends one request (user.js's client) and rejects on a status >= 300. */
async function ok(agent, port, method, target, body) {
  const r = await send(agent, port, method, target, body);
  if (r.status >= 300) throw new Error(`${method} ${target}: ${r.status} ${r.text.slice(0, 200)}`);
}

/** Runs `count` requests of `verb` with `connections` in flight (pages: one after another, walking the namespace round and round). */
async function load(agent, port, verb, count, names) {
  if (verb === 'page') {
    for (let i = 0; i < count; i++) {
      const q = `?limit=500${names.continue ? `&continue=${encodeURIComponent(names.continue)}` : ''}`;
      const r = await send(agent, port, 'GET', `${path}${q}`);
      if (r.status !== 200) throw new Error(`GET ${path}${q}: ${r.status} ${r.text.slice(0, 200)}`);
      names.continue = JSON.parse(r.text).metadata.continue ?? '';
    }
    return;
  }
  let sent = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent++ < count) {
        if (verb === 'get') await ok(agent, port, 'GET', `${path}/counted`);
        else await ok(agent, port, 'POST', path, eventNamed(`e-${names.next++}`));
      }
    }),
  );
}

/** How many requests of `verb` are counted. */
const perRun = (verb) => (verb === 'page' ? pageRequests : requests);

/** Instructions per request of the apiserver at `main` for `verb`: main thread and all threads. */
async function count(main, verb) {
  const dir = mkdtempSync(join(tmpdir(), 'kevents-instructions-'));
  const port = await freePort();
  const child = track(
    spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--separate-threads=yes',
        '--smc-check=all-non-file',
        `--callgrind-out-file=${join(dir, 'cg')}`,
        process.execPath,
        '--max-semi-space-size=32',
        ...(keep ? ['--perf-basic-prof'] : []),
        main,
        `--insecure-port=${port}`,
        '--secure-port=0',
        '--log-level=warn',
        '--watch-history=10000',
        ...(redis ? [`--storage=${redis.url}?prefix=instr${process.pid}-${prefixes++}`] : []),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    ),
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  try {
    for (let t = 0; ; t++) {
      try {
        await ok(agent, port, 'GET', '/readyz');
        break;
      } catch {
        if (t > 600 || child.exitCode !== null) throw new Error(`the server did not start:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const names = { next: 0, continue: '' };
    if (verb === 'get') await ok(agent, port, 'POST', path, eventNamed('counted'));
    if (verb === 'page') await load(agent, port, 'create', pageEvents, names);
    await load(agent, port, verb, verb === 'page' ? pageWarmup : warmup, names);
    execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' });
    await load(agent, port, verb, perRun(verb), names);
    execFileSync('callgrind_control', ['-d', 'measured', String(child.pid)], { stdio: 'ignore' });
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
  }
  // One file per thread of the dump: cg.<part>-<thread>; thread 01 is the main thread.
  let all = 0;
  let mainThread = 0;
  for (const f of readdirSync(dir)) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (!/^desc: Trigger: .*measured/m.test(text)) continue;
    const n = Number(/^summary: (\d+)/m.exec(text)?.[1] ?? 0);
    all += n;
    if (/-0*1$/.test(f)) mainThread = n;
  }
  const jitMap = join(tmpdir(), `perf-${child.pid}.map`);
  if (keep) {
    if (existsSync(jitMap)) renameSync(jitMap, join(dir, 'jit.map'));
    log(`${verb}: callgrind files of ${main} kept in ${dir} (node tools/bench/callgrind-top.js ${dir})`);
  } else rmSync(dir, { recursive: true, force: true });
  if (all === 0) throw new Error('callgrind wrote no counts for the measured requests');
  return { main: mainThread / perRun(verb), all: all / perRun(verb) };
}

const baselineMain = self
  ? apiserverMain
  : prepareBaseline(ref, { root, forceInstall: process.argv.includes('--install') }).main;
const label = self ? 'this build (--self)' : ref;
const results = {};
for (const verb of verbs) {
  results[verb] = { baseline: [], current: [] };
  for (let r = 0; r < runs; r++) {
    log(
      `${verb}, run ${r + 1} of ${runs}: ${label} and this build under callgrind (${verb === 'page' ? `${pageEvents} events, ${pageWarmup} + ${pageRequests} pages` : `${warmup} + ${requests} requests`} each) ...`,
    );
    const t0 = Date.now();
    const [b, c] = await Promise.all([count(baselineMain, verb), count(apiserverMain, verb)]);
    results[verb].baseline.push(b);
    results[verb].current.push(c);
    const k = (x) => `${(x / 1000).toFixed(1)}k`;
    log(
      `  main thread ${k(b.main)} -> ${k(c.main)} (${(c.main / b.main).toFixed(3)}), all threads ${k(b.all)} -> ${k(c.all)} (${(c.all / b.all).toFixed(3)}); ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
}

const rows = verbs.map((verb) => {
  const { baseline, current } = results[verb];
  const med = (xs, f) => median(xs.map(f));
  const ratio = (f) => median(current.map((c, i) => f(c) / f(baseline[i])));
  return `| ${verb} | ${(med(baseline, (x) => x.main) / 1000).toFixed(1)}k | ${(med(current, (x) => x.main) / 1000).toFixed(1)}k | ${ratio((x) => x.main).toFixed(3)} | ${(med(baseline, (x) => x.all) / 1000).toFixed(1)}k | ${(med(current, (x) => x.all) / 1000).toFixed(1)}k | ${ratio((x) => x.all).toFixed(3)} |`;
});
process.stdout.write(
  [
    `instructions per request (${store} store), ${label} (baseline) against this build, median of ${runs} run(s):`,
    '',
    '| verb | main thread, baseline | main thread, current | current/baseline | all threads, baseline | all threads, current | current/baseline |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
await redis?.stop();
