#!/usr/bin/env node
// Controller benchmark (`npm run bench -- --only=controller`), against a real kevents-apiserver
// (memory store) and a real kevents-controller, both child processes:
//  1. fold rate: isomorphic events written at a paced rate over 50 series for --seconds each
//     step; after each step, the backlog (events not yet folded) and how long folding lagged
//     behind the writes. The controller keeps up when the backlog stays small and the lag is
//     well under a second.
//  2. expiry: --expire (default 100,000) events written while no controller runs, which is then
//     started with --event-ttl=1s (retention counts from an event's last write, so they are
//     past their TTL once written); then the time from the controller's start to an empty namespace, and
//     the controller's peak RSS (the cache holds every event while it works).
// Flags: --seconds=N (default 10), --rates=250,500,1000,2000, --expire=N; env CONTROLLER_NODE_OPTIONS
// passes Node options to the controller only.
import './lib/help.js';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiserverChild, ChildRun, testClients, testEvent, waitFor } from '@kevents/controller-runtime/testing';

const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const seconds = Number(arg('seconds', '10'));
const rates = arg('rates', '250,500,1000,2000').split(',').map(Number);
const expireN = Number(arg('expire', '100000'));
// Node options for the controller only, e.g. --max-old-space-size=256 to see that its heap stays bounded.
const controllerNodeOptions = (process.env['CONTROLLER_NODE_OPTIONS'] ?? '').split(' ').filter(Boolean);
const controllerMain = fileURLToPath(new URL('../../apps/controller/dist/main.js', import.meta.url));

function startController(url, args) {
  const c = new ChildRun(
    spawn(
      process.execPath,
      [
        ...controllerNodeOptions,
        controllerMain,
        `--server=${url}`,
        '--leader-elect=false',
        '--health-probe-bind-address=0',
        ...args,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  return c;
}

function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Events in a namespace, from one `limit=1` list (`remainingItemCount` + 1). */
async function countEvents(events, namespace) {
  const l = await events.list({ namespace, limit: 1 });
  return l.items.length + (l.metadata.remainingItemCount ?? 0);
}

async function foldRate() {
  const api = await ApiserverChild.start('memory', ['--watch-history=1000000']);
  const c = startController(api.url, ['--controllers=series']);
  await waitFor(
    () => c.output.includes('controllers started'),
    30_000,
    () => c.output,
  );
  const { events } = testClients(api.url);
  console.log('| offered rate (events/s) | written/s | max backlog | fold lag after the last write | result |');
  console.log('|---|---|---|---|---|');
  let step = 0;
  for (const rate of rates) {
    const ns = `fold-${step++}`;
    const series = 50;
    const total = rate * seconds;
    let next = 0;
    let maxBacklog = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxBacklog = Math.max(maxBacklog, (await countEvents(events, ns)) - series);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const t0 = performance.now();
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const due = t0 + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await events.create(
          testEvent(`e-${i}`, ns, { regarding: { kind: 'Pod', name: `pod-${i % series}`, namespace: ns } }),
        );
      }
    };
    await Promise.all(Array.from({ length: 128 }, worker));
    const writeSecs = (performance.now() - t0) / 1000;
    const tEnd = performance.now();
    await waitFor(
      async () => (await countEvents(events, ns)) === series,
      300_000,
      () => 'not folded',
    );
    const lag = performance.now() - tEnd;
    sampling = false;
    await sampler;
    const l = await events.list({ namespace: ns });
    const sum = l.items.reduce((n, e) => n + (e.series?.count ?? 1), 0);
    if (sum !== total) throw new Error(`fold lost or double-counted: ${sum} != ${total}`);
    const kept = lag < 1000 && total / writeSecs >= rate * 0.95;
    console.log(
      `| ${rate} | ${(total / writeSecs).toFixed(0)} | ${maxBacklog} | ${lag.toFixed(0)} ms | ${kept ? 'keeps up' : 'falls behind'} |`,
    );
  }
  await c.stop();
  await api.stop();
}

async function expiry() {
  const api = await ApiserverChild.start('memory', ['--watch-history=1000000']);
  const { events } = testClients(api.url);
  const ns = 'expire';
  const old = '2020-01-01T00:00:00.000000Z';
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= expireN) return;
      await events.create(
        testEvent(`x-${i}`, ns, { eventTime: old, regarding: { kind: 'Pod', name: `pod-${i}`, namespace: ns } }),
      );
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  console.log(`wrote ${expireN} expired events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = performance.now();
  const c = startController(api.url, ['--controllers=retention', '--event-ttl=1s', '--workers=16']);
  let peak = 0;
  const rss = setInterval(() => (peak = Math.max(peak, rssMiB(c.proc.pid))), 200);
  await waitFor(
    () => c.output.includes('caches synced'),
    120_000,
    () => c.output,
  );
  const synced = performance.now() - t1;
  await waitFor(
    async () => (await countEvents(events, ns)) === 0,
    900_000,
    () => 'not expired',
  );
  const secs = (performance.now() - t1) / 1000;
  clearInterval(rss);
  console.log(
    `expired ${expireN} events in ${secs.toFixed(1)} s from controller start (${(expireN / secs).toFixed(0)} deletes/s; cache synced after ${(synced / 1000).toFixed(1)} s); controller peak RSS ${peak.toFixed(0)} MiB`,
  );
  await c.stop();
  await api.stop();
}

console.log(`\n#### Fold rate (${seconds} s per step, 50 series)\n`);
await foldRate();
console.log(`\n#### Expiry of ${expireN} events\n`);
await expiry();
process.exit(0);
