#!/usr/bin/env node
// Lists that cost what they return, and bytes per stored event (issue 17), on the memory store and
// on Redis. For each store: starts the built kevents-apiserver (and a redis-server), measures the
// baselines on a nearly empty store, fills --events (default 200,000) events into namespace
// `bench`, and measures again:
//   - an empty and a 10-event namespace listed (p50 of sequential GETs), idle and right after a
//     create; baseline: the same lists before the fill;
//   - pages of limit=500 through `bench` (first page, p50, p99); baseline: a 500-event namespace
//     listed whole before the fill (the same answer);
//   - a mixed load (autocannon, 16 connections): creates only, against 85% creates and 15% lists
//     of the 10-event namespace, alternated for --rounds rounds; the median ratio of throughput;
//   - bytes per stored event: the server's RSS and heap before and after the fill, and again after
//     10 s without requests, and the growth of the second half of the fill alone (and Redis's
//     `INFO memory` and `MEMORY USAGE` of its keys).
// Usage: npm run build && node tools/bench/lists.js [--store=memory|redis] [--events=200000]
//        [--rounds=3] [--seconds=3] [--baseline=<git ref>]
// --baseline also runs everything on that ref's build (prepared as compare.js does), first.
import './lib/help.js';
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEvent } from './lib/bench-event.js';
import { prepareBaseline } from './lib/baseline.js';
import { freePort, track, waitReady } from './lib/processes.js';
import { RawHttpPool } from './lib/raw-http.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = join(root, 'apps/apiserver/dist/main.js');
// The storage-redis test helper by name (the workspace resolves it to its build output, which must exist).
if (!existsSync(main) || !existsSync(fileURLToPath(import.meta.resolve('@kevents/storage-redis/testing')))) {
  console.error('build first: npm run build');
  process.exit(1);
}
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const events = Number(arg('events', 200_000));
const rounds = Number(arg('rounds', 3));
const seconds = Number(arg('seconds', 3));
const stores = arg('store', 'memory,redis').split(',');
const eventsPath = (ns) => `/apis/events.k8s.io/v1/namespaces/${ns}/events`;
const log = (s) => process.stderr.write(`${s}\n`);

async function startApiserver(main, storage) {
  const port = await freePort();
  const p = track(
    spawn(
      process.execPath,
      [main, `--insecure-port=${port}`, '--secure-port=0', `--storage=${storage}`, '--log-level=warn'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/readyz`);
  return { url, port, pid: p.pid, stop: () => p.kill('SIGTERM') };
}

/** RSS of a process from /proc, in bytes. */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** The server's V8 heap in use, from its /metrics (prom-client's default metrics). */
async function heapOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  return m ? Number(m[1]) : NaN;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** One GET, read to the end; resolves with its time in ms and its JSON (unless discard). */
function get(base, path, discard = false) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    request(`${base}${path}`, { agent }, (res) => {
      const chunks = [];
      res.on('data', (d) => discard || chunks.push(d));
      res.on('end', () => {
        const ms = performance.now() - started;
        if (res.statusCode !== 200) return reject(new Error(`GET ${path}: ${res.statusCode}`));
        resolve({ ms, body: discard ? undefined : JSON.parse(Buffer.concat(chunks).toString()) });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
};
const median = (xs) => pct(xs, 50);
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

/** Creates `n` events in `ns` with `conns` requests in flight. */
async function fill(pool, ns, n, conns = 32) {
  const body = JSON.parse(benchEvent);
  body.metadata.namespace = ns;
  body.regarding.namespace = ns;
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const r = await pool.request('POST', eventsPath(ns), body);
      if (r.status !== 201) throw new Error(`create: ${r.status} ${r.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: conns }, worker));
}

/** p50 of `n` sequential lists of `path`; with `pool`, each right after a create into `bench`. */
async function listLatency(base, path, n, pool) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    if (pool) await fill(pool, 'bench', 1, 1);
    ms.push((await get(base, path, true)).ms);
  }
  return { p50: median(ms), p99: pct(ms, 99) };
}

/** Walks `ns` in pages of `limit`; times per page. */
async function pages(base, ns, limit, maxPages = Infinity) {
  const ms = [];
  let cont = '';
  do {
    const r = await get(base, `${eventsPath(ns)}?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
    ms.push(r.ms);
    cont = r.body.metadata.continue ?? '';
  } while (cont && ms.length < maxPages);
  return { first: ms[0], p50: median(ms), p99: pct(ms, 99), pages: ms.length };
}

/** One autocannon load of `seconds`: creates only, or with a list of `small` every ~7th request. */
async function mixed(base, withLists) {
  const create = {
    method: 'POST',
    path: eventsPath('bench'),
    body: benchEvent,
    headers: { 'content-type': 'application/json' },
  };
  const list = { method: 'GET', path: eventsPath('small') };
  // 20 requests per cycle: 17 creates and 3 lists (15%), the lists spread out.
  const cycle = Array.from({ length: 20 }, (_, i) => (withLists && i % 7 === 3 ? list : create));
  const r = await autocannon({ url: base, connections: 16, duration: seconds, requests: cycle });
  return { rps: r.requests.average, bad: r.non2xx + r.errors + r.timeouts };
}

function redisInfoUsed(port) {
  const out = spawnSync('redis-cli', ['-p', String(port), 'info', 'memory'], { encoding: 'utf8' }).stdout;
  return Number(/used_memory:(\d+)/.exec(out)[1]);
}
function redisMemoryUsage(port, key) {
  const out = spawnSync('redis-cli', ['-p', String(port), 'memory', 'usage', key, 'samples', '0'], {
    encoding: 'utf8',
  });
  return Number(out.stdout.trim()) || 0;
}

async function run(storeName, build) {
  log(`\n== ${storeName} store, ${build.name} ==`);
  let redis;
  let storage = 'memory';
  if (storeName === 'redis') {
    const { RedisServer } = await import('@kevents/storage-redis/testing');
    redis = await RedisServer.start();
    storage = `${redis.url}?prefix=bench`;
  }
  const api = await startApiserver(build.main, storage);
  const pool = new RawHttpPool('127.0.0.1', api.port, 32);
  const out = { store: `${storeName}, ${build.name}` };
  try {
    // Warm-up: creates and lists until the hot paths are compiled.
    await fill(pool, 'warm', 5_000);
    await fill(pool, 'small', 10);
    await fill(pool, 'page', 500);
    for (let i = 0; i < 100; i++) await get(api.url, eventsPath('page'), true);
    await listLatency(api.url, eventsPath('small'), 200, pool);
    await new Promise((r) => setTimeout(r, 500));
    const rss0 = rssOf(api.pid);
    const heap0 = await heapOf(api.url);
    const redis0 = redis ? redisInfoUsed(redis.port) : 0;
    const redisRss0 = redis
      ? rssOf(
          Number(
            spawnSync('redis-cli', ['-p', String(redis.port), 'info', 'server'], { encoding: 'utf8' }).stdout.match(
              /process_id:(\d+)/,
            )[1],
          ),
        )
      : 0;
    out.base = {
      emptyIdle: await listLatency(api.url, eventsPath('empty'), 200),
      smallIdle: await listLatency(api.url, eventsPath('small'), 200),
      emptyAfterWrite: await listLatency(api.url, eventsPath('empty'), 200, pool),
      smallAfterWrite: await listLatency(api.url, eventsPath('small'), 200, pool),
      page500: await listLatency(api.url, eventsPath('page'), 50),
    };
    log(`baselines (~6,000 events): ${JSON.stringify(out.base)}`);
    const t0 = performance.now();
    // In two halves: the second half's growth is the marginal cost of an event, without the fixed
    // costs the first heavy load brings (the young generation growing to its full size, JIT code).
    const half = Math.floor(events / 2);
    await fill(pool, 'bench', half);
    await new Promise((r) => setTimeout(r, 2_000));
    const rssHalf = rssOf(api.pid);
    const heapHalf = await heapOf(api.url);
    await fill(pool, 'bench', events - half);
    out.fillRate = events / ((performance.now() - t0 - 2_000) / 1000);
    log(`filled ${events} events at ${out.fillRate.toFixed(0)} creates/s`);
    await new Promise((r) => setTimeout(r, 2_000));
    out.bytesPerEvent = {
      rss: (rssOf(api.pid) - rss0) / events,
      heap: ((await heapOf(api.url)) - heap0) / events,
    };
    out.bytesPerEvent.rssSecondHalf = (rssOf(api.pid) - rssHalf) / (events - half);
    out.bytesPerEvent.heapSecondHalf = ((await heapOf(api.url)) - heapHalf) / (events - half);
    // The same after 10 s without requests, once V8's memory reducer may have returned pages.
    await new Promise((r) => setTimeout(r, 10_000));
    out.bytesPerEvent.rssAfterIdle = (rssOf(api.pid) - rss0) / events;
    out.bytesPerEvent.heapAfterIdle = ((await heapOf(api.url)) - heap0) / events;
    if (redis) {
      const pid = Number(
        spawnSync('redis-cli', ['-p', String(redis.port), 'info', 'server'], { encoding: 'utf8' }).stdout.match(
          /process_id:(\d+)/,
        )[1],
      );
      const keys = ['{bench}:o:events', '{bench}:i:events', '{bench}:changes'];
      out.bytesPerEvent.redisUsedMemory = (redisInfoUsed(redis.port) - redis0) / events;
      out.bytesPerEvent.redisRss = (rssOf(pid) - redisRss0) / events;
      out.bytesPerEvent.redisKeys = Object.fromEntries(keys.map((k) => [k, redisMemoryUsage(redis.port, k) / events]));
    }
    log(`bytes per event: ${JSON.stringify(out.bytesPerEvent)}`);
    out.big = {
      emptyIdle: await listLatency(api.url, eventsPath('empty'), 200),
      smallIdle: await listLatency(api.url, eventsPath('small'), 200),
      emptyAfterWrite: await listLatency(api.url, eventsPath('empty'), 200, pool),
      smallAfterWrite: await listLatency(api.url, eventsPath('small'), 200, pool),
    };
    out.paging = await pages(api.url, 'bench', 500);
    log(`at ${events}: ${JSON.stringify(out.big)}; pages of 500: ${JSON.stringify(out.paging)}`);
    out.mixed = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? [false, true] : [true, false];
      const res = {};
      for (const withLists of order) res[withLists ? 'lists' : 'creates'] = await mixed(api.url, withLists);
      res.ratio = res.lists.rps / res.creates.rps;
      out.mixed.push(res);
      log(
        `mixed round ${r + 1}: creates only ${res.creates.rps.toFixed(0)} req/s, with 15% lists ${res.lists.rps.toFixed(0)} req/s (${(res.ratio * 100).toFixed(0)}%)`,
      );
    }
  } finally {
    pool.close();
    api.stop();
    await redis?.stop();
  }
  return out;
}

const started = Date.now();
const load0 = loadavg()[0];
const ref = arg('baseline', undefined);
const builds = [{ name: 'this build', main }];
if (ref !== undefined) builds.unshift({ name: ref, main: prepareBaseline(ref, { root }).main });
const results = [];
for (const s of stores) for (const b of builds) results.push(await run(s, b));
agent.destroy();

console.log(
  `\nLists and memory, ${events.toLocaleString('en')} events in one namespace (ms are p50 of sequential requests)\n`,
);
console.log('| measure | store | baseline (same run) | at ' + events.toLocaleString('en') + ' events | ratio |');
console.log('|---|---|---|---|---|');
for (const r of results) {
  const row = (name, b, v) => console.log(`| ${name} | ${r.store} | ${f2(b)} ms | ${f2(v)} ms | ${f1(v / b)}× |`);
  row('list an empty namespace', r.base.emptyIdle.p50, r.big.emptyIdle.p50);
  row('list a 10-event namespace', r.base.smallIdle.p50, r.big.smallIdle.p50);
  row('list an empty namespace right after a create', r.base.emptyAfterWrite.p50, r.big.emptyAfterWrite.p50);
  row('list a 10-event namespace right after a create', r.base.smallAfterWrite.p50, r.big.smallAfterWrite.p50);
  row(
    `a page of 500 (baseline: a 500-event namespace whole), p50; p99 ${f1(r.paging.p99)} ms, first page ${f1(r.paging.first)} ms, ${r.paging.pages} pages`,
    r.base.page500.p50,
    r.paging.p50,
  );
  const ratios = r.mixed.map((m) => m.ratio);
  console.log(
    `| mixed load: 15% lists / creates only, median of ${ratios.length} alternated rounds (${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')}) | ${r.store} | ${median(r.mixed.map((m) => m.creates.rps)).toFixed(0)} req/s | ${median(r.mixed.map((m) => m.lists.rps)).toFixed(0)} req/s | ${(median(ratios) * 100).toFixed(0)}% |`,
  );
}
console.log('\n| bytes per stored event | store | value |\n|---|---|---|');
for (const r of results) {
  for (const [k, v] of Object.entries(r.bytesPerEvent)) {
    if (typeof v === 'number') console.log(`| ${k} | ${r.store} | ${v.toFixed(0)} |`);
    else
      for (const [kk, vv] of Object.entries(v)) console.log(`| MEMORY USAGE ${kk} | ${r.store} | ${vv.toFixed(0)} |`);
  }
}
console.log(
  `\ntook ${((Date.now() - started) / 1000).toFixed(0)} s; load average ${load0.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after, on ${(await import('node:os')).cpus().length} cores`,
);
