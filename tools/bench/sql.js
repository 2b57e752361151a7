#!/usr/bin/env node
// The SQL stores (issue 32), SQLite and PostgreSQL, each against the targets of the issue:
//   1. creates (POST events.k8s.io/v1, 16 connections) against a bare fastify echo server,
//      alternated for --rounds rounds; the median ratio (targets: >= 35% SQLite, >= 25% PostgreSQL)
//      and kevents' CPU per create (all its threads), and on PostgreSQL the CPU of every process
//      named postgres on the machine per create (/proc; the machine's other databases idle);
//   2. --events (default 1,000,000) events loaded straight into the store (the package's
//      createSqlStorage, in this process, in the core/v1 shape the apiserver stores), in 1,000
//      namespaces `ns-NNN` of 1,000 events (each regarding one of 100 pods, names and uids of
//      their own) and a namespace `small` of 10; then a fresh kevents-apiserver
//      on it: its RSS (target < 250 MB), listing `small` (p50 <= 5 ms), a page of 500 of a
//      namespace and of the whole resource (p50 <= 15 ms), `--field-selector regarding.name=X` in
//      a namespace (p50 <= 5 ms), and the disk used against the events' JSON (<= 1.5x; for SQLite
//      also after the deletes and a VACUUM);
//   3. retention: --retention (default 100,000) events deleted through the API, 8 at a time,
//      while a loop of gets measures their p99 (target < 20 ms); kevents' RSS right after, its
//      highest during the deletes, and after --settle seconds (default 60) of idling.
// PostgreSQL: the machine's (KEVENTS_BENCH_POSTGRES, default postgres://postgres@127.0.0.1:5432/postgres);
// the bench creates and drops its own database.
// Usage: npm run build && node tools/bench/sql.js [--store=sqlite,postgres] [--events=1000000]
//        [--retention=100000] [--rounds=3] [--seconds=3] [--settle=60] [--skip-creates] [--skip-fill] [--semi-space=16] [--server-node-args='--trace-gc']
//        [--baseline=<git ref>] (the creates part also runs that ref's build, alternated with this one)
import './lib/help.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { benchEvent } from './lib/bench-event.js';
import { median, stringArg } from './lib/args.js';
import { prepareBaseline } from './lib/baseline.js';
import { load } from './lib/load.js';
import { cpuSeconds, freePort, startNode, track, waitReady } from './lib/processes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = join(root, 'apps/apiserver/dist/main.js');
// The packages by name (the workspace resolves them to their build output, which must exist).
const built = (specifier) => existsSync(fileURLToPath(import.meta.resolve(specifier)));
if (!existsSync(main) || !['@kevents/storage-sql', '@kevents/api'].every(built)) {
  console.error('build first: npm run build');
  process.exit(1);
}
const { createSqlStorage } = await import('@kevents/storage-sql');
const { eventToCore } = await import('@kevents/api');
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const flag = (name) => process.argv.includes(`--${name}`);
const stores = arg('store', 'sqlite,postgres').split(',');
const events = Number(arg('events', 1_000_000));
const retention = Number(arg('retention', 100_000));
const rounds = Number(arg('rounds', 3));
const seconds = Number(arg('seconds', 3));
/** How long the apiserver idles after the deletes before its RSS is read again (kevents lets V8's memory reducer run after 30 s of quiet). */
const settleSeconds = Number(arg('settle', 60));
/** `--semi-space=16` runs the apiserver with NODE_OPTIONS=--max-semi-space-size=16 (docs/operations.md, "Memory"). */
const semiSpace = arg('semi-space', '');
/** `--server-node-args='--trace-gc'`: Node (and V8) flags for the apiserver's command line, kept across its restart. */
const serverNodeArgs = stringArg('server-node-args', '').split(' ').filter(Boolean);
/** `--baseline=<git ref>`: the creates part also runs that ref's build (on a database of its own), alternated with this one. */
const baselineRef = arg('baseline', '');
const adminUrl = process.env['KEVENTS_BENCH_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (s) => process.stderr.write(`${s}\n`);
const echo = fileURLToPath(new URL('./lib/echo-server.js', import.meta.url));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const dir = mkdtempSync(join(tmpdir(), 'kevents-bench-sql-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

async function startApiserver(storage, mainPath = main) {
  const port = await freePort();
  const p = track(
    spawn(
      process.execPath,
      [
        ...serverNodeArgs,
        mainPath,
        `--insecure-port=${port}`,
        '--secure-port=0',
        `--storage=${storage}`,
        '--log-level=warn',
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: semiSpace ? { ...process.env, NODE_OPTIONS: `--max-semi-space-size=${semiSpace}` } : process.env,
      },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  p.once('exit', (code, signal) => {
    if (!stopping)
      log(`  the apiserver on ${storage.split('?')[0]} exited (${signal ?? code}) before the bench stopped it`);
  });
  let stopping = false;
  await waitReady(`${url}/readyz`, 60_000);
  return {
    url,
    pid: p.pid,
    stop: () =>
      new Promise((resolve) => {
        if (p.exitCode !== null || p.signalCode !== null) return resolve();
        stopping = true;
        p.once('exit', () => resolve());
        p.kill('SIGTERM');
      }),
  };
}

/** The V8 heap of a server from its /metrics (prom-client's default metrics), MB: used/total, and per space. */
async function heapOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const mb = (v) => Math.round(Number(v) / 1e6);
  const num = (name) => mb(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  const spaces = [];
  for (const [, space, v] of text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)/gm))
    if (mb(v) > 0) spaces.push(`${space} ${mb(v)}`);
  return `${num('nodejs_heap_size_used_bytes')} / ${num('nodejs_heap_size_total_bytes')} (${spaces.join(', ')})`;
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
function get(url) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    request(url, { agent }, (res) => {
      let n = 0;
      res.on('data', (d) => (n += d.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode, bytes: n }));
    })
      .on('error', reject)
      .end();
  });
}
function send(method, url, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** p50 of `n` sequential GETs of `path` (after 20 to warm up). */
async function p50Of(url, path, n = 200) {
  for (let i = 0; i < 20; i++) await get(url + path);
  const ms = [];
  let status = 0;
  for (let i = 0; i < n; i++) {
    const r = await get(url + path);
    ms.push(r.ms);
    status = r.status;
  }
  if (status !== 200) throw new Error(`${path}: HTTP ${status}`);
  return { p50: median(ms), p99: pct(ms, 99) };
}

/** How many items a list answers (the field-selector lists must find the pod's events). */
async function itemsOf(url, path) {
  const r = await fetch(url + path);
  return (await r.json()).items.length;
}

async function newPostgresDb() {
  const name = `kevents_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    size: async () => {
      const c = new pg.Client({ connectionString: u.toString() });
      await c.connect();
      const r = await c.query(
        "SELECT pg_database_size(current_database()) AS db, pg_total_relation_size('kevents_objects') AS objects, pg_total_relation_size('kevents_changes') AS changes",
      );
      await c.end();
      return { db: Number(r.rows[0].db), objects: Number(r.rows[0].objects), changes: Number(r.rows[0].changes) };
    },
    drop: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

function eventObject(ns, i) {
  const e = JSON.parse(benchEvent);
  const name = `e-${String(i).padStart(7, '0')}`;
  return {
    ...e,
    metadata: {
      name,
      namespace: ns,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      creationTimestamp: '2026-01-02T03:04:05Z',
    },
    regarding: {
      ...e.regarding,
      namespace: ns,
      name: `web-${i % 100}`,
      uid: `00000000-0000-4000-9000-${ns.replace(/\D/g, '').padStart(8, '0')}${String(i % 100).padStart(4, '0')}`,
    },
  };
}

/** Loads the events straight into the store; returns the bytes of their JSON. */
async function fill(url) {
  const s = await createSqlStorage({ url, historyLimit: 10_000 });
  let bytes = 0;
  const t0 = performance.now();
  const perNs = Math.max(1, Math.floor(events / 1000));
  const jobs = [];
  for (let i = 0; i < 10; i++) jobs.push(['small', i]);
  let next = 0;
  const total = perNs * 1000;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total + jobs.length) return;
      const [ns, n] =
        i < jobs.length ? jobs[i] : [`ns-${String(Math.floor((i - jobs.length) / perNs)).padStart(3, '0')}`, i];
      // Stored as the apiserver stores an Event: in the core/v1 shape (involvedObject, ...).
      const obj = eventToCore(eventObject(ns, n));
      bytes += JSON.stringify(obj).length;
      await s.create({ resource: 'events', namespace: ns, name: obj.metadata.name }, obj);
      if (i % 100_000 === 0 && i > 0) log(`    ${i} events, ${Math.round(i / ((performance.now() - t0) / 1000))}/s`);
    }
  };
  await Promise.all(Array.from({ length: 512 }, worker));
  const secs = (performance.now() - t0) / 1000;
  log(`  filled ${total + jobs.length} events in ${secs.toFixed(0)} s (${Math.round((total + jobs.length) / secs)}/s)`);
  await s.close();
  return { bytes, count: total + jobs.length, perNs };
}

/** CPU seconds of every process named `postgres` on this machine (the server and its backends), from /proc. */
function postgresCpuSeconds() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let comm;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue; // gone since the listing
    }
    if (comm === 'postgres') total += cpuSeconds(pid) ?? 0;
  }
  return total;
}

async function creates(storage, baseline) {
  const echoPort = await freePort();
  const e = startNode([echo, String(echoPort)]);
  const echoURL = `http://127.0.0.1:${echoPort}/echo`;
  await waitReady(echoURL);
  const servers = { current: await startApiserver(storage) };
  if (baseline) servers.baseline = await startApiserver(baseline.storage, baseline.main);
  const out = [];
  const json = { 'content-type': 'application/json' };
  const eventsUrl = (a) => `${a.url}/apis/events.k8s.io/v1/namespaces/bench/events`;
  const createLoad = async (name, title) => {
    const a = servers[name];
    const pg0 = storage.startsWith('postgres') ? postgresCpuSeconds() : undefined;
    const cr = await load({
      title,
      url: eventsUrl(a),
      method: 'POST',
      body: benchEvent,
      headers: json,
      seconds,
      connections: 16,
      pid: a.pid,
    });
    if (pg0 !== undefined) {
      cr.postgresCpuPerRequestUs = ((postgresCpuSeconds() - pg0) / cr.requests) * 1e6;
      log(`  PostgreSQL's processes: ${cr.postgresCpuPerRequestUs.toFixed(0)} µs of CPU per create`);
    }
    return cr;
  };
  try {
    // kevents' hot paths need ~20,000 requests to be compiled: at 1,000–3,000 creates/s, 8 s. Apart
    // from the rounds, so that PostgreSQL's CPU of a round is the round's own.
    for (const a of Object.values(servers))
      await load({
        title: 'create (warm-up)',
        url: eventsUrl(a),
        method: 'POST',
        body: benchEvent,
        headers: json,
        seconds: 8,
        connections: 16,
      });
    for (let r = 0; r < rounds; r++) {
      const ep = await load({
        title: 'echo POST',
        url: echoURL,
        method: 'POST',
        body: benchEvent,
        headers: json,
        seconds,
        connections: 16,
        warmupSeconds: r === 0 ? 2 : 0,
      });
      const round = { echo: ep };
      const order = r % 2 === 0 ? ['current', 'baseline'] : ['baseline', 'current'];
      for (const name of order)
        if (servers[name])
          round[name === 'current' ? 'create' : 'baseline'] = await createLoad(
            name,
            name === 'current' ? 'create' : `create (${baselineRef})`,
          );
      round.ratio = round.create.rps / ep.rps;
      if (round.baseline) round.baselineRatio = round.baseline.rps / ep.rps;
      out.push(round);
    }
  } finally {
    for (const a of Object.values(servers)) await a.stop();
    await e.stop();
  }
  return out;
}

const baselineMain = baselineRef ? prepareBaseline(baselineRef, { root }).main : undefined;
const results = {};
for (const store of stores) {
  log(`\n## ${store}\n`);
  const r = (results[store] = {});
  let target;
  let db;
  if (store === 'sqlite') target = { url: `sqlite://${join(dir, store, 'events.db')}` };
  else {
    db = await newPostgresDb();
    target = { url: db.url };
  }
  try {
    if (!flag('skip-creates')) {
      const createsDb = store === 'sqlite' ? undefined : await newPostgresDb();
      const baseDb = store === 'sqlite' || !baselineMain ? undefined : await newPostgresDb();
      try {
        r.creates = await creates(
          createsDb?.url ?? `sqlite://${join(dir, 'creates', 'events.db')}`,
          baselineMain && {
            main: baselineMain,
            storage: baseDb?.url ?? `sqlite://${join(dir, 'creates-baseline', 'events.db')}`,
          },
        );
      } finally {
        await createsDb?.drop();
        await baseDb?.drop();
      }
    }
    if (flag('skip-fill')) continue;
    r.fill = await fill(target.url);
    const a = await startApiserver(target.url);
    try {
      const base = `/apis/events.k8s.io/v1`;
      r.small = await p50Of(a.url, `${base}/namespaces/small/events`);
      r.nsPage = await p50Of(a.url, `${base}/namespaces/ns-042/events?limit=500`, 100);
      r.allPage = await p50Of(a.url, `${base}/events?limit=500`, 100);
      r.field = await p50Of(a.url, `${base}/namespaces/ns-042/events?fieldSelector=regarding.name%3Dweb-7`);
      r.coreField = await p50Of(
        a.url,
        `/api/v1/namespaces/ns-042/events?fieldSelector=involvedObject.name%3Dweb-7,involvedObject.kind%3DPod`,
      );
      // What `kubectl describe pod` asks for: the pod's name, namespace, kind and uid.
      const podUid = eventObject('ns-042', 7).regarding.uid;
      const describePath = `/api/v1/namespaces/ns-042/events?fieldSelector=involvedObject.name%3Dweb-7,involvedObject.namespace%3Dns-042,involvedObject.kind%3DPod,involvedObject.uid%3D${podUid}`;
      r.describe = await p50Of(a.url, describePath);
      r.fieldItems = [
        await itemsOf(a.url, `${base}/namespaces/ns-042/events?fieldSelector=regarding.name%3Dweb-7`),
        await itemsOf(a.url, describePath),
      ];
      await new Promise((res) => setTimeout(res, 2_000));
      r.rss = rssOf(a.pid);
      r.heap = await heapOf(a.url);
      if (store === 'sqlite') {
        const f = join(dir, store, 'events.db');
        r.disk = statSync(f).size + (existsSync(`${f}-wal`) ? statSync(`${f}-wal`).size : 0);
      } else {
        const size = await db.size();
        r.disk = size.db;
        r.diskObjects = size.objects;
      }
      // Retention: deletes through the API, 8 at a time, with a loop of gets beside them.
      const toDelete = Math.min(retention, r.fill.count - 20_000);
      let stop = false;
      const getMs = [];
      const getter = (async () => {
        while (!stop) getMs.push((await get(`${a.url}${base}/namespaces/small/events/e-0000003`)).ms);
      })();
      let rssPeak = rssOf(a.pid);
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(a.pid))), 250);
      const t0 = performance.now();
      let k = 0;
      let failed = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (;;) {
            const i = k++;
            if (i >= toDelete) return;
            const n = 10 + i;
            const ns = `ns-${String(Math.floor(i / r.fill.perNs)).padStart(3, '0')}`;
            const st = await send('DELETE', `${a.url}${base}/namespaces/${ns}/events/e-${String(n).padStart(7, '0')}`);
            if (st !== 200) failed++;
          }
        }),
      );
      stop = true;
      await getter;
      clearInterval(sampler);
      r.retention = {
        deleted: toDelete - failed,
        failed,
        seconds: (performance.now() - t0) / 1000,
        gets: getMs.length,
        p50: median(getMs),
        p99: pct(getMs, 99),
      };
      r.rssAfter = rssOf(a.pid);
      r.rssPeak = Math.max(rssPeak, r.rssAfter);
      r.heapAfter = await heapOf(a.url);
      // Then idle, as a store is between bursts: what the process keeps once V8's memory reducer ran.
      await new Promise((res) => setTimeout(res, settleSeconds * 1000));
      r.rssSettled = rssOf(a.pid);
      r.heapSettled = await heapOf(a.url);
    } finally {
      await a.stop();
    }
    if (store === 'sqlite') {
      // The file as a bulk load leaves it (pages of random inserts, part empty) against the
      // same events after a VACUUM, which packs them: what an operator's VACUUM gives back.
      const f = join(dir, store, 'events.db');
      const s = await createSqlStorage({ url: target.url });
      await s.backend.maintenance('VACUUM');
      await s.backend.maintenance('PRAGMA wal_checkpoint(TRUNCATE)');
      await s.close();
      const left = r.fill.count - r.retention.deleted;
      r.vacuumed = { disk: statSync(f).size, bytes: (r.fill.bytes * left) / r.fill.count };
    }
  } finally {
    await db?.drop();
  }
}

const f2 = (x) => (x === undefined ? '-' : x.toFixed(2));
console.log('\n| measure | ' + stores.join(' | ') + ' |');
console.log('|---|' + stores.map(() => '---|').join(''));
const row = (title, fn) => console.log(`| ${title} | ${stores.map((s) => fn(results[s] ?? {})).join(' | ')} |`);
row('creates / echo, median of rounds', (r) =>
  r.creates
    ? `${(median(r.creates.map((x) => x.ratio)) * 100).toFixed(0)}% (${r.creates.map((x) => `${Math.round(x.create.rps)}/${Math.round(x.echo.rps)}`).join(', ')} req/s)`
    : '-',
);
row('server CPU per create, median of rounds (µs, all threads)', (r) =>
  r.creates ? median(r.creates.map((x) => x.create.cpuPerRequestUs)).toFixed(0) : '-',
);
row("PostgreSQL's CPU per create, median of rounds (µs, all its processes)", (r) =>
  r.creates?.[0]?.create.postgresCpuPerRequestUs !== undefined
    ? median(r.creates.map((x) => x.create.postgresCpuPerRequestUs)).toFixed(0)
    : '-',
);
if (baselineRef) {
  row(`baseline ${baselineRef}: creates / echo, median of rounds`, (r) =>
    r.creates
      ? `${(median(r.creates.map((x) => x.baselineRatio)) * 100).toFixed(0)}% (${r.creates.map((x) => `${Math.round(x.baseline.rps)}/${Math.round(x.echo.rps)}`).join(', ')} req/s)`
      : '-',
  );
  row(`baseline ${baselineRef}: server CPU per create (µs, all threads)`, (r) =>
    r.creates ? median(r.creates.map((x) => x.baseline.cpuPerRequestUs)).toFixed(0) : '-',
  );
  row(`baseline ${baselineRef}: PostgreSQL's CPU per create (µs)`, (r) =>
    r.creates?.[0]?.baseline.postgresCpuPerRequestUs !== undefined
      ? median(r.creates.map((x) => x.baseline.postgresCpuPerRequestUs)).toFixed(0)
      : '-',
  );
}
row('events loaded', (r) => (r.fill ? String(r.fill.count) : '-'));
row('RSS of kevents after the reads (MB)', (r) => (r.rss ? (r.rss / 1e6).toFixed(0) : '-'));
row('V8 heap after the reads, used / total MB (total per space)', (r) => r.heap ?? '-');
row('list `small` (10 events) p50 / p99 ms', (r) => (r.small ? `${f2(r.small.p50)} / ${f2(r.small.p99)}` : '-'));
row('page of 500 of a 1,000-event namespace p50 ms', (r) => f2(r.nsPage?.p50));
row('page of 500 of all events p50 ms', (r) => f2(r.allPage?.p50));
row('regarding.name=X in a namespace p50 ms', (r) => f2(r.field?.p50));
row('core involvedObject.name=X,kind=Pod p50 ms', (r) => f2(r.coreField?.p50));
row('core name, namespace, kind and uid (kubectl describe) p50 ms', (r) => f2(r.describe?.p50));
row('items found by those two field selectors', (r) => (r.fieldItems ? r.fieldItems.join(', ') : '-'));
row('disk / events JSON', (r) =>
  r.disk && r.fill
    ? `${(r.disk / r.fill.bytes).toFixed(2)} (${(r.disk / 1e6).toFixed(0)} MB / ${(r.fill.bytes / 1e6).toFixed(0)} MB)`
    : '-',
);
row('PostgreSQL: kevents_objects with its indexes / events JSON', (r) =>
  r.diskObjects && r.fill
    ? `${(r.diskObjects / r.fill.bytes).toFixed(2)} (${(r.diskObjects / 1e6).toFixed(0)} MB)`
    : '-',
);
row('SQLite: disk / events JSON after the deletes and a VACUUM', (r) =>
  r.vacuumed ? `${(r.vacuumed.disk / r.vacuumed.bytes).toFixed(2)} (${(r.vacuumed.disk / 1e6).toFixed(0)} MB)` : '-',
);
row('retention: deletes, s, gets p50 / p99 ms', (r) =>
  r.retention
    ? `${r.retention.deleted} in ${r.retention.seconds.toFixed(0)} s, ${f2(r.retention.p50)} / ${f2(r.retention.p99)} (${r.retention.gets} gets)`
    : '-',
);
row('RSS after retention (MB)', (r) => (r.rssAfter ? (r.rssAfter / 1e6).toFixed(0) : '-'));
row('highest RSS during retention (MB, sampled every 250 ms)', (r) => (r.rssPeak ? (r.rssPeak / 1e6).toFixed(0) : '-'));
row('V8 heap after retention, used / total MB', (r) => r.heapAfter ?? '-');
row(`RSS ${settleSeconds} s after retention, idle (MB)`, (r) => (r.rssSettled ? (r.rssSettled / 1e6).toFixed(0) : '-'));
row(`V8 heap ${settleSeconds} s after retention, used / total MB`, (r) => r.heapSettled ?? '-');
agent.destroy();
