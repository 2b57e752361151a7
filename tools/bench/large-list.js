#!/usr/bin/env node
// Large unpaged lists (issue 11): starts the built kevents-apiserver (memory store), creates
// --events events (default 200,000), then
//   1. one unpaged GET /api/v1/events, read as fast as possible, while /livez is probed every 10 ms:
//      list time, list size, /livez p50/p99/max;
//   2. --lists (default 10) unpaged lists at once: peak RSS (process_resident_memory_bytes from
//      /metrics, sampled every 100 ms) and time.
// Usage: npm run build && node tools/bench/large-list.js [--events=200000] [--lists=10]
import './lib/help.js';
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { createServer } from 'node:net';
import { apiserverMain, numberArg } from './lib/args.js';

const arg = numberArg;
const events = arg('events', 200_000);
const lists = arg('lists', 10);
const main = apiserverMain;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const proc = spawn(process.execPath, [main, `--insecure-port=${port}`, '--secure-port=0', '--log-level=warn'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.on('exit', () => proc.kill('SIGKILL'));
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves with status, byte count and the body (unless `discard`). */
function call(path, { method = 'GET', body, discard = false } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    const req = request(
      `${base}${path}`,
      { method, agent, headers: payload ? { 'content-type': 'application/json' } : {} },
      (res) => {
        const firstByteMs = performance.now() - started;
        let bytes = 0;
        const chunks = [];
        res.on('data', (d) => {
          bytes += d.length;
          if (!discard) chunks.push(d);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            bytes,
            firstByteMs,
            text: discard ? '' : Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

for (let i = 0; ; i++) {
  if ((await call('/livez').catch(() => ({ status: 0 }))).status === 200) break;
  if (i > 200) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 50));
}

const t0 = Date.now();
const event = (i) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `ev-${i}`, namespace: `ns-${i % 50}` },
  involvedObject: { kind: 'Pod', name: `pod-${i}`, namespace: `ns-${i % 50}` },
  reason: 'Scheduled',
  message: `Successfully assigned ns-${i % 50}/pod-${i} to node-${i % 20} with a message long enough to look real`,
  type: 'Normal',
  source: { component: 'default-scheduler' },
  firstTimestamp: '2026-01-02T03:04:05Z',
  lastTimestamp: '2026-01-02T03:04:05Z',
  count: 1,
});
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < events) {
      const i = next++;
      const r = await call(`/api/v1/namespaces/ns-${i % 50}/events`, { method: 'POST', body: event(i), discard: true });
      if (r.status !== 201) throw new Error(`create answered ${r.status}`);
    }
  }),
);
console.log(`created ${events} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

async function probeWhile(work) {
  const samples = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      const s = performance.now();
      await call('/livez');
      samples.push(performance.now() - s);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const result = await work();
  done = true;
  await probing;
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]?.toFixed(1);
  return {
    result,
    livez: `n=${samples.length} p50=${q(0.5)} ms p99=${q(0.99)} ms max=${samples.at(-1)?.toFixed(1)} ms`,
  };
}

const rss = async () => {
  const m = await call('/metrics');
  return Number(/^process_resident_memory_bytes (\S+)$/m.exec(m.text)?.[1] ?? NaN);
};

const one = await probeWhile(async () => {
  const s = performance.now();
  const r = await call('/api/v1/events', { discard: true });
  return { ms: performance.now() - s, bytes: r.bytes, firstByteMs: r.firstByteMs };
});
console.log(
  `one unpaged list: ${(one.result.bytes / 2 ** 20).toFixed(1)} MiB in ${one.result.ms.toFixed(0)} ms (first byte after ${one.result.firstByteMs.toFixed(0)} ms); /livez meanwhile: ${one.livez}`,
);

const before = await rss();
let peak = before;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    peak = Math.max(peak, await rss());
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const many = await probeWhile(async () => {
  const s = performance.now();
  await Promise.all(Array.from({ length: lists }, () => call('/api/v1/events', { discard: true })));
  return { ms: performance.now() - s };
});
sampling = false;
await sampler;
console.log(
  `${lists} unpaged lists at once: ${many.result.ms.toFixed(0)} ms; RSS before ${(before / 2 ** 20).toFixed(0)} MiB, peak ${(peak / 2 ** 20).toFixed(0)} MiB; /livez meanwhile: ${many.livez}`,
);
proc.kill('SIGTERM');
agent.destroy();
