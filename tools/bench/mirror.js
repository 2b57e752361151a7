#!/usr/bin/env node
// Mirror benchmark (`npm run bench -- --only=mirror`): a source cluster (a real kevents-apiserver,
// memory store), kevents (another one) and kevents-controller mirroring the first into the second
// (`--mirror-source=bench=...`, series and retention on as in production), all child processes.
//  1. sustained: --rate (default 500) events/s written to the source for --seconds (default 30),
//     a third kubelet-style through core v1; lag = the moment a copy reaches a watcher on kevents
//     minus the moment its source create was acknowledged; p50, p99, max, and the mirror's
//     throughput (copies per second over the step) and the controller's CPU time per event.
//  2. burst: --burst (default 2000) events/s for --burst-seconds (default 5), the same lags, and
//     the catch-up time after the last write (last copy seen minus last write acknowledged).
//  3. memory: --fill (default 50,000) events written to the source while no mirror runs, then a
//     fresh controller mirrors them all; its live heap once done (after a full GC, read through
//     its inspector) minus that of the same controller against empty servers, per mirrored event
//     (the controller caches the source's events and kevents' copies, as client-go informers
//     would), and the same for its RSS.
// Flags: --seconds, --rate, --burst, --burst-seconds, --fill.
import './lib/help.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResourceClient, RestClient } from '@kevents/controller-runtime';
import { ApiserverChild, ChildRun, testEvent, testKubeConfig, waitFor } from '@kevents/controller-runtime/testing';

const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const seconds = Number(arg('seconds', '30'));
const rate = Number(arg('rate', '500'));
const burst = Number(arg('burst', '2000'));
const burstSeconds = Number(arg('burst-seconds', '5'));
const fill = Number(arg('fill', '50000'));
const controllerMain = fileURLToPath(new URL('../../apps/controller/dist/main.js', import.meta.url));

function kubeconfig(server) {
  const p = join(mkdtempSync(join(tmpdir(), 'kevents-bench-mirror-')), 'kubeconfig');
  writeFileSync(
    p,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server}"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
  return p;
}

function clients(url) {
  const rest = new RestClient(testKubeConfig(url), { timeoutMs: 120_000 });
  return {
    events: new ResourceClient(rest, { group: 'events.k8s.io', version: 'v1', resource: 'events', namespaced: true }),
    core: new ResourceClient(rest, { group: '', version: 'v1', resource: 'events', namespaced: true }),
  };
}

async function startMirror(target, source, inspect = false) {
  const c = new ChildRun(
    spawn(
      process.execPath,
      [
        ...(inspect ? ['--inspect=127.0.0.1:0'] : []),
        controllerMain,
        `--server=${target.url}`,
        '--leader-elect=false',
        '--health-probe-bind-address=0',
        `--mirror-source=bench=${kubeconfig(source.url)}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  await waitFor(
    () => c.output.includes('mirror source synced'),
    120_000,
    () => c.output,
  );
  return c;
}

/** User + system CPU seconds a process has used (Linux /proc). */
function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * The controller's live heap: through its inspector (started with --inspect), a full garbage
 * collection, then the used heap size (MiB).
 */
async function liveHeapMiB(c) {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(c.output)?.[1];
  if (!url) throw new Error(`no inspector URL in: ${c.output.slice(0, 2000)}`);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const call = (method) =>
    new Promise((resolve) => {
      const my = ++id;
      ws.addEventListener('message', function on(m) {
        const msg = JSON.parse(String(m.data));
        if (msg.id !== my) return;
        ws.removeEventListener('message', on);
        resolve(msg.result);
      });
      ws.send(JSON.stringify({ id: my, method }));
    });
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const { usedSize } = await call('Runtime.getHeapUsage');
  ws.close();
  return usedSize / 1024 / 1024;
}

function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function kubeletEvent(name, namespace) {
  const t = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: { kind: 'Pod', namespace, name: `pod-${name}`, apiVersion: 'v1' },
    reason: 'Pulled',
    message: `Container image "app:1" already present on machine`,
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: t,
    lastTimestamp: t,
    count: 1,
    type: 'Normal',
    reportingComponent: '',
    reportingInstance: '',
  };
}

/** Writes `n` events at `perSecond` (128 writers); returns each name's acknowledgement time. */
async function write(src, prefix, n, perSecond) {
  const acked = new Map();
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      if (perSecond) {
        const wait = t0 + (i * 1000) / perSecond - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const name = `${prefix}-${i}`;
      const ns = `ns-${i % 10}`;
      if (i % 3 === 0) await src.core.create(kubeletEvent(name, ns));
      else await src.events.create(testEvent(name, ns));
      acked.set(name, performance.now());
    }
  };
  await Promise.all(Array.from({ length: 128 }, worker));
  return { acked, secs: (performance.now() - t0) / 1000 };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Watches kevents for copies; `arrived` maps a copy's name to when it was first seen. */
async function watchCopies(target) {
  const arrived = new Map();
  const { events } = clients(target.url);
  const l = await events.list({ limit: 1 });
  let rv = l.metadata.resourceVersion;
  let handle;
  const start = async () => {
    handle = await events.watch(
      { labelSelector: 'kevents.io/cluster=bench', resourceVersion: rv, allowWatchBookmarks: true },
      (ev) => {
        if (ev.object?.metadata?.resourceVersion) rv = ev.object.metadata.resourceVersion;
        if (ev.type === 'ADDED' && !arrived.has(ev.object.metadata.name))
          arrived.set(ev.object.metadata.name, performance.now());
      },
      () => {
        restarts++;
        if (!stopped) void start();
      },
    );
  };
  let stopped = false;
  let restarts = 0;
  await start();
  return {
    arrived,
    restarts: () => restarts,
    stop: () => {
      stopped = true;
      handle?.stop();
    },
  };
}

async function step(label, src, watcher, prefix, n, perSecond, pid) {
  const cpu0 = cpuSeconds(pid);
  const { acked, secs } = await write(src, prefix, n, perSecond);
  const lastAck = Math.max(...acked.values());
  await waitFor(
    () => [...acked.keys()].every((k) => watcher.arrived.has(k)),
    600_000,
    () => `${label}: not all mirrored`,
  );
  const cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / n;
  const lags = [...acked].map(([k, t]) => watcher.arrived.get(k) - t).sort((a, b) => a - b);
  const lastArrival = Math.max(...[...acked.keys()].map((k) => watcher.arrived.get(k)));
  const firstAck = Math.min(...acked.values());
  console.log(
    `| ${label} | ${(n / secs).toFixed(0)} | ${(n / ((lastArrival - firstAck) / 1000)).toFixed(0)} | ${pct(lags, 50).toFixed(0)} ms | ${pct(lags, 99).toFixed(0)} ms | ${lags[lags.length - 1].toFixed(0)} ms | ${(lastArrival - lastAck).toFixed(0)} ms | ${cpuMs.toFixed(2)} ms |`,
  );
  return pct(lags, 99);
}

async function flow() {
  const source = await ApiserverChild.start('memory', ['--watch-history=1000000']);
  const target = await ApiserverChild.start('memory', ['--watch-history=1000000']);
  const c = await startMirror(target, source);
  const watcher = await watchCopies(target);
  const src = clients(source.url);
  console.log(
    '| step | written/s | mirrored/s | lag p50 | lag p99 | lag max | catch-up after the last write | controller CPU per event |\n|---|---|---|---|---|---|---|---|',
  );
  const pid = c.proc.pid;
  const p99 = await step(`sustained ${rate}/s for ${seconds} s`, src, watcher, 's', rate * seconds, rate, pid);
  await step(`burst ${burst}/s for ${burstSeconds} s`, src, watcher, 'b', burst * burstSeconds, burst, pid);
  console.log(`\nsustained lag p99 ${p99.toFixed(0)} ms: target ≤ 2000 ms ${p99 <= 2000 ? 'met' : 'NOT met'}`);
  // pino's levels: 40 is warn.
  const warnings = c.output.split('\n').filter((l) => l.includes('"level":40,'));
  console.log(
    `controller warnings: ${warnings.length}${warnings.length ? ` (first: ${warnings[0].slice(0, 300)})` : ''}; bench watcher restarts: ${watcher.restarts()}`,
  );
  watcher.stop();
  await c.stop();
  await target.stop();
  await source.stop();
}

async function memory() {
  const source = await ApiserverChild.start('memory', ['--watch-history=1000000']);
  const target = await ApiserverChild.start('memory', ['--watch-history=1000000']);
  // The same controller against empty servers: the baseline.
  const empty = await startMirror(target, source, true);
  await new Promise((r) => setTimeout(r, 3000));
  const base = rssMiB(empty.proc.pid);
  const baseHeap = await liveHeapMiB(empty);
  await empty.stop();
  const { secs } = await write(clients(source.url), 'f', fill, 0);
  console.log(`wrote ${fill} events to the source in ${secs.toFixed(1)} s`);
  const t0 = performance.now();
  const c = await startMirror(target, source, true);
  const { events } = clients(target.url);
  await waitFor(
    async () => {
      // No remainingItemCount with a label selector (as in Kubernetes): count every copy.
      const l = await events.list({ labelSelector: 'kevents.io/cluster=bench' });
      if (l.items.length >= fill) return true;
      // A list of every copy is not free for kevents: not too often.
      await new Promise((r) => setTimeout(r, 5000));
      return false;
    },
    900_000,
    () => 'not all mirrored',
  );
  const secsMirror = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  const rss = rssMiB(c.proc.pid);
  const heap = await liveHeapMiB(c);
  const per = (mib, baseMib) => (((mib - baseMib) * 1024 * 1024) / fill).toFixed(0);
  console.log(
    `mirrored ${fill} events from a cold start in ${secsMirror.toFixed(1)} s (${(fill / secsMirror).toFixed(0)}/s, at most the last 5 s of polling late)`,
  );
  console.log(
    `controller live heap after a full GC: ${baseHeap.toFixed(1)} MiB empty, ${heap.toFixed(1)} MiB with ${fill} mirrored: **${per(heap, baseHeap)} bytes per mirrored event**; RSS ${base.toFixed(0)} MiB empty, ${rss.toFixed(0)} MiB: ${per(rss, base)} bytes per event (with the garbage V8 has not returned)`,
  );
  await c.stop();
  await target.stop();
  await source.stop();
}

console.log(`\n#### Flow (${rate}/s sustained, then a burst of ${burst}/s)\n`);
await flow();
console.log(`\n#### Memory (${fill} events)\n`);
await memory();
process.exit(0);
