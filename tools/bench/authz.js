#!/usr/bin/env node
// Authorization cost: create throughput of kevents-apiserver with a webhook authorizer whose cache
// is warm, against AlwaysAllow, in one run (rounds alternate which server goes first); then the
// cold path (cacheAuthorizedRequests: false, a SubjectAccessReview over HTTPS for every request)
// at one connection, whose latency is the price of a call to tools/example-webhook.
// Usage: node tools/bench/authz.js [--seconds=8] [--connections=32] [--warmup=4] [--rounds=3]   (after npm run build)
import './lib/help.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCA, generateLeaf } from '@kevents/authz/testing';
import { freePort, startNode, waitReady, cpuSeconds } from './lib/processes.js';
import { load } from './lib/load.js';
import { benchEvent as event } from './lib/bench-event.js';
import { apiserverMain, median, numberArg } from './lib/args.js';

const arg = numberArg;
const seconds = arg('seconds', 8);
const connections = arg('connections', 32);
const warmup = arg('warmup', 4);
const rounds = arg('rounds', 3);
const main = apiserverMain;
const exampleWebhook = fileURLToPath(new URL('../example-webhook/main.js', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'kevents-bench-authz-'));
const ca = await generateCA('bench-webhook-ca');
const serving = await generateLeaf(ca, 'server', ['localhost']);
writeFileSync(join(dir, 'tls.crt'), serving.cert);
writeFileSync(join(dir, 'tls.key'), serving.key);
writeFileSync(
  join(dir, 'rules.json'),
  JSON.stringify([
    { verbs: ['*'], resources: ['*'] },
    { verbs: ['*'], paths: ['*'] },
  ]),
);
const hookPort = await freePort();
const hook = startNode([
  exampleWebhook,
  `--rules=${join(dir, 'rules.json')}`,
  `--port=${hookPort}`,
  `--tls-cert-file=${join(dir, 'tls.crt')}`,
  `--tls-private-key-file=${join(dir, 'tls.key')}`,
]);
writeFileSync(
  join(dir, 'webhook.kubeconfig'),
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'hook',
        cluster: {
          server: `https://127.0.0.1:${hookPort}/authorize`,
          'certificate-authority-data': Buffer.from(ca.cert).toString('base64'),
        },
      },
    ],
    users: [{ name: 'kevents', user: {} }],
    contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'kevents' } }],
    'current-context': 'hook',
  }),
);
const authzConfig = (cache) =>
  JSON.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1beta1',
    kind: 'AuthorizationConfiguration',
    authorizers: [
      {
        type: 'Webhook',
        name: 'example',
        webhook: {
          timeout: '3s',
          subjectAccessReviewVersion: 'v1',
          failurePolicy: 'Deny',
          cacheAuthorizedRequests: cache,
          cacheUnauthorizedRequests: cache,
          connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: join(dir, 'webhook.kubeconfig') },
        },
      },
    ],
  });
writeFileSync(join(dir, 'warm.yaml'), authzConfig(true));
writeFileSync(join(dir, 'cold.yaml'), authzConfig(false));

async function server(authzFlags) {
  const port = await freePort();
  const p = startNode([
    main,
    `--insecure-port=${port}`,
    '--secure-port=0',
    '--log-level=warn',
    '--watch-history=1000',
    ...authzFlags,
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/readyz`);
  return { ...p, base: `${url}/apis/events.k8s.io/v1/namespaces/bench/events` };
}

const servers = {
  AlwaysAllow: await server(['--authorization-mode=AlwaysAllow']),
  'webhook (warm cache)': await server([`--authorization-config=${join(dir, 'warm.yaml')}`]),
};
const create = (name, s, withWarmup) =>
  load({
    title: `create, ${name}`,
    url: s.base,
    method: 'POST',
    body: event,
    headers: { 'content-type': 'application/json' },
    seconds,
    connections,
    pid: s.child.pid,
    warmupSeconds: withWarmup ? warmup : 0,
  });
const results = { AlwaysAllow: [], 'webhook (warm cache)': [] };
let cold;
const started = Date.now();
try {
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['AlwaysAllow', 'webhook (warm cache)'] : ['webhook (warm cache)', 'AlwaysAllow'];
    for (const name of order) results[name].push(await create(name, servers[name], r === 0));
  }
  for (const s of Object.values(servers)) await s.stop();
  const c = await server([`--authorization-config=${join(dir, 'cold.yaml')}`]);
  try {
    const hookCpu = cpuSeconds(hook.child.pid);
    const one = await load({
      title: 'create, webhook (no cache), 1 connection',
      url: c.base,
      method: 'POST',
      body: event,
      headers: { 'content-type': 'application/json' },
      seconds,
      connections: 1,
      pid: c.child.pid,
      warmupSeconds: warmup,
    });
    const many = await load({
      title: `create, webhook (no cache), ${connections} connections`,
      url: c.base,
      method: 'POST',
      body: event,
      headers: { 'content-type': 'application/json' },
      seconds,
      connections,
      pid: c.child.pid,
    });
    cold = { one, many, hookCpu: cpuSeconds(hook.child.pid) - hookCpu };
  } finally {
    await c.stop();
  }
} finally {
  for (const s of Object.values(servers)) await s.stop();
  await hook.stop();
}

console.log(
  `| create, ${connections} connections, ${seconds}s | req/s (median of ${rounds}) | p50 ms | p99 ms | server CPU µs/create |`,
);
console.log('|---|---|---|---|---|');
for (const [name, rs] of Object.entries(results)) {
  console.log(
    `| ${name} | ${Math.round(median(rs.map((x) => x.rps))).toLocaleString('en')} | ${median(rs.map((x) => x.p50))} | ${median(rs.map((x) => x.p99))} | ${median(rs.map((x) => x.cpuPerRequestUs)).toFixed(1)} |`,
  );
}
const ratio = median(results['webhook (warm cache)'].map((x) => x.rps)) / median(results.AlwaysAllow.map((x) => x.rps));
console.log(
  `\nwarm-cache webhook / AlwaysAllow create throughput: ${ratio.toFixed(3)} (rounds: ${results.AlwaysAllow.map((a, i) => (results['webhook (warm cache)'][i].rps / a.rps).toFixed(3)).join(', ')})`,
);
console.log(
  '\n| cold path (a SubjectAccessReview per create) | req/s | mean latency ms | p50 ms | p99 ms | server CPU µs/create |',
);
console.log('|---|---|---|---|---|---|');
for (const [x, conns] of [
  [cold.one, 1],
  [cold.many, connections],
])
  console.log(
    `| ${x.title.replace('create, webhook (no cache), ', '')} | ${Math.round(x.rps).toLocaleString('en')} | ${((1000 * conns) / x.rps).toFixed(2)} | ${x.p50} | ${x.p99} | ${x.cpuPerRequestUs.toFixed(1)} |`,
  );
const warm = median(results.AlwaysAllow.map((x) => 1000 / x.rps));
console.log(
  `\ncold path, 1 connection: ${(1000 / cold.one.rps - 0).toFixed(2)} ms per create (the AlwaysAllow create at 32 connections costs ${(warm * connections).toFixed(2)} ms of wall time per request); webhook process CPU during the cold runs: ${cold.hookCpu.toFixed(1)} s`,
);
console.log(
  `\ntook ${Math.round((Date.now() - started) / 1000)} s on ${(await import('node:os')).cpus().length} cores`,
);
