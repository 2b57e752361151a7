#!/usr/bin/env node
// Wide objects (the `maxObjectValues` bound, docs/api.md "Limits"): how long one create of an object
// built of many small values holds the apiserver's event loop. Starts the built kevents-apiserver
// (memory store); for each shape (labels, managedFields' fieldsV1 with `f:` or `k:` keys,
// finalizers, ownerReferences, managedFields entries) and size (~4,900 values; ~9,900, stored
// or refused once parsed or once its managedFields would pass the bound; ~3 MiB, refused before
// parsing) it sends --rounds creates after --warmup ones, one at a time, while a second connection
// asks /readyz every 2 ms. Reports the answer, the server's CPU per create (from /proc's 10 ms
// ticks, averaged over the rounds) and the longest /readyz wait during a create (the event loop's
// hold as another client sees it; median and max over the rounds), beside a plain Event's create
// measured in the same run.
// Usage: npm run build && node tools/bench/wide-objects.js [--rounds=7] [--warmup=3]
import './lib/help.js';
import { Agent, request } from 'node:http';
import { apiserverMain, median, numberArg } from './lib/args.js';
import { cpuSeconds, freePort, startNode, waitReady } from './lib/processes.js';

const rounds = numberArg('rounds', 7);
const warmup = numberArg('warmup', 3);
const maxBody = 3 * 1024 * 1024;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startNode([apiserverMain, `--insecure-port=${port}`, '--secure-port=0', '--log-level=warn']);
const pid = server.child.pid;
await waitReady(`${base}/readyz`);

const writer = new Agent({ keepAlive: true, maxSockets: 1 });
const prober = new Agent({ keepAlive: true, maxSockets: 1 });

function call(path, { method = 'GET', body, agent = writer } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method, agent, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let seq = 0;
function event(metadata) {
  return JSON.stringify({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `wide-${seq++}`, namespace: 'default', ...metadata },
    eventTime: '2026-01-01T00:00:00.000000Z',
    reportingController: 'example.com/bench',
    reportingInstance: 'bench-1',
    action: 'Bench',
    reason: 'Wide',
    type: 'Normal',
    regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
  });
}
const times = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const entry = (fieldsV1) => ({
  manager: 'm',
  operation: 'Update',
  apiVersion: 'events.k8s.io/v1',
  fieldsType: 'FieldsV1',
  fieldsV1,
});
const shapes = {
  labels: (n) => ({ labels: Object.fromEntries(times(n, (i) => [`k${i}`, 'v'])) }),
  'fieldsV1 f: keys': (n) => ({ managedFields: [entry(Object.fromEntries(times(n, (i) => [`f:k${i}`, {}])))] }),
  'fieldsV1 k: keys': (n) => ({ managedFields: [entry(Object.fromEntries(times(n, (i) => [`k:{"a":${i}}`, {}])))] }),
  finalizers: (n) => ({ finalizers: times(n, (i) => `example.com/f${i}`) }),
  ownerReferences: (n) => ({
    ownerReferences: times(Math.floor(n / 4), (i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      name: `p${i}`,
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    })),
  }),
  'managedFields entries': (n) => ({
    managedFields: times(Math.floor(n / 7), (i) => ({ ...entry({ 'f:note': {} }), manager: `m${i}` })),
  }),
};

/** The largest `n` whose body stays under 3 MiB. */
function widest(shape) {
  let n = 400_000;
  while (event(shape(n)).length > maxBody) n = Math.floor(n * 0.9);
  return n;
}

/** One create while /readyz is asked every 2 ms on another connection: status, CPU s, longest wait. */
async function measured(body) {
  let longest = 0;
  let running = true;
  const probing = (async () => {
    while (running) {
      const t = performance.now();
      await call('/readyz', { agent: prober });
      longest = Math.max(longest, performance.now() - t);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  await new Promise((r) => setTimeout(r, 20));
  const cpu0 = cpuSeconds(pid);
  const status = await call('/apis/events.k8s.io/v1/namespaces/default/events', { method: 'POST', body });
  const cpu = cpuSeconds(pid) - cpu0;
  running = false;
  await probing;
  return { status, cpu, longest };
}

async function run(label, build) {
  for (let i = 0; i < warmup; i++) await measured(build());
  const got = [];
  for (let i = 0; i < rounds; i++) got.push(await measured(build()));
  const statuses = [...new Set(got.map((g) => g.status))].join('/');
  const cpuMs = (got.reduce((s, g) => s + g.cpu, 0) / got.length) * 1000;
  const holdMs = median(got.map((g) => g.longest));
  console.log(
    `${label.padEnd(46)} ${statuses.padEnd(4)} ${cpuMs.toFixed(1).padStart(7)} ms CPU ${holdMs.toFixed(1).padStart(7)} ms /readyz wait (max ${Math.max(...got.map((g) => g.longest)).toFixed(1)})`,
  );
}

console.log(
  `kevents-apiserver pid ${pid}; ${rounds} rounds after ${warmup}; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
// A plain Event: CPU averaged over many, as one create is below /proc's 10 ms tick.
for (let i = 0; i < 2000; i++)
  await call('/apis/events.k8s.io/v1/namespaces/default/events', { method: 'POST', body: event({}) });
const c0 = cpuSeconds(pid);
for (let i = 0; i < 2000; i++)
  await call('/apis/events.k8s.io/v1/namespaces/default/events', { method: 'POST', body: event({}) });
console.log(
  `${'plain Event (2,000 creates)'.padEnd(46)} 201  ${(((cpuSeconds(pid) - c0) / 2000) * 1000).toFixed(3).padStart(7)} ms CPU`,
);
await run('plain Event, one at a time (CPU below a tick)', () => event({}));
for (const [name, shape] of Object.entries(shapes)) {
  await run(`${name}, ~4,900 values`, () => event(shape(4_900)));
  await run(`${name}, ~9,900 values`, () => event(shape(9_900)));
  const n = widest(shape);
  await run(`${name}, ~3 MiB (${n.toLocaleString('en')})`, () => event(shape(n)));
}
await server.stop();
writer.destroy();
prober.destroy();
