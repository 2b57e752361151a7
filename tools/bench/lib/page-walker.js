#!/usr/bin/env node
// Walks every page of a list on one keep-alive connection and prints one JSON line: each page's
// time from the request to its last body byte, the items and bytes, and how much of the walker's
// own garbage collection fell inside those timed windows. Run as a process of its own by user.js:
// a client that did nothing else, so that its heap is small. With --collect-between-pages (and
// node --expose-gc), it collects its garbage after each page, once the page is timed and parsed,
// so that no collection of its own lands in the next page's window (a Go client such as kubectl
// would not pause there either).
// Usage: node [--expose-gc] tools/bench/lib/page-walker.js --port=N --path=/apis/... [--limit=500] [--collect-between-pages]
import { Agent, request } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { numberArg, stringArg } from './args.js';

const port = numberArg('port', 0);
const path = stringArg('path', '/apis/events.k8s.io/v1/events');
const limit = numberArg('limit', 500);
const collect = process.argv.includes('--collect-between-pages');
if (collect && typeof globalThis.gc !== 'function') {
  console.error('page-walker: --collect-between-pages needs node --expose-gc');
  process.exit(2);
}

const gcs = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ['gc'] });

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path: url, agent }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode, started, ended: performance.now(), body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const windows = [];
let items = 0;
let bytes = 0;
let cont = '';
const start = process.hrtime.bigint();
do {
  const r = await get(`${path}?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
  if (r.status !== 200) throw new Error(`list: ${r.status} ${r.body.toString().slice(0, 200)}`);
  windows.push([r.started, r.ended]);
  bytes += r.body.length;
  const body = JSON.parse(r.body.toString());
  items += body.items.length;
  cont = body.metadata.continue ?? '';
  if (collect) globalThis.gc();
} while (cont);
agent.destroy();
const end = process.hrtime.bigint();
// The garbage collection of this process that overlapped the timed windows (GC entries arrive asynchronously).
await new Promise((r) => setImmediate(r));
let ownGcMs = 0;
for (const [s, e] of windows)
  for (const [gs, ge] of gcs) if (gs < e && ge > s) ownGcMs += Math.min(e, ge) - Math.max(s, gs);
console.log(
  JSON.stringify({
    monotonicUs: [start / 1000n, end / 1000n].map(Number),
    ms: windows.map(([s, e]) => e - s),
    items,
    bytes,
    ownGcMsInWindows: ownGcMs,
  }),
);
