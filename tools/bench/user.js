#!/usr/bin/env node
// Performance as a user measures it (issue 36): from this separate client process, nothing pinned.
//   1. creates: kevents on Redis and on the memory store against the fastify echo (memory.js's
//      rounds, unpinned: echo, naive server and kevents alternated; the median ratio per store);
//   2. memory: a fresh kevents-apiserver (--storage=memory, as shipped: the 32 MiB semi-spaces it
//      restarts itself with unless --server-node-options names a size) filled with
//      --events distinct Events (797 bytes of JSON) over --namespaces namespaces by a node:http
//      client (keep-alive Agent, --concurrency requests in flight); RSS from /proc/<pid>/status
//      (VmRSS) before the fill and right after it, after 3 s and after 10 s without requests (no
//      forced GC), per event; the V8 heap used and total (and per space) from the server's
//      /metrics; also the growth after the first 5,000 events alone (lists.js's baseline);
//   3. pages: all pages of GET /apis/events.k8s.io/v1/events?limit=500 (all namespaces) on one
//      keep-alive connection, timed from the request to the last body byte, walked twice, each
//      time by a client process of its own (lib/page-walker.js) that collects its own garbage
//      between pages, outside the timed windows (in this process, its collections had landed
//      in the windows: p99 12-15 ms against 6-10); the server's CPU per page from /proc/<pid>/stat.
// Targets: Redis creates >= 0.40 of the echo, memory store >= 0.50; <= 1,000 B of RSS per event
// after the 3 s pause; a page of 500 p50 <= 5 ms, p99 <= 12 ms.
// Usage: npm run build && node tools/bench/user.js [--parts=creates,store] [--events=200000]
//        [--namespaces=50] [--concurrency=32] [--limit=500] [--store=memory[,redis]] [--shape=user|bench]
//        [--server-node-options='--max-semi-space-size=16'] [--server-node-args='--trace-gc'] [--walk-namespace=NS]
//        [--seconds=10] [--rounds=3] [--warmup=5]
// --store picks the stores of parts 2 and 3 (part 1 always measures both); --shape=bench posts
// lib/bench-event.js (489 bytes, generateName) instead; --server-node-options is NODE_OPTIONS for
// the part-2 server only (experiments, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'; the JSON line
// gives each walk's CLOCK_MONOTONIC window, the profile's clock); --server-node-args puts Node flags
// on the part-2 server's command line, for those NODE_OPTIONS refuses, and passes the server's stdout
// through (`--trace-gc` prints there: with `>log 2>&1` a walk's lines come between the `memory:` line,
// or the previous walk's, and its own `walk N:` line); --walk-namespace walks one
// namespace's pages instead of all namespaces'.
import './lib/help.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { apiserverMain, median, numberArg, stringArg } from './lib/args.js';
import { benchEvent } from './lib/bench-event.js';
import { cpuSeconds as cpuOf, freePort, startNode, waitReady } from './lib/processes.js';
import { startRedisServer } from './lib/redis-server.js';
import { runMemoryBench } from './memory.js';

const walker = fileURLToPath(new URL('./lib/page-walker.js', import.meta.url));

const events = numberArg('events', 200_000);
const namespaces = numberArg('namespaces', 50);
const concurrency = numberArg('concurrency', 32);
const limit = numberArg('limit', 500);
const parts = stringArg('parts', 'creates,store').split(',');
const stores = stringArg('store', 'memory').split(',');
const shape = stringArg('shape', 'user');
const walkNamespace = stringArg('walk-namespace', '');
const serverNodeOptions = stringArg('server-node-options', '');
const serverNodeArgs = stringArg('server-node-args', '').split(' ').filter(Boolean);
// RSS is also read after the first this many events: the growth from there is what lists.js
// reports (its baseline follows a 5,000-event warm-up), without the young generation's first growth.
const warmEvents = 5_000;
const log = (s) => process.stderr.write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const eventsPath = (ns) => (ns ? `/apis/events.k8s.io/v1/namespaces/${ns}/events` : '/apis/events.k8s.io/v1/events');

const hex = (n, w) => (n >>> 0).toString(16).padStart(w, '0').slice(-w);
const uid = (i, k) => `${hex(k, 8)}-${hex(i >>> 16, 4)}-4${hex(i, 3)}-8${hex(i >>> 12, 3)}-${hex(i * 2654435761, 12)}`;

/**
 * The `i`th Event a user's kubelet might write: a distinct name, namespace (`ns-00` …), pod and
 * UIDs; 797 bytes of JSON for any `i` below 10^7. With `--shape=bench`, lib/bench-event.js in
 * namespace `ns-…` with a distinct pod name and UID (a generated name).
 */
export function userEvent(i, nsCount = namespaces) {
  const ns = `ns-${String(i % nsCount).padStart(2, '0')}`;
  const pod = `web-${String(i).padStart(7, '0')}`;
  if (shape === 'bench') {
    const e = JSON.parse(benchEvent);
    e.metadata.namespace = e.regarding.namespace = ns;
    e.regarding.name = pod;
    e.regarding.uid = uid(i, 0x0b7a3f4e);
    return e;
  }
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${pod}.${hex(i * 40503, 8)}${hex(i, 8)}`, namespace: ns },
    eventTime: '2026-01-02T03:04:05.123456Z',
    reportingController: 'kubelet',
    reportingInstance: 'node-17.cluster.example.internal',
    action: 'Pulling',
    reason: 'Pulled',
    type: 'Normal',
    note: 'Successfully pulled image "registry.example.com/platform-team/web-frontend-app:v1.27.3-r2-amd64" in 1.234s (1.234s including waiting). Image size: 52428800 bytes.',
    regarding: {
      kind: 'Pod',
      namespace: ns,
      name: pod,
      uid: uid(i, 0x0b7a3f4e),
      apiVersion: 'v1',
      resourceVersion: '4711',
      fieldPath: 'spec.containers{web}',
    },
    related: { kind: 'Node', name: 'node-17.cluster.example.internal', uid: uid(i % 17, 0x5c1d2e3f), apiVersion: 'v1' },
  };
}

/** VmRSS of a process from /proc, in bytes. */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** The server's V8 heap used and total from its /metrics (prom-client's default metrics); NaN when absent. */
async function heapOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const num = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  const spaces = {};
  for (const [, kind, space, v] of text.matchAll(/^nodejs_heap_space_size_(used|total)_bytes\{space="(\w+)"\} (\S+)/gm))
    (spaces[space] ??= {})[kind] = Math.round(Number(v) / 2 ** 20);
  return { used: num('nodejs_heap_size_used_bytes'), total: num('nodejs_heap_size_total_bytes'), spaces };
}

/** One request on `agent`, read to the last byte; resolves to { status, ms, text }. */
export function send(agent, port, method, path, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode, ms: performance.now() - started, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Posts events `from` … `to`-1 with `concurrency` requests in flight over a keep-alive Agent. */
async function fill(port, from, to) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = from;
  const worker = async () => {
    while (next < to) {
      const e = userEvent(next++);
      const r = await send(agent, port, 'POST', eventsPath(e.metadata.namespace), JSON.stringify(e));
      if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
};

/**
 * Walks every page of all namespaces' events on one keep-alive connection, from a client process
 * of its own (lib/page-walker.js: a small heap, its garbage collected between pages, outside the
 * timed windows, so that a page's time is the server's and the loopback's).
 */
function walk(port) {
  const args = ['--expose-gc', walker, `--port=${port}`, `--path=${eventsPath(walkNamespace)}`, `--limit=${limit}`];
  const r = JSON.parse(execFileSync(process.execPath, [...args, '--collect-between-pages'], { encoding: 'utf8' }));
  return {
    monotonicUs: r.monotonicUs,
    pages: r.ms.length,
    items: r.items,
    kbPerPage: r.bytes / 1024 / r.ms.length,
    first: r.ms[0],
    p50: pct(r.ms, 50),
    p99: pct(r.ms, 99),
    max: Math.max(...r.ms),
    walkerGcMsInWindows: r.ownGcMsInWindows,
  };
}

/** Parts 2 and 3 on one fresh server. */
async function measureStore(storeName) {
  log(`\n== ${storeName} store: ${events} events over ${namespaces} namespaces ==`);
  const redis = storeName === 'redis' ? await startRedisServer() : undefined;
  const port = await freePort();
  const storage = redis ? `${redis.url}?prefix=user` : 'memory';
  const env = serverNodeOptions ? { NODE_OPTIONS: serverNodeOptions } : {};
  const server = startNode(
    [...serverNodeArgs, apiserverMain, `--insecure-port=${port}`, '--secure-port=0', `--storage=${storage}`],
    env,
    { stdout: serverNodeArgs.length ? 'inherit' : 'ignore' },
  );
  const pid = server.child.pid;
  const url = `http://127.0.0.1:${port}`;
  const out = { store: storeName, events, namespaces, shape, bodyBytes: JSON.stringify(userEvent(0)).length };
  try {
    await waitReady(`${url}/readyz`);
    await sleep(1_000);
    const before = { rss: rssOf(pid), ...(await heapOf(url)) };
    const redisRss0 = redis?.pid ? rssOf(redis.pid) : 0;
    const cpu0 = cpuOf(pid);
    const t0 = performance.now();
    const warm = Math.min(warmEvents, events);
    await fill(port, 0, warm);
    const rssWarm = rssOf(pid);
    await fill(port, warm, events);
    const fillSeconds = (performance.now() - t0) / 1000;
    out.fill = {
      seconds: fillSeconds,
      createsPerSecond: events / fillSeconds,
      cpuUs: ((cpuOf(pid) - cpu0) / events) * 1e6,
    };
    log(
      `filled at ${out.fill.createsPerSecond.toFixed(0)} creates/s, ${out.fill.cpuUs.toFixed(0)} µs of server CPU each`,
    );
    const at = async () => {
      const rss = rssOf(pid);
      const heap = await heapOf(url);
      return {
        rssMB: rss / 2 ** 20,
        rssPerEvent: (rss - before.rss) / events,
        rssPerEventAfterWarm: (rss - rssWarm) / (events - warm),
        heapUsedPerEvent: (heap.used - before.used) / events,
        heapUsedMB: heap.used / 2 ** 20,
        heapTotalMB: heap.total / 2 ** 20,
        spacesMB: heap.spaces,
      };
    };
    out.before = {
      rssMB: before.rss / 2 ** 20,
      heapUsedMB: before.used / 2 ** 20,
      heapTotalMB: before.total / 2 ** 20,
      spacesMB: before.spaces,
    };
    out.memory = { '0 s': await at() };
    await sleep(3_000);
    out.memory['3 s'] = await at();
    await sleep(7_000);
    out.memory['10 s'] = await at();
    if (redis?.pid) out.redisRssPerEvent = (rssOf(redis.pid) - redisRss0) / events;
    log(`memory: ${JSON.stringify(out.memory)}`);
    out.walks = [];
    for (let w = 0; w < 2; w++) {
      const c = cpuOf(pid);
      const r = await walk(port);
      r.cpuMsPerPage = ((cpuOf(pid) - c) * 1000) / r.pages;
      out.walks.push(r);
      log(`walk ${w + 1}: ${JSON.stringify(r)}`);
    }
    out.memory['after walks'] = await at();
  } finally {
    await server.stop();
    await redis?.stop();
  }
  return out;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const started = Date.now();
  const loads = [loadavg()[0]];
  const result = { bench: 'user', creates: {}, stores: [] };
  if (parts.includes('creates')) {
    for (const store of ['redis', 'memory']) {
      log(`\n== creates, ${store} store, unpinned ==`);
      const r = await runMemoryBench({ store, pin: false, reads: false });
      result.creates[store] = {
        ratio: median(r.rounds.map((x) => x.ratio)),
        rounds: r.rounds.map((x) => x.ratio),
        cpuUs: r.rounds.map((x) => ({
          echo: x.echoPost.cpuPerRequestUs,
          kevents: x.create.cpuPerRequestUs,
          redis: x.create.otherCpuPerRequestUs?.['redis-server'],
        })),
      };
      loads.push(loadavg()[0]);
    }
  }
  if (parts.includes('store')) {
    for (const s of stores) {
      result.stores.push(await measureStore(s));
      loads.push(loadavg()[0]);
    }
  }
  result.loadavg = loads;
  result.seconds = (Date.now() - started) / 1000;

  const f = (x, d = 0) => x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
  const mark = (ok) => (ok ? 'met' : 'NOT met');
  console.log('\nPerformance as a user measures it (unpinned, client in a separate process)\n');
  console.log('| measure | target | value | |\n|---|---|---|---|');
  for (const [store, target] of [
    ['redis', 0.4],
    ['memory', 0.5],
  ]) {
    const c = result.creates[store];
    if (!c) continue;
    const rounds = c.rounds.map((x) => f(x, 2)).join(', ');
    const cpu = c.cpuUs.map((x) => `${f(x.kevents ?? NaN)}/${f(x.echo ?? NaN)}`).join(', ');
    const redisCpu = c.cpuUs.some((x) => x.redis !== undefined)
      ? `; redis-server CPU µs per create ${c.cpuUs.map((x) => f(x.redis ?? NaN)).join(', ')}`
      : '';
    console.log(
      `| creates / echo, ${store} store, median of ${c.rounds.length} alternated rounds (${rounds}; server CPU µs per create/echo POST ${cpu}${redisCpu}) | ≥ ${f(target, 2)} | **${f(c.ratio, 2)}** | ${mark(c.ratio >= target)} |`,
    );
  }
  for (const s of result.stores) {
    const label = `${s.store} store, ${f(s.events)} events of ${s.bodyBytes} B over ${s.namespaces} namespaces`;
    for (const [when, m] of Object.entries(s.memory)) {
      const target = when === '3 s' ? '≤ 1,000 B' : '–';
      const ok = when === '3 s' ? mark(m.rssPerEvent <= 1000) : '';
      const young = m.spacesMB?.new ? `, young generation ${m.spacesMB.new.total} MiB` : '';
      console.log(
        `| RSS per event, ${when === 'after walks' ? 'after the walks' : `${when} after the fill`} (${label}); heap used ${f(m.heapUsedPerEvent)} B/event, used/total ${f(m.heapUsedMB)}/${f(m.heapTotalMB)} MiB${young}, RSS ${f(m.rssMB)} MiB; after the first ${f(warmEvents)} events ${f(m.rssPerEventAfterWarm)} B/event | ${target} | **${f(m.rssPerEvent)} B** | ${ok} |`,
      );
    }
    s.walks.forEach((w, i) => {
      const what = `page of ${limit} (${w.pages} pages of ${f(w.kbPerPage)} KiB, walk ${i + 1}${i ? ', a repeat reader' : ''}; first ${f(w.first, 1)} ms, max ${f(w.max, 1)} ms, server CPU ${f(w.cpuMsPerPage, 2)} ms/page)`;
      console.log(`| ${what}, p50 | ≤ 5 ms | **${f(w.p50, 2)} ms** | ${mark(w.p50 <= 5)} |`);
      console.log(`| ${what}, p99 | ≤ 12 ms | **${f(w.p99, 2)} ms** | ${mark(w.p99 <= 12)} |`);
    });
    if (s.redisRssPerEvent !== undefined)
      console.log(`| redis-server RSS per event, after the pauses | – | ${f(s.redisRssPerEvent)} B | |`);
    console.log(
      `| fill (${s.store}) | – | ${f(s.fill.createsPerSecond)} creates/s, ${f(s.fill.cpuUs)} µs server CPU each | |`,
    );
  }
  console.log(
    `\ntook ${f(result.seconds)} s; load average ${loads.map((x) => f(x, 1)).join(' → ')} on ${cpus().length} cores`,
  );
  console.log(JSON.stringify(result));
}
