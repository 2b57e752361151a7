#!/usr/bin/env node
// kevents on the in-process store (or on Redis) against a bare fastify echo server, in one run,
// with a naive in-memory Events server (lib/naive-server.js: JSON.parse, a Map, JSON.stringify)
// as a second baseline: what storing and answering an Event costs a Node server at the least.
// Usage: node tools/bench/memory.js [--seconds=10] [--connections=32] [--warmup=5] [--rounds=3] [--store=memory|redis] [--pin]
//   [--watchers=0] (after npm run build). --store=redis starts a redis-server (no persistence) for kevents; the
//   targets are creates >= 50% of the echo on the in-process store, >= 40% on Redis. --pin
//   (Linux): this process and redis-server on CPU 0, the three servers on CPU 1. --watchers=N
//   keeps N watches of all events open on kevents from a process of their own (lib/watchers.js,
//   reading and discarding), as the controller's informer is: every create is then also a
//   watch event.
// Each measurement follows a warm-up of the same load, so both servers are compared JIT-compiled.
import './lib/help.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, pinToCpu, startNode, track, waitReady } from './lib/processes.js';
import { load } from './lib/load.js';
import { benchEvent as event } from './lib/bench-event.js';
import { benchApiserverArgs, median, numberArg, stringArg } from './lib/args.js';
import { startRedisServer } from './lib/redis-server.js';

const arg = numberArg;
const seconds = arg('seconds', 10);
const connections = arg('connections', 32);
const warmupSeconds = arg('warmup', 5);
const rounds = arg('rounds', 3);
const storeArg = stringArg('store', 'memory');
const target = storeArg === 'redis' ? 0.4 : 0.5;
// --pin (Linux): the load generator (this process) on CPU 0, the three servers on CPU 1, and
// Redis beside the load generator (floating, it sometimes shared CPU 1 with kevents for a round).
const pinArg = process.argv.includes('--pin');
const watchersArg = arg('watchers', 0);
const echo = fileURLToPath(new URL('./lib/echo-server.js', import.meta.url));
const watchersScript = fileURLToPath(new URL('./lib/watchers.js', import.meta.url));

/** Starts lib/watchers.js with `n` discarding watches of `url`; resolves once they are all open. */
async function openWatchers(url, n) {
  const child = track(
    spawn(process.execPath, [watchersScript, url, String(n), '0'], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready')) resolve(undefined);
    });
    child.once('exit', (code) => reject(new Error(`watchers exited with ${code}`)));
  });
  return { pid: child.pid, stop: () => child.kill('SIGKILL') };
}
const naive = fileURLToPath(new URL('./lib/naive-server.js', import.meta.url));

const json = { 'content-type': 'application/json' };

/**
 * Both servers run side by side (only one is loaded at a time); after a warm-up of each, the
 * create and echo measurements alternate for `rounds` rounds and the median ratio is reported,
 * which keeps a noisy neighbour from deciding the result. `o` overrides the command line's
 * `--store`, `--pin` and `--watchers`; `reads: false` leaves out the gets and lists after the rounds.
 * @param {{ store?: 'memory' | 'redis', pin?: boolean, reads?: boolean, watchers?: number }} [o]
 */
export async function runMemoryBench(o = {}) {
  const { store = storeArg, pin = pinArg, reads = true, watchers = watchersArg } = o;
  if (store !== 'memory' && store !== 'redis') throw new Error(`--store must be memory or redis, not ${store}`);
  const echoPort = await freePort();
  const kevPort = await freePort();
  const naivePort = await freePort();
  const results = { store, watchers, rounds: [] };
  let watching;
  const redis = store === 'redis' ? await startRedisServer() : undefined;
  const e = startNode([echo, String(echoPort)]);
  const n = startNode([naive, String(naivePort)]);
  const k = startNode(benchApiserverArgs(kevPort, redis?.url));
  if (pin) {
    pinToCpu(0, process.pid);
    for (const pid of [e.child.pid, n.child.pid, k.child.pid]) pinToCpu(1, pid);
    if (redis?.pid) pinToCpu(0, redis.pid);
  }
  try {
    const echoURL = `http://127.0.0.1:${echoPort}/echo`;
    const base = `http://127.0.0.1:${kevPort}/apis/events.k8s.io/v1/namespaces/bench/events`;
    const naiveURL = `http://127.0.0.1:${naivePort}/apis/events.k8s.io/v1/namespaces/bench/events`;
    await waitReady(echoURL);
    await waitReady(`http://127.0.0.1:${naivePort}/readyz`);
    await waitReady(`http://127.0.0.1:${kevPort}/readyz`);
    if (watchers > 0) {
      watching = await openWatchers(`http://127.0.0.1:${kevPort}/apis/events.k8s.io/v1/events?watch=1`, watchers);
      process.stderr.write(
        `  ${watchers} watch(es) of all events open on kevents (lib/watchers.js, pid ${watching.pid})\n`,
      );
    }
    const echoPost = (warm) =>
      load({
        title: 'echo POST',
        url: echoURL,
        method: 'POST',
        body: event,
        headers: json,
        seconds,
        connections,
        pid: e.child.pid,
        warmupSeconds: warm,
      });
    const naiveCreate = (warm) =>
      load({
        title: 'naive create',
        url: naiveURL,
        method: 'POST',
        body: event,
        headers: json,
        seconds,
        connections,
        pid: n.child.pid,
        warmupSeconds: warm,
      });
    const create = (warm) =>
      load({
        title: 'create (POST)',
        url: base,
        method: 'POST',
        body: event,
        headers: json,
        seconds,
        connections,
        pid: k.child.pid,
        otherPids: redis?.pid ? { 'redis-server': redis.pid } : undefined,
        warmupSeconds: warm,
      });
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`== round ${r + 1} of ${rounds}\n`);
      const ep = await echoPost(r === 0 ? warmupSeconds : 0);
      const nc = await naiveCreate(r === 0 ? warmupSeconds : 0);
      const cr = await create(r === 0 ? warmupSeconds : 0);
      results.rounds.push({ echoPost: ep, naive: nc, create: cr, ratio: cr.rps / ep.rps, naiveRatio: nc.rps / ep.rps });
    }
    if (!reads) return results;
    process.stderr.write('== reads\n');
    results.echoGet = await load({
      title: 'echo GET',
      url: echoURL,
      seconds,
      connections,
      pid: e.child.pid,
      warmupSeconds,
    });
    const first = await (await fetch(`${base}?limit=1`)).json();
    results.get = await load({
      title: 'get',
      url: `${base}/${first.items[0].metadata.name}`,
      seconds,
      connections,
      pid: k.child.pid,
      warmupSeconds,
    });
    results.list = await load({
      title: 'list (limit=500)',
      url: `${base}?limit=500`,
      seconds,
      connections: 8,
      pid: k.child.pid,
    });
  } finally {
    watching?.stop();
    await Promise.all([e.stop(), n.stop(), k.stop()]);
    await redis?.stop();
  }
  return results;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await runMemoryBench();
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  const cpu = (v) =>
    (v.cpuPerRequestUs === undefined ? 'n/a' : v.cpuPerRequestUs.toFixed(0)) +
    Object.entries(v.otherCpuPerRequestUs ?? {})
      .map(([name, us]) => ` (+ ${name} ${us.toFixed(0)})`)
      .join('');
  const row = (v, base) =>
    `| ${v.title} | ${Math.round(v.rps)} | ${v.p50} | ${v.p99} | ${cpu(v)} | ${base ? pct(v.rps / base.rps) : '—'} |`;
  console.log('\n| measurement | req/s | p50 ms | p99 ms | server CPU µs/req | throughput vs echo |');
  console.log('|---|---|---|---|---|---|');
  r.rounds.forEach((x, i) => {
    console.log(row({ ...x.echoPost, title: `echo POST (round ${i + 1})` }));
    console.log(row({ ...x.naive, title: `naive create (round ${i + 1})` }, x.echoPost));
    console.log(row({ ...x.create, title: `create (round ${i + 1})` }, x.echoPost));
  });
  console.log(row(r.echoGet));
  console.log(row(r.get, r.echoGet));
  console.log(row(r.list));
  const m = median(r.rounds.map((x) => x.ratio));
  const mn = median(r.rounds.map((x) => x.naiveRatio));
  console.log(
    `naive in-memory server, median of ${r.rounds.length} rounds: ${pct(mn)} of the echo baseline; kevents reaches ${pct(m / mn)} of it`,
  );
  console.log(
    `\ncreate throughput (${r.store} store${r.watchers > 0 ? `, ${r.watchers} watch(es) open` : ''}), median of ${r.rounds.length} rounds: ${pct(m)} of the echo baseline (target >= ${pct(target)}): ${m >= target ? 'met' : 'NOT met'}`,
  );
}
