#!/usr/bin/env node
// Redis storage benchmark (run after `npm run build`): creates (also with the append-only file on,
// everysec and always), gets, paged lists (10,000 and
// 100,000 events, pages of 500) and watch delivery latency (100 watchers, 1,000 writes/s) against
// kevents-apiserver processes on Redis and on the in-process store, beside a bare fastify echo
// server and `redis-benchmark` SET, all on loopback in one run. Prints ratios against the targets:
// creates on Redis >= 40% of the echo baseline; watch delivery p99 <= 10 ms at 1,000 writes/s.
// Usage: node tools/bench/redis.js [--quick]
//   --only=watch              just the HTTP watch-delivery measurement, with these knobs:
//   --writer=http|store       writes through the watched apiserver (default) or by another replica's store
//   --watchers=N --rate=N --watch-seconds=N   (defaults 100, 1000, 4)
//   --idle-ms=N               pause N ms between the warm-up and the measured writes (default: none)
//   --store=memory            watch an apiserver on the in-process store instead of Redis
//   --redis-params=a=1&b=2    extra Redis URL parameters (e.g. watchBatchIntervalMs=2)
//   --node-arg=X              a Node flag for the apiserver (e.g. --cpu-prof)
//   --server-arg=X            a kevents-apiserver flag
//   --floor                   also measure lib/watch-floor-server.js (a bare node:http fan-out,
//                             no store or checks) with the same watchers and writes, alternated
//                             with kevents for --floor-rounds=N rounds (default 2): the floor
//                             any Node server has on this machine
// Environment: BENCH_WATCH_TRACE=1 prints latency per 250 ms window; BENCH_SERVER_STDOUT=1 shows the server's stdout.
import './lib/help.js';
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, track } from './lib/processes.js';
import { RawHttpPool } from './lib/raw-http.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = join(root, 'apps/apiserver/dist/main.js');
// The packages by name (the workspace resolves them to their build output, which must exist).
const built = (specifier) => existsSync(fileURLToPath(import.meta.resolve(specifier)));
if (!existsSync(main) || !['@kevents/storage-redis/testing', '@kevents/storage-redis', '@kevents/api'].every(built)) {
  console.error('build first: npm run build');
  process.exit(1);
}
const { RedisServer, freePort, waitFor } = await import('@kevents/storage-redis/testing');
const { createRedisStorage } = await import('@kevents/storage-redis');
const { eventToCore } = await import('@kevents/api');

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const nodeArgs = process.argv.filter((a) => a.startsWith('--node-arg=')).map((a) => a.slice('--node-arg='.length));
const serverArgs = process.argv
  .filter((a) => a.startsWith('--server-arg='))
  .map((a) => a.slice('--server-arg='.length));
const N_CREATE = quick ? 1_000 : 4_000;
const N_GET = quick ? 1_000 : 4_000;
const CONCURRENCY = 16;
const LIST_SIZES = quick ? [10_000] : [10_000, 100_000];
const WATCHERS = Number(process.argv.find((a) => a.startsWith('--watchers='))?.slice(11) ?? 100);
const WATCH_RATE = Number(process.argv.find((a) => a.startsWith('--rate='))?.slice(7) ?? 1_000);
const IDLE_MS = Number(process.argv.find((a) => a.startsWith('--idle-ms='))?.slice(10) ?? 0);
const WATCH_SECONDS = Number(process.argv.find((a) => a.startsWith('--watch-seconds='))?.slice(16) ?? (quick ? 2 : 4));

const log = (msg) => process.stdout.write(`[bench] ${msg}\n`);

function event(name, ns, note = `bench ${name}`) {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    eventTime: '2026-01-02T03:04:05.123456Z',
    reportingController: 'example.com/bench',
    reportingInstance: 'bench-1',
    action: 'Benchmarked',
    reason: 'Bench',
    type: 'Normal',
    note,
    regarding: { kind: 'Pod', name: 'web-0', namespace: ns },
  };
}

async function startApiserver(storage, script = main) {
  const port = await freePort();
  const p = track(
    spawn(
      process.execPath,
      [
        ...nodeArgs,
        script,
        `--insecure-port=${port}`,
        '--secure-port=0',
        `--storage=${storage}`,
        '--log-level=warn',
        ...serverArgs,
      ],
      { stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'] },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () =>
      (await fetch(`${url}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200,
    20_000,
    () => `apiserver ${storage} did not start`,
  );
  return {
    url,
    pid: p.pid,
    stop: () => {
      p.kill('SIGTERM');
    },
    /** Stops the server and waits (up to 10 s) for it to exit, so that a --cpu-prof profile gets written. */
    stopAndWait: () =>
      new Promise((resolve) => {
        if (p.exitCode !== null || p.signalCode !== null) return resolve();
        const timer = setTimeout(resolve, 10_000);
        p.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        p.kill('SIGTERM');
      }),
  };
}

async function startEcho() {
  const p = track(
    spawn(process.execPath, [join(root, 'tools/bench/redis/echo-server.js')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise((resolve) => p.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      p.kill('SIGTERM');
    },
  };
}

/** Runs `n` requests with `CONCURRENCY` workers; returns requests/s and latency percentiles. */
async function load(n, request) {
  let next = 0;
  const lat = [];
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const s = performance.now();
      const res = await request(i);
      if (res.status >= 300) throw new Error(`request ${i}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      lat.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const secs = (performance.now() - t0) / 1000;
  return { rps: n / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

function pct(xs, p) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
/** A small keep-alive HTTP client (fetch costs more CPU than the servers under test). */
function request(method, url, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers:
          data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode,
            text: async () => text,
            json: async () => JSON.parse(text),
            arrayBuffer: async () => undefined,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
const post = (url, body) => request('POST', url, body);
const get = (url) => request('GET', url);
const fmt = (r) => `${r.rps.toFixed(0)} req/s (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms)`;

async function listAll(url, ns) {
  const t0 = performance.now();
  let cont = '';
  let items = 0;
  let pages = 0;
  do {
    const res = await get(
      `${url}/apis/events.k8s.io/v1/namespaces/${ns}/events?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    const body = await res.json();
    items += body.items.length;
    pages++;
    cont = body.metadata.continue ?? '';
  } while (cont !== '');
  return { ms: performance.now() - t0, items, pages };
}

/** Seeds `n` events straight into a store (not measured). */
async function seed(storage, ns, n) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const e = event(`s-${String(i).padStart(6, '0')}`, ns);
      await storage.create(
        { resource: 'events', namespace: ns, name: e.metadata.name },
        { ...e, metadata: { ...e.metadata, uid: `uid-${ns}-${i}` } },
      );
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
}

/**
 * Posts `total` events named by `name(i)` at `rate`/s through `send`, spread evenly (a timer every
 * millisecond sends what is due, so arrivals are smooth rather than in bursts); calls
 * `onSend(name, i)` before each. The first `measureFrom` writes are warm-up: the returned rate
 * and create latencies cover the rest.
 */
async function paced(send, rate, total, name, onSend = () => {}, measureFrom = 0) {
  let i = 0;
  let tMeasure = 0;
  const inflight = [];
  const lat = [];
  const trace = [];
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
      while (i < due) {
        const k = i++;
        const n = name(k);
        onSend(n, k);
        const s0 = performance.now();
        if (k === measureFrom) tMeasure = s0;
        inflight.push(
          send(n).then(() => {
            if (k < measureFrom) return;
            lat.push(performance.now() - s0);
            trace.push(s0 - tMeasure, performance.now() - s0);
          }),
        );
      }
      if (i >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  await Promise.all(inflight);
  if (process.env.BENCH_WATCH_TRACE) {
    const windows = new Map();
    for (let k = 0; k < trace.length; k += 2) {
      const w = Math.floor(trace[k] / 250);
      (windows.get(w) ?? windows.set(w, []).get(w)).push(trace[k + 1]);
    }
    for (const [w, xs] of [...windows].sort((a, b) => a[0] - b[0]))
      log(
        `creates t=${(w / 4).toFixed(2)}s p50 ${pct(xs, 50).toFixed(1)} p99 ${pct(xs, 99).toFixed(1)} max ${pct(xs, 100).toFixed(1)}`,
      );
  }
  return {
    rate: (total - measureFrom) / ((performance.now() - tMeasure) / 1000),
    p50: pct(lat, 50),
    p99: pct(lat, 99),
  };
}

/**
 * WATCHERS HTTP watchers on `api`, held by a separate process (tools/bench/lib/watchers.js): 5
 * probes parse and time every event, the rest read and discard (the server serves full streams
 * either way); writes at WATCH_RATE/s; latency from send to receipt on the shared wall clock.
 * The server is warmed up first (20,000 creates, then 3 s of the paced load with the watchers
 * connected), because kevents' hot paths take ~20,000 requests to be fully compiled, and a cold
 * server costs several times the CPU per request of a warm one.
 */
async function watchLatency(api, redisPid, redisUrl, writer = 'http') {
  const url = api.url;
  const ns = `watch-${writer}`;
  const coll = `${url}/apis/events.k8s.io/v1/namespaces/${ns}/events`;
  const sent = {};
  const wall = () => performance.timeOrigin + performance.now();
  if (!api.warm) {
    log('watch: warming the server up (20,000 creates) ...');
    await load(20_000, (i) =>
      post(`${url}/apis/events.k8s.io/v1/namespaces/warmup/events`, event(`warm-${i}`, 'warmup')),
    );
    api.warm = true;
  }
  // Like informers: list, then watch from the list's resourceVersion (with bookmarks).
  const listed = await (await fetch(`${coll}?limit=1`)).json();
  const watchURL = `${coll}?watch=true&allowWatchBookmarks=true&resourceVersion=${listed.metadata.resourceVersion}`;
  const child = track(
    spawn(process.execPath, [join(root, 'tools/bench/lib/watchers.js'), watchURL, String(WATCHERS)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (out += d));
  await waitFor(
    () => out.includes('ready'),
    20_000,
    () => 'watchers did not connect',
  );
  log(`watch: ${WATCHERS} watchers connected; 3 s of warm-up at ${WATCH_RATE} writes/s ...`);
  const { hostname, port } = new URL(url);
  const pool = new RawHttpPool(hostname, Number(port), 32);
  const path = new URL(coll).pathname;
  const store = writer === 'store' ? await createRedisStorage({ url: redisUrl, prefix: 'bench' }) : undefined;
  let uid = 0;
  const send = store
    ? (n) =>
        store.create(
          { resource: 'events', namespace: ns, name: n },
          eventToCore({
            ...event(n, ns),
            metadata: { name: n, namespace: ns, uid: `bench-${++uid}`, creationTimestamp: '2026-01-02T03:04:05Z' },
          }),
        )
    : (n) =>
        pool.request('POST', path, event(n, ns)).then((r) => {
          if (r.status !== 201) throw new Error(`create ${n}: HTTP ${r.status} ${r.body}`);
        });
  // Warm-up and measurement are one steady stream: after an idle moment the first half second is
  // several times slower (the garbage collector shrinks the heap when a process goes idle), which
  // is not the steady state this measures.
  const warmN = WATCH_RATE * 3;
  const total = WATCH_RATE * WATCH_SECONDS;
  const pids = { server: api.pid, watchers: child.pid, writer: process.pid, redis: redisPid };
  const gc0 = await gcStats(url);
  let cpu0 = {};
  let sys0 = 0;
  let t0 = 0;
  const onSend = (n, i) => {
    if (i === warmN) {
      cpu0 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
      sys0 = systemSeconds(api.pid);
      t0 = performance.now();
    }
    if (i >= warmN) sent[n] = wall();
  };
  const name = (i) => (i < warmN ? `warm-${i}` : `w-${i - warmN}`);
  let writes;
  if (IDLE_MS > 0) {
    // The measured stream starts after an idle pause: how the first writes after a quiet spell fare.
    await paced(send, WATCH_RATE, warmN, name, onSend, warmN);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    writes = await paced(
      send,
      WATCH_RATE,
      total,
      (i) => name(i + warmN),
      (n, i) => onSend(n, i + warmN),
    );
  } else {
    writes = await paced(send, WATCH_RATE, warmN + total, name, onSend, warmN);
  }
  const achieved = writes.rate;
  log(`watch phase creates: p50 ${writes.p50.toFixed(2)} ms, p99 ${writes.p99.toFixed(2)} ms`);
  const secs = (performance.now() - t0) / 1000;
  const cpu = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, (cpuSeconds(pid) - cpu0[k]) / secs]));
  const sys = (systemSeconds(api.pid) - sys0) / secs;
  pool.close();
  await store?.close();
  const gc1 = await gcStats(url);
  log(
    `server GC during warm-up and measurement (${3 + WATCH_SECONDS} s): ${Object.keys(gc1)
      .map(
        (k) =>
          `${k} ${gc1[k].count - (gc0[k]?.count ?? 0)}× ${(1000 * (gc1[k].sum - (gc0[k]?.sum ?? 0))).toFixed(0)} ms`,
      )
      .join(', ')}`,
  );
  log(
    `watch phase CPU (cores): ${Object.entries(cpu)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(
        ', ',
      )}; server ${((1e6 * cpu.server * secs) / total).toFixed(0)} µs per write (${((100 * sys) / cpu.server).toFixed(0)}% in the kernel)`,
  );
  await new Promise((r) => setTimeout(r, 1000));
  const before = out.length;
  child.stdin.write(`${JSON.stringify(sent)}\n`);
  await waitFor(
    () => out.slice(before).includes('\n'),
    20_000,
    () => 'watchers did not report',
  );
  const stats = JSON.parse(out.slice(before).trim());
  const probes = Math.min(5, WATCHERS);
  if (stats.deliveries < total * probes) log(`probe watchers got ${stats.deliveries} of ${total * probes}`);
  return { ...stats, achieved, cpu };
}

/**
 * The store alone: WATCHERS storage watchers in this process, fed by push delivery
 * (`Watcher.consume`, as the apiserver's watch handler is), writes at WATCH_RATE/s through a
 * second store with the same smooth arrivals as the HTTP measurement.
 */
async function storeWatchLatency(url) {
  const reader = await createRedisStorage({ url, prefix: 'benchw' });
  const writer = await createRedisStorage({ url, prefix: 'benchw' });
  const sent = new Map();
  const lat = [];
  const total = WATCH_RATE * WATCH_SECONDS;
  const watchers = [];
  const loops = [];
  for (let w = 0; w < WATCHERS; w++) {
    const watcher = await reader.watch({ resource: 'events', namespace: 'sw' });
    let n = 0;
    watchers.push(watcher);
    loops.push(
      watcher.consume((batch) => {
        const now = performance.now();
        for (const ev of batch) {
          const t = sent.get(ev.object?.metadata?.name);
          if (t !== undefined) lat.push(now - t);
        }
        if ((n += batch.length) >= total) watcher.stop();
      }),
    );
  }
  const writes = await paced(
    (name) => writer.create({ resource: 'events', namespace: 'sw', name }, event(name, 'sw')),
    WATCH_RATE,
    total,
    (i) => `sw-${i}`,
    (name) => sent.set(name, performance.now()),
  );
  await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 20_000))]);
  for (const w of watchers) w.stop();
  await reader.close();
  await writer.close();
  return {
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: lat.reduce((a, b) => Math.max(a, b), 0),
    deliveries: lat.length,
    achieved: writes.rate,
  };
}

/** The server's garbage collections so far, by kind ({ minor: { count, sum } ...}), from /metrics. */
async function gcStats(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out = {};
  for (const m of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
    out[m[2]] ??= { count: 0, sum: 0 };
    out[m[2]][m[1]] = Number(m[3]);
  }
  return out;
}

/** Kernel-mode CPU seconds of a process, from /proc. */
function systemSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) / 100;
}

function redisPid(port) {
  const r = spawnSync('redis-cli', ['-p', String(port), 'info', 'server'], { encoding: 'utf8' });
  return Number(/process_id:(\d+)/.exec(r.stdout ?? '')?.[1]);
}

function redisBenchmark(port) {
  const r = spawnSync(
    'redis-benchmark',
    ['-h', '127.0.0.1', '-p', String(port), '-t', 'set', '-n', quick ? '50000' : '200000', '-c', '50', '-q'],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const m = /SET: ([\d.]+) requests per second/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : NaN;
}

const started = Date.now();
const results = {};
const redis = await RedisServer.start();
if (only === 'watch') {
  // Just the HTTP watch-delivery measurement (for iterating on the watch path).
  try {
    const extra = process.argv.find((a) => a.startsWith('--redis-params='))?.slice('--redis-params='.length);
    const storage = process.argv.includes('--store=memory')
      ? 'memory'
      : `${redis.url}?prefix=bench${extra ? `&${extra}` : ''}`;
    const label = process.argv.includes('--store=memory') ? 'memory-store' : 'redis';
    const writer = process.argv.includes('--writer=store') ? 'store' : 'http';
    const floor = process.argv.includes('--floor');
    const rounds = floor ? Number(process.argv.find((a) => a.startsWith('--floor-rounds='))?.slice(15) ?? 2) : 1;
    const rows = [];
    for (let r = 0; r < rounds; r++) {
      const api = await startApiserver(storage);
      const w = await watchLatency(api, redisPid(redis.port), redis.url, writer);
      log(
        `${label} watch (${WATCHERS} watchers, ${w.achieved.toFixed(0)} writes/s): p50 ${w.p50.toFixed(2)} ms, p99 ${w.p99.toFixed(2)} ms, max ${w.max.toFixed(1)} ms, ${w.deliveries} deliveries`,
      );
      await api.stopAndWait();
      rows.push({ title: `kevents (${label})`, ...w });
      if (!floor) break;
      const bare = await startApiserver('none', join(root, 'tools/bench/lib/watch-floor-server.js'));
      const f = await watchLatency(bare, redisPid(redis.port), redis.url, 'http');
      log(
        `floor watch (${WATCHERS} watchers, ${f.achieved.toFixed(0)} writes/s): p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, max ${f.max.toFixed(1)} ms, ${f.deliveries} deliveries`,
      );
      await bare.stopAndWait();
      rows.push({ title: 'floor (bare node:http fan-out)', ...f });
    }
    if (floor) {
      console.log('\n| round | server | p50 ms | p99 ms | max ms | server CPU µs per write |');
      console.log('|---|---|---|---|---|---|');
      rows.forEach((x, i) =>
        console.log(
          `| ${Math.floor(i / 2) + 1} | ${x.title} | ${x.p50.toFixed(2)} | ${x.p99.toFixed(2)} | ${x.max.toFixed(1)} | ${((1e6 * x.cpu.server) / x.achieved).toFixed(0)} |`,
        ),
      );
    }
  } finally {
    await redis.stop();
  }
  process.exit(0);
}
try {
  log(`redis-server on ${redis.port}; redis-benchmark SET ...`);
  results.redisSet = redisBenchmark(redis.port);
  log(`redis-benchmark SET: ${results.redisSet.toFixed(0)} req/s`);
  spawnSync('redis-cli', ['-p', String(redis.port), 'flushall']);

  results.storeWatch = await storeWatchLatency(redis.url);
  log(
    `store-level watch (${WATCHERS} storage watchers, ${results.storeWatch.achieved.toFixed(0)} writes/s): p50 ${results.storeWatch.p50.toFixed(2)} ms, p99 ${results.storeWatch.p99.toFixed(2)} ms`,
  );

  const echo = await startEcho();
  await load(500, (i) => post(`${echo.url}/echo`, event(`warm-${i}`, 'x')));
  results.echo = await load(N_CREATE, (i) => post(`${echo.url}/echo`, event(`e-${i}`, 'x')));
  log(`fastify echo: ${fmt(results.echo)}`);
  echo.stop();

  for (const [name, spec] of [
    ['memory', 'memory'],
    ['redis', `${redis.url}?prefix=bench`],
  ]) {
    const api = await startApiserver(spec);
    const coll = `${api.url}/apis/events.k8s.io/v1/namespaces/bench/events`;
    await load(300, (i) => post(coll, event(`warm-${i}`, 'bench')));
    results[`${name}Create`] = await load(N_CREATE, (i) => post(coll, event(`c-${i}`, 'bench')));
    log(`${name} create: ${fmt(results[`${name}Create`])}`);
    results[`${name}Get`] = await load(N_GET, (i) => get(`${coll}/c-${i % N_CREATE}`));
    log(`${name} get: ${fmt(results[`${name}Get`])}`);
    if (name === 'redis') {
      results.redisWatch = await watchLatency(api, redisPid(redis.port), redis.url, 'http');
      log(
        `redis watch, writes through this apiserver (${WATCHERS} watchers, ${results.redisWatch.achieved.toFixed(0)} writes/s): p50 ${results.redisWatch.p50.toFixed(2)} ms, p99 ${results.redisWatch.p99.toFixed(2)} ms, max ${results.redisWatch.max.toFixed(1)} ms`,
      );
      results.redisWatchReplica = await watchLatency(api, redisPid(redis.port), redis.url, 'store');
      log(
        `redis watch, writes by another replica (${WATCHERS} watchers, ${results.redisWatchReplica.achieved.toFixed(0)} writes/s): p50 ${results.redisWatchReplica.p50.toFixed(2)} ms, p99 ${results.redisWatchReplica.p99.toFixed(2)} ms, max ${results.redisWatchReplica.max.toFixed(1)} ms`,
      );
    }
    api.stop();
  }

  // The cost of durability: the same creates on Redis with the append-only file on.
  for (const fsync of ['everysec', 'always']) {
    const durable = await RedisServer.start({ args: ['--appendonly', 'yes', '--appendfsync', fsync] });
    try {
      const api = await startApiserver(`${durable.url}?prefix=bench`);
      const coll = `${api.url}/apis/events.k8s.io/v1/namespaces/bench/events`;
      await load(300, (i) => post(coll, event(`warm-${i}`, 'bench')));
      results[`aof-${fsync}`] = await load(N_CREATE, (i) => post(coll, event(`c-${i}`, 'bench')));
      log(`redis create, appendfsync ${fsync}: ${fmt(results[`aof-${fsync}`])}`);
      api.stop();
    } finally {
      await durable.stop();
    }
  }

  for (const size of LIST_SIZES) {
    const ns = `list${size}`;
    const mem = await startApiserver('memory');
    // The in-process store lives in the apiserver process: seed it over HTTP.
    log(`seeding ${size} events (memory, over HTTP) ...`);
    await load(size, (i) =>
      post(`${mem.url}/apis/events.k8s.io/v1/namespaces/${ns}/events`, event(`s-${String(i).padStart(6, '0')}`, ns)),
    );
    results[`memoryList${size}`] = await listAll(mem.url, ns);
    log(
      `memory list ${size} by 500: ${results[`memoryList${size}`].ms.toFixed(0)} ms (${results[`memoryList${size}`].pages} pages)`,
    );
    mem.stop();

    log(`seeding ${size} events (redis, direct) ...`);
    const store = await createRedisStorage({ url: redis.url, prefix: 'bench' });
    await seed(store, ns, size);
    await store.close();
    const api = await startApiserver(`${redis.url}?prefix=bench`);
    results[`redisList${size}`] = await listAll(api.url, ns);
    log(
      `redis list ${size} by 500: ${results[`redisList${size}`].ms.toFixed(0)} ms (${results[`redisList${size}`].pages} pages, ${results[`redisList${size}`].items} items)`,
    );
    api.stop();
  }
} finally {
  await redis.stop();
}

const r = results;
const ratio = (a, b) => `${((100 * a) / b).toFixed(0)}%`;
console.log('\n## Redis benchmark results\n');
console.log(`| measure | in-process | Redis | Redis / in-process |`);
console.log(`|---|---|---|---|`);
console.log(
  `| create (POST, ${CONCURRENCY} concurrent) | ${fmt(r.memoryCreate)} | ${fmt(r.redisCreate)} | ${ratio(r.redisCreate.rps, r.memoryCreate.rps)} |`,
);
console.log(`| get | ${fmt(r.memoryGet)} | ${fmt(r.redisGet)} | ${ratio(r.redisGet.rps, r.memoryGet.rps)} |`);
for (const size of LIST_SIZES) {
  const m = r[`memoryList${size}`];
  const x = r[`redisList${size}`];
  console.log(
    `| list ${size} by 500 (whole list) | ${m.ms.toFixed(0)} ms | ${x.ms.toFixed(0)} ms | ${ratio(m.ms, x.ms)} speed |`,
  );
}
console.log(
  `\ncreates on Redis by durability setting (same load): no persistence ${fmt(r.redisCreate)}; appendonly + appendfsync everysec ${fmt(r['aof-everysec'])} (${ratio(r['aof-everysec'].rps, r.redisCreate.rps)}); appendfsync always ${fmt(r['aof-always'])} (${ratio(r['aof-always'].rps, r.redisCreate.rps)})`,
);
console.log(`\nfastify echo baseline: ${fmt(r.echo)}; redis-benchmark SET: ${r.redisSet.toFixed(0)} req/s`);
const createRatio = r.redisCreate.rps / r.echo.rps;
console.log(
  `creates on Redis / echo baseline: ${(100 * createRatio).toFixed(0)}% (target >= 40%: ${createRatio >= 0.4 ? 'met' : 'MISSED'})`,
);
console.log(`creates on Redis / redis-benchmark SET: ${ratio(r.redisCreate.rps, r.redisSet)}`);
const cpuOf = (w) =>
  Object.entries(w.cpu)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
for (const [label, w] of [
  ['writes through the watched apiserver', r.redisWatch],
  ['writes by another replica', r.redisWatchReplica],
]) {
  console.log(
    `watch delivery (${label}), ${WATCHERS} watchers at ${w.achieved.toFixed(0)} writes/s: p50 ${w.p50.toFixed(2)} ms, p99 ${w.p99.toFixed(2)} ms, max ${w.max.toFixed(1)} ms (target p99 <= 10 ms: ${w.p99 <= 10 ? 'met' : 'MISSED'}), ${w.deliveries} deliveries; CPU cores: ${cpuOf(w)}`,
  );
}
console.log(
  `store-level watch delivery (no HTTP), ${WATCHERS} watchers at ${r.storeWatch.achieved.toFixed(0)} writes/s: p50 ${r.storeWatch.p50.toFixed(2)} ms, p99 ${r.storeWatch.p99.toFixed(2)} ms, ${r.storeWatch.deliveries} deliveries`,
);
console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
