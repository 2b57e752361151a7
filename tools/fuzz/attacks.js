#!/usr/bin/env node
// The resource attacks of the security issue, replayed against a real kevents-apiserver process
// while a second client probes /livez every 20 ms: for each attack, the answers it got, the
// server's RSS growth (from /proc) and the slowest /livez answer during it. Exits 1 when an
// attack got a 5xx, when /livez stalled past --max-stall-ms (default 100) or RSS grew past
// --max-rss-growth-mb (default 50).
// Usage (after npm run build):
//   node tools/fuzz/attacks.js [--storage=memory|redis://127.0.0.1:6379/0] [--max-stall-ms=100]
//                              [--max-rss-growth-mb=50]
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort, startNode, waitReady } from '../bench/lib/processes.js';

const opt = (name, def) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split('=')
    .slice(1)
    .join('=') ?? def;
if (process.argv.includes('--help')) {
  console.log(
    'node tools/fuzz/attacks.js [--storage=memory|redis://HOST:PORT/DB] [--max-stall-ms=100] [--max-rss-growth-mb=50]',
  );
  process.exit(0);
}
const storage = opt('storage', 'memory');
const maxStallMs = Number(opt('max-stall-ms', 100));
const maxGrowthMB = Number(opt('max-rss-growth-mb', 50));
const main = fileURLToPath(new URL('../../apps/apiserver/dist/main.js', import.meta.url));

const rssMB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One request; resolves with the status and body text. */
function call(port, method, path, body, contentType = 'application/json') {
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: body === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

/** Probes /livez every 20 ms until stopped; resolves with the slowest answer in ms. */
function probe(port) {
  let stop = false;
  let worst = 0;
  const done = (async () => {
    while (!stop) {
      const t = performance.now();
      await call(port, 'GET', '/livez');
      worst = Math.max(worst, performance.now() - t);
      await sleep(20);
    }
    return worst;
  })();
  return () => {
    stop = true;
    return done;
  };
}

const ns = '/apis/events.k8s.io/v1/namespaces/attack/events';
/** The watch attacks' namespace: its initial events are small. */
const wns = '/apis/events.k8s.io/v1/namespaces/attack-w/events';
const event = (name, extra = {}, namespace = 'attack') =>
  JSON.stringify({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace, ...extra },
    eventTime: '2026-11-01T10:00:00.000000Z',
    reportingController: 'example.com/attacks',
    reportingInstance: 'attacks-1',
    action: 'Attack',
    reason: 'Attack',
    type: 'Normal',
    note: 'attack',
    regarding: { kind: 'Pod', namespace, name: 'web-0' },
  });

const jsonPatch = 'application/json-patch+json';
const attacks = [
  {
    name: 'JSON patch: move the document into its own child',
    run: async (port) => [
      await call(port, 'PATCH', `${ns}/a1`, '[{"op":"move","path":"/metadata/annotations","from":""}]', jsonPatch),
    ],
  },
  {
    name: 'JSON patch: 40 copies of /metadata into itself',
    run: async (port) => [
      await call(
        port,
        'PATCH',
        `${ns}/a1`,
        JSON.stringify(
          Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/c${i}` })),
        ),
        jsonPatch,
      ),
    ],
  },
  {
    name: 'JSON patch: 10,001 operations',
    run: async (port) => [
      await call(
        port,
        'PATCH',
        `${ns}/a1`,
        JSON.stringify(Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'Event' }))),
        jsonPatch,
      ),
    ],
  },
  {
    name: 'JSON patch: 10,000 inserts at the head of a 50,000-item list (the work budget)',
    setup: async (port) => {
      const fin = Array.from({ length: 50_000 }, (_, i) => `example.com/f${i}`);
      return [await call(port, 'POST', ns, event('a2', { finalizers: fin }))];
    },
    run: async (port) => {
      const ops = Array.from({ length: 10_000 }, () => ({
        op: 'add',
        path: '/metadata/finalizers/0',
        value: 'example.com/x',
      }));
      return [await call(port, 'PATCH', `${ns}/a2`, JSON.stringify(ops), jsonPatch)];
    },
  },
  {
    name: '30 POSTs announcing 1 MB that drip a byte a second, answered 403 (AlwaysDeny; open after 5 s)',
    deny: true,
    run: async (port) => {
      const socks = Array.from({ length: 30 }, () => {
        const s = connect(port, '127.0.0.1');
        s.on('error', () => {});
        s.write(`POST ${ns} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{`);
        return s;
      });
      const timer = setInterval(() => socks.forEach((s) => s.writable && s.write(' ')), 1000);
      await sleep(5000);
      clearInterval(timer);
      const open = socks.filter((s) => !s.destroyed && s.readyState === 'open').length;
      socks.forEach((s) => s.destroy());
      return [{ status: 0, text: `${open} of 30 still open` }];
    },
  },
  {
    name: '6,000 creates, 50 at a time (the baseline of the next line)',
    run: async (port) => {
      const out = [];
      for (let i = 0; i < 6000; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            call(port, 'POST', wns, event(`b-${i + j}`, { labels: { pad: 'x'.repeat(60) } }, 'attack-w')),
          ),
        );
        if (i === 0) out.push(batch[0]);
      }
      return out;
    },
  },
  {
    name: '30 watches that never read, then 6,000 creates',
    run: async (port) => {
      const socks = Array.from({ length: 30 }, () => {
        const s = connect(port, '127.0.0.1');
        s.on('error', () => {});
        s.write(`GET ${wns}?watch=1&resourceVersion=0 HTTP/1.1\r\nHost: x\r\n\r\n`);
        s.pause();
        return s;
      });
      await sleep(500);
      const out = [];
      for (let i = 0; i < 6000; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            call(port, 'POST', wns, event(`w-${i + j}`, { labels: { pad: 'x'.repeat(60) } }, 'attack-w')),
          ),
        );
        if (i === 0) out.push(batch[0]);
      }
      const open = socks.filter((s) => !s.destroyed && s.readyState === 'open').length;
      socks.forEach((s) => s.destroy());
      out.push({ status: 0, text: `${open} of 30 watches still open` });
      return out;
    },
  },
];

/** V8's young generation size from /metrics, in MiB. */
async function newSpaceMB(port) {
  const { text } = await call(port, 'GET', '/metrics');
  const m = /nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/.exec(text);
  return m ? Number(m[1]) / 2 ** 20 : 0;
}

/**
 * Ordinary load (creates and lists in a namespace of its own) until V8's young generation stops
 * growing: V8 doubles it under any sustained allocation (64 → 128 MiB by default on this machine),
 * which would otherwise be counted against whichever attack happens to run when it grows.
 */
async function warmUp(port) {
  const sizes = [await newSpaceMB(port)];
  const warm = '/apis/events.k8s.io/v1/namespaces/warm-up/events';
  for (let round = 0, steady = 0; round < 60 && steady < 12; round++) {
    for (let i = 0; i < 1000; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          call(port, 'POST', warm, event(`r${round}-${i + j}`, { labels: { pad: 'x'.repeat(60) } }, 'warm-up')),
        ),
      );
    await Promise.all(Array.from({ length: 4 }, () => call(port, 'GET', `${warm}?limit=500`)));
    const size = await newSpaceMB(port);
    steady = size === sizes.at(-1) ? steady + 1 : 0;
    if (size !== sizes.at(-1)) sizes.push(size);
  }
  return sizes;
}

const port = await freePort();
const denyPort = await freePort();
const args = (p) => [main, `--insecure-port=${p}`, '--secure-port=0', `--storage=${storage}`, '--log-level=warn'];
const server = startNode(args(port));
const denying = startNode([...args(denyPort), '--authorization-mode=AlwaysDeny']);
let failed = false;
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  await waitReady(`http://127.0.0.1:${denyPort}/readyz`);
  await call(port, 'POST', ns, event('a1'));
  for (const p of [port, denyPort]) {
    const sizes = await warmUp(p);
    console.log(`warm-up on port ${p}: V8 new space ${sizes.join(' → ')} MiB`);
  }
  console.log(
    `kevents-apiserver pid ${server.child.pid} (and pid ${denying.child.pid} with AlwaysDeny) on ${storage}; /livez probed every 20 ms`,
  );
  console.log('| attack | answers | RSS growth | slowest /livez |');
  console.log('| --- | --- | --- | --- |');
  for (const a of attacks) {
    const [p, pid] = a.deny ? [denyPort, denying.child.pid] : [port, server.child.pid];
    await sleep(300);
    const prepared = a.setup ? await a.setup(p) : [];
    await sleep(300);
    const before = rssMB(pid);
    const stop = probe(p);
    const answers = await a.run(p);
    await sleep(300);
    const stall = await stop();
    const growth = rssMB(pid) - before;
    const codes = [...prepared, ...answers].map((r) => (r.status ? `${r.status}` : r.text)).join(', ');
    const bad = [...prepared, ...answers].some((r) => r.status >= 500) || stall > maxStallMs || growth > maxGrowthMB;
    failed ||= bad;
    console.log(`| ${a.name} | ${codes} | ${growth.toFixed(1)} MiB | ${stall.toFixed(0)} ms${bad ? ' (FAIL)' : ''} |`);
  }
  if (server.child.exitCode !== null || denying.child.exitCode !== null) {
    console.log('a server process exited');
    failed = true;
  }
} finally {
  await Promise.all([server.stop(), denying.stop()]);
}
process.exit(failed ? 1 : 0);
