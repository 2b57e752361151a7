#!/usr/bin/env node
// How long one JSON patch of ~3 MiB holds the apiserver's event loop, shape by shape
// (lib/json-patch-bodies.js), as another client sees it: the built kevents-apiserver (memory
// store) is started, an Event created, and each shape sent as a PATCH (application/json-patch+json,
// the default fieldValidation=Warn) --rounds times after one warm-up, one at a time, while a second
// connection asks /livez again as soon as it is answered. Reports the answer and the longest /livez
// wait during each PATCH (median and max over the rounds). With --old=<checkout> (built), that
// checkout's server is started too and measured alternately with this one's, shape by shape.
// Usage: npm run build && node tools/bench/body-hold.js [--old=/path/to/checkout] [--rounds=5]
//          [--shapes=digits,deep-nesting] [--mib=3]
import './lib/help.js';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { apiserverMain, median, numberArg, stringArg } from './lib/args.js';
import { freePort, startNode, waitReady } from './lib/processes.js';
import { bodyBytes, jsonPatchShapes } from './lib/json-patch-bodies.js';

const rounds = numberArg('rounds', 5);
const oldRoot = stringArg('old', '');
const only = stringArg('shapes', '');
const bytes = Math.round(numberArg('mib', 0) * 1024 * 1024) || bodyBytes;
const eventPath = '/apis/events.k8s.io/v1/namespaces/default/events';

/** A started server: its base URL and its two connections (writes, probes). */
async function start(main) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  startNode([main, `--insecure-port=${port}`, '--secure-port=0', '--log-level=warn']);
  await waitReady(`${base}/readyz`);
  return {
    base,
    writer: new Agent({ keepAlive: true, maxSockets: 1 }),
    prober: new Agent({ keepAlive: true, maxSockets: 1 }),
  };
}

function call(server, path, { method = 'GET', body, type = 'application/json', agent = server.writer } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.base}${path}`,
      { method, agent, headers: body ? { 'content-type': type } : {} },
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

const event = JSON.stringify({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'patched', namespace: 'default' },
  eventTime: '2026-01-01T00:00:00.000000Z',
  reportingController: 'example.com/bench',
  reportingInstance: 'bench-1',
  action: 'Bench',
  reason: 'Patched',
  type: 'Normal',
  regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
});

/** One PATCH while /livez is asked back to back on the other connection: status, longest wait. */
async function measured(server, body) {
  let longest = 0;
  let running = true;
  const probing = (async () => {
    while (running) {
      const t = performance.now();
      await call(server, '/livez', { agent: server.prober });
      longest = Math.max(longest, performance.now() - t);
    }
  })();
  await new Promise((r) => setTimeout(r, 20));
  const status = await call(server, `${eventPath}/patched`, {
    method: 'PATCH',
    body,
    type: 'application/json-patch+json',
  });
  running = false;
  await probing;
  return { status, longest };
}

const servers = [['new', await start(apiserverMain)]];
if (oldRoot) servers.unshift(['old', await start(resolve(oldRoot, 'apps/apiserver/dist/main.js'))]);
for (const [, s] of servers) await call(s, eventPath, { method: 'POST', body: event });

console.log(
  `longest /livez wait during one PATCH, ms: median (max) of ${rounds}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const rows = [];
for (const [name, make] of Object.entries(jsonPatchShapes)) {
  if (only && !only.split(',').includes(name)) continue;
  const body = make(bytes);
  const got = Object.fromEntries(servers.map(([label]) => [label, []]));
  for (let r = 0; r <= rounds; r++) {
    const order = r % 2 === 0 ? servers : [...servers].reverse();
    for (const [label, s] of order) {
      const m = await measured(s, body);
      if (r > 0) got[label].push(m);
    }
  }
  const row = { shape: name };
  for (const [label] of servers) {
    const ms = got[label].map((m) => m.longest);
    row[label] = `${median(ms).toFixed(0)} (${Math.max(...ms).toFixed(0)})`;
    row[`${label} status`] = [...new Set(got[label].map((m) => m.status))].join('/');
  }
  rows.push(row);
}
console.table(rows);
process.exit(0);
