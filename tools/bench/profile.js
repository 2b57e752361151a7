#!/usr/bin/env node
// Where a create's CPU goes: kevents runs pinned on CPU 1 with V8's perf map (--perf-basic-prof),
// autocannon creates Events from CPU 0, and `perf record -g` samples the server. Each sample is
// charged to its own frame (self) and to the innermost JavaScript function on its stack (by JS
// frame: a Buffer copy inside the serializer counts for the serializer), and the tool prints both
// tables and a split into kernel, V8 GC, JavaScript and other native code.
// Usage: node tools/bench/profile.js [--seconds=10] [--connections=32] [--warmup=5] [--top=30]
//   [--store=memory|redis|sqlite] [--verb=create|get] [--server=kevents|echo|naive] [--keep] (after npm run build; Linux with `perf` and
//   `taskset`). --server=echo or naive profiles a baseline of memory.js instead, to compare parts.
//   --keep leaves perf.data and the perf script text in a temporary directory and says where.
// With --store=redis, redis-server is pinned on CPU 0 beside the load generator; --store=sqlite
// stores in a file of the temporary directory, and SQLite's thread shows as `other threads
// (WorkerThread)` (a create's commit: its WAL frames, checkpoint and fsync). Before reading
// the samples, V8's perf map is rid of the names of collected code whose addresses new code took
// (the later entry wins; lib/perf-samples.js, dedupePerfMap).
import './lib/help.js';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, pinToCpu, startNode, track, waitReady } from './lib/processes.js';
import { load } from './lib/load.js';
import { benchEvent as event } from './lib/bench-event.js';
import { benchApiserverArgs, numberArg, stringArg } from './lib/args.js';
import { startRedisServer } from './lib/redis-server.js';
import { attribute, dedupePerfMap, formatTable } from './lib/perf-samples.js';

const seconds = numberArg('seconds', 10);
const connections = numberArg('connections', 32);
const warmupSeconds = numberArg('warmup', 5);
const top = numberArg('top', 30);
const store = stringArg('store', 'memory');
const verb = stringArg('verb', 'create');
if (!['memory', 'redis', 'sqlite'].includes(store))
  throw new Error(`--store must be memory, redis or sqlite, not ${store}`);
if (verb !== 'create' && verb !== 'get') throw new Error(`--verb must be create or get, not ${verb}`);
const serverKind = stringArg('server', 'kevents');
if (!['kevents', 'echo', 'naive'].includes(serverKind)) throw new Error(`--server must be kevents, echo or naive`);
if (spawnSync('perf', ['--version']).status !== 0) throw new Error('perf is not installed (Debian: linux-perf)');

const dir = mkdtempSync(join(tmpdir(), 'kevents-profile-'));
const port = await freePort();
const redis = store === 'redis' && serverKind === 'kevents' ? await startRedisServer() : undefined;
const baseline = (file) => fileURLToPath(new URL(`./lib/${file}`, import.meta.url));
const sqliteFile = store === 'sqlite' ? join(dir, 'events.db') : undefined;
const server = startNode(
  serverKind === 'kevents'
    ? [
        '--perf-basic-prof',
        ...benchApiserverArgs(port, redis?.url, 'profile'),
        ...(sqliteFile ? [`--storage=sqlite://${sqliteFile}`] : []),
      ]
    : ['--perf-basic-prof', baseline(`${serverKind}-server.js`), String(port)],
);
pinToCpu(0, process.pid);
pinToCpu(1, server.child.pid);
const perfMap = `/tmp/perf-${server.child.pid}.map`;
// Redis beside the load generator, so the samples on CPU 1 are kevents' alone.
if (redis?.pid) pinToCpu(0, redis.pid);
const base =
  serverKind === 'echo'
    ? `http://127.0.0.1:${port}/echo`
    : `http://127.0.0.1:${port}/apis/events.k8s.io/v1/namespaces/bench/events`;
const json = { 'content-type': 'application/json' };
try {
  await waitReady(serverKind === 'echo' ? base : `http://127.0.0.1:${port}/readyz`);
  const fixed = JSON.parse(event);
  if (verb === 'get' && serverKind !== 'echo') {
    fixed.metadata = { ...fixed.metadata, name: 'profiled', generateName: undefined };
    await fetch(base, { method: 'POST', body: JSON.stringify(fixed), headers: json });
  }
  const run = (title, secs, warm) =>
    load({
      title,
      url: verb === 'get' && serverKind !== 'echo' ? `${base}/profiled` : base,
      method: verb === 'get' ? 'GET' : 'POST',
      body: verb === 'get' ? undefined : event,
      headers: verb === 'get' ? undefined : json,
      seconds: secs,
      connections,
      pid: server.child.pid,
      warmupSeconds: warm,
    });
  await run(`${verb} (warm-up)`, 1, warmupSeconds);
  const data = join(dir, 'perf.data');
  const perf = track(
    spawn('perf', ['record', '-q', '-g', '-F', '1999', '-o', data, '-p', String(server.child.pid)], {
      stdio: 'inherit',
    }),
  );
  const measured = await run(`${verb} (recorded)`, seconds, 0);
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('exit', resolve));
  process.stderr.write('  reading samples ... ');
  const dropped = dedupePerfMap(perfMap);
  const script = spawnSync('perf', ['script', '-i', data, '-F', 'comm,tid,ip,sym'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (process.argv.includes('--keep')) writeFileSync(join(dir, 'perf.txt'), script.stdout);
  const report = attribute(script.stdout);
  process.stderr.write(`${report.samples} samples (${dropped} stale perf-map entries dropped)\n`);
  const perRequest = measured.cpuPerRequestUs ?? 0;
  const us = (n) => ((n / report.samples) * perRequest).toFixed(2);
  process.stdout.write(
    `\n${serverKind === 'kevents' ? `${verb} on the ${store} store` : `${serverKind} ${verb}`}: ${Math.round(measured.rps)} req/s, server CPU ${perRequest.toFixed(1)} µs per request\n\n`,
  );
  process.stdout.write(formatTable('part', report.parts, report.samples, us, top));
  process.stdout.write(
    formatTable('by JS frame (innermost JavaScript function on the stack)', report.byJS, report.samples, us, top),
  );
  process.stdout.write(formatTable('self (the sampled frame)', report.self, report.samples, us, top));
} finally {
  await server.stop();
  await redis?.stop();
  if (process.argv.includes('--keep'))
    process.stderr.write(`perf.data and perf.txt kept in ${dir}, the perf map in ${perfMap}\n`);
  else {
    rmSync(dir, { recursive: true, force: true });
    rmSync(perfMap, { force: true });
  }
}
