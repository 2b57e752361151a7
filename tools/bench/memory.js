#!/usr/bin/env node
// kevents on the in-process store against a bare fastify echo server, in one run.
// Usage: node tools/bench/memory.js [--seconds=10] [--connections=32] [--warmup=5]   (after npm run build)
// Each measurement follows a warm-up of the same load, so both servers are compared JIT-compiled.
import { fileURLToPath } from 'node:url';
import { freePort, startNode, waitReady } from './lib/processes.js';
import { load } from './lib/load.js';

const arg = (name, def) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const seconds = arg('seconds', 10);
const connections = arg('connections', 32);
const warmupSeconds = arg('warmup', 5);
const main = fileURLToPath(new URL('../../apps/apiserver/dist/main.js', import.meta.url));
const echo = fileURLToPath(new URL('./lib/echo-server.js', import.meta.url));

const event = JSON.stringify({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { generateName: 'bench-', namespace: 'bench' },
  eventTime: '2026-01-02T03:04:05.123456Z',
  reportingController: 'example.com/bench',
  reportingInstance: 'bench-1',
  action: 'Benchmarked',
  reason: 'Benchmark',
  type: 'Normal',
  note: 'a benchmark event with a note of ordinary length, as controllers write them',
  regarding: { kind: 'Pod', namespace: 'bench', name: 'web-0', uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', apiVersion: 'v1' },
});
const json = { 'content-type': 'application/json' };

export async function runMemoryBench() {
  const echoPort = await freePort();
  const kevPort = await freePort();
  const results = {};
  process.stderr.write('== baseline: bare fastify echo\n');
  const e = startNode([echo, String(echoPort)]);
  try {
    await waitReady(`http://127.0.0.1:${echoPort}/echo`);
    results.echoPost = await load({ title: 'echo POST', url: `http://127.0.0.1:${echoPort}/echo`, method: 'POST', body: event, headers: json, seconds, connections, pid: e.child.pid, warmupSeconds });
    results.echoGet = await load({ title: 'echo GET', url: `http://127.0.0.1:${echoPort}/echo`, seconds, connections, pid: e.child.pid, warmupSeconds });
  } finally {
    await e.stop();
  }
  process.stderr.write('== kevents, in-process store\n');
  const k = startNode([main, `--insecure-port=${kevPort}`, '--secure-port=0', '--log-level=warn', '--watch-history=10000']);
  try {
    const base = `http://127.0.0.1:${kevPort}/apis/events.k8s.io/v1/namespaces/bench/events`;
    await waitReady(`http://127.0.0.1:${kevPort}/readyz`);
    results.create = await load({ title: 'create (POST)', url: base, method: 'POST', body: event, headers: json, seconds, connections, pid: k.child.pid, warmupSeconds });
    const first = await (await fetch(`${base}?limit=1`)).json();
    const name = first.items[0].metadata.name;
    results.get = await load({ title: 'get', url: `${base}/${name}`, seconds, connections, pid: k.child.pid, warmupSeconds });
    results.list = await load({ title: 'list (limit=500)', url: `${base}?limit=500`, seconds, connections: 8, pid: k.child.pid });
  } finally {
    await k.stop();
  }
  return results;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await runMemoryBench();
  const ratio = (a, b) => `${((a.rps / b.rps) * 100).toFixed(0)}%`;
  const cpu = (v) => (v.cpuPerRequestUs === undefined ? 'n/a' : v.cpuPerRequestUs.toFixed(0));
  console.log('\n| measurement | req/s | p50 ms | p99 ms | server CPU µs/req | throughput vs echo |');
  console.log('|---|---|---|---|---|---|');
  for (const [k, v] of Object.entries(r)) {
    const base = k === 'create' || k === 'echoPost' ? r.echoPost : r.echoGet;
    console.log(`| ${v.title} | ${Math.round(v.rps)} | ${v.p50} | ${v.p99} | ${cpu(v)} | ${ratio(v, base)} |`);
  }
  const pass = r.create.rps >= 0.5 * r.echoPost.rps;
  console.log(`\ncreate throughput is ${ratio(r.create, r.echoPost)} of the echo baseline (target >= 50%): ${pass ? 'met' : 'NOT met'}`);
}
