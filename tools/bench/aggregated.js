#!/usr/bin/env node
// Aggregated-mode cost, in one run. kevents processes on the memory store, all HTTPS:
// `anon` (no authentication or authorization configured: every request is system:anonymous),
// `aggregated` (--requestheader-client-ca-file with an allowed name, --authorization-kubeconfig
// pointing at a SubjectAccessReview stand-in over HTTPS that allows everything, and
// --authorization-always-allow-groups=system:masters,system:unauthenticated) and, with
// --control=1 (the default), `control`, the same as `anon`. Every load presents the same
// front-proxy client certificate (so TLS costs the same). Per round, in ABBA order:
//   anonymous      -> anon, no front-proxy headers
//   aggregated     -> aggregated, X-Remote-User/X-Remote-Group: authenticated from the headers
//                     (the certificate chain verified once per connection) and authorized from
//                     the warm SubjectAccessReview cache (10 s; the stand-in is asked about once
//                     per 10 s)
//   sameAnonymous  -> aggregated, no front-proxy headers: system:anonymous through the configured
//                     chain, let through by the always-allowed group without a review
//   control        -> control, no front-proxy headers
// Issue 31's bar is >= 0.90 of anonymous creates. Against anonymous creates in the SAME process
// (sameAnonymous) the ratio is the front-proxy headers' and the delegated authorizer's own cost, as
// authn.js measures a token's; against `anon` it also holds whatever else the configured process
// does differently. Both are reported, with control/anonymous, the spread between two identical
// processes on this machine (0.78-1.11 as medians of a run), which is wider than the bar's
// margin. Every round starts the processes afresh (a process keeps its speed for its life: two
// identical ones differed by 1.3x round after round), in an order that turns with the round,
// empties the store before each load (the aggregated process takes two loads, and a create costs
// more in a store that holds more: a profile put ~60% of that process's extra CPU per create in
// the store and the codecs), and warms each load up. Results: medians of per-round throughput ratios, of server CPU per create,
// and the SubjectAccessReviews sent.
// Usage: node tools/bench/aggregated.js [--seconds=3] [--connections=32] [--warmup=3] [--rounds=6]
//        [--control=1] (after npm run build)
import './lib/help.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { generateCA, generateClientCert } from '@kevents/authn/testing';
import { WebhookServer, subjectAccessReviewPath } from '@kevents/authz/testing';
import { cpuSeconds, freePort, startNode } from './lib/processes.js';
import { benchEvent as event } from './lib/bench-event.js';
import { apiserverMain, median, numberArg } from './lib/args.js';

const seconds = numberArg('seconds', 3);
const connections = numberArg('connections', 32);
const warmupSeconds = numberArg('warmup', 3);
const rounds = numberArg('rounds', 6);
const withControl = numberArg('control', 1) !== 0;

/** Resolves once `url` answers 200 over HTTPS (self-signed serving certificate). */
async function waitReadyTLS(url, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const req = httpsRequest(url, { rejectUnauthorized: false, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`${url} did not become ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Deletes every Event in namespace `bench` (deletecollection, anonymous: allowed on every process
 * here), so that each load starts on an empty store: the process that takes two loads would
 * otherwise hold twice the events of the one that takes one, and a create costs more in a larger
 * store (its sorted index, its heap).
 */
function emptyBench(port, cert) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `https://127.0.0.1:${port}/apis/events.k8s.io/v1/namespaces/bench/events`,
      { method: 'DELETE', rejectUnauthorized: false, agent: false, cert: cert.cert, key: cert.key },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`deletecollection: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function create(title, port, pid, cert, headers, warm) {
  const o = {
    url: `https://127.0.0.1:${port}/apis/events.k8s.io/v1/namespaces/bench/events`,
    method: 'POST',
    body: event,
    headers: { 'content-type': 'application/json', ...headers },
    connections,
    pipelining: 1,
    tlsOptions: { cert: cert.cert, key: cert.key },
  };
  if (warm) await autocannon({ ...o, duration: warm });
  const before = cpuSeconds(pid);
  process.stderr.write(`  ${title}: ${seconds}s with ${connections} connections ... `);
  const r = await autocannon({ ...o, duration: seconds });
  const after = cpuSeconds(pid);
  const bad = r.non2xx + r.errors + r.timeouts;
  const cpu = before !== undefined && after !== undefined ? ((after - before) / r.requests.total) * 1e6 : undefined;
  process.stderr.write(
    `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${cpu ? `, server CPU ${cpu.toFixed(0)} µs/request` : ''}${bad ? `, ${bad} failed` : ''}\n`,
  );
  if (bad) throw new Error(`${bad} requests failed: ${title}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuPerRequestUs: cpu };
}

export async function runAggregatedBench() {
  const dir = mkdtempSync(join(tmpdir(), 'kevents-bench-aggregated-'));
  const frontProxyCA = await generateCA('front-proxy-ca');
  const proxy = await generateClientCert(frontProxyCA, 'front-proxy-client');
  const sar = await WebhookServer.start({ token: 'delegator', path: subjectAccessReviewPath });
  const caFile = join(dir, 'front-proxy-ca.crt');
  writeFileSync(caFile, frontProxyCA.cert);
  const kubeconfig = join(dir, 'cluster.kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      clusters: [
        {
          name: 'c',
          cluster: {
            server: new URL(sar.url).origin,
            'certificate-authority-data': Buffer.from(sar.ca.cert).toString('base64'),
          },
        },
      ],
      users: [{ name: 'u', user: { token: 'delegator' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  const common = ['--insecure-port=0', '--log-level=warn', '--watch-history=10000'];
  const configs = {
    anon: [],
    ...(withControl ? { control: [] } : {}),
    aggregated: [
      `--requestheader-client-ca-file=${caFile}`,
      '--requestheader-allowed-names=front-proxy-client',
      `--authorization-kubeconfig=${kubeconfig}`,
      '--authorization-always-allow-groups=system:masters,system:unauthenticated',
    ],
  };
  // Fresh processes every round: one process keeps its speed for its life (two identical ones
  // were 135 and 179 µs a create, round after round), so the rounds sample that too. The order
  // they start in turns with the round: the first one started was the fastest more often than not.
  const startServers = async (round) => {
    const servers = {};
    const entries = Object.entries(configs);
    const turned = [...entries.slice(round % entries.length), ...entries.slice(0, round % entries.length)];
    for (const [name, extra] of turned) {
      const port = await freePort();
      servers[name] = { port, process: startNode([apiserverMain, `--secure-port=${port}`, ...common, ...extra]) };
    }
    for (const s of Object.values(servers)) await waitReadyTLS(`https://127.0.0.1:${s.port}/readyz`);
    return servers;
  };
  const modes = [
    { key: 'anonymous', title: 'create, anonymous (nothing configured)', server: 'anon', headers: {} },
    {
      key: 'aggregated',
      title: 'create, front-proxy headers + warm SubjectAccessReview cache',
      server: 'aggregated',
      headers: { 'X-Remote-User': 'alice', 'X-Remote-Group': 'devs' },
    },
    {
      key: 'sameAnonymous',
      title: 'create, anonymous on the aggregated process (no front-proxy headers)',
      server: 'aggregated',
      headers: {},
    },
    ...(withControl
      ? [
          {
            key: 'control',
            title: 'create, anonymous (control: a second identical process)',
            server: 'control',
            headers: {},
          },
        ]
      : []),
  ];
  const results = { rounds: [], connections, seconds };
  let servers = {};
  try {
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`== round ${r + 1} of ${rounds} (fresh processes)\n`);
      servers = await startServers(r);
      const round = {};
      for (const m of r % 2 === 0 ? modes : [...modes].reverse()) {
        const s = servers[m.server];
        await emptyBench(s.port, proxy);
        round[m.key] = await create(m.title, s.port, s.process.child.pid, proxy, m.headers, warmupSeconds);
      }
      results.rounds.push(round);
      await Promise.all(Object.values(servers).map((s) => s.process.stop()));
      servers = {};
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.process.stop()));
    await sar.close();
    rmSync(dir, { recursive: true, force: true });
  }
  // Medians over the rounds of load `a` against load `b`: throughput and server CPU per create.
  const compared = (a, b) => {
    const ratios = results.rounds.map((r) => r[a].rps / r[b].rps);
    const cpu = results.rounds
      .filter((r) => r[a].cpuPerRequestUs && r[b].cpuPerRequestUs)
      .map((r) => r[a].cpuPerRequestUs / r[b].cpuPerRequestUs);
    return { ratios, ratio: median(ratios), cpuRatio: cpu.length ? median(cpu) : undefined };
  };
  const across = compared('aggregated', 'anonymous');
  results.ratio = across.ratio;
  results.ratios = across.ratios;
  results.cpuRatio = across.cpuRatio;
  const same = compared('aggregated', 'sameAnonymous');
  results.sameProcessRatios = same.ratios;
  results.sameProcessRatio = same.ratio;
  results.sameProcessCpuRatio = same.cpuRatio;
  if (withControl) {
    const control = compared('control', 'anonymous');
    results.controlRatios = control.ratios;
    results.controlRatio = control.ratio;
    results.controlCpuRatio = control.cpuRatio;
  }
  const medianOf = (f) => {
    const xs = results.rounds.map(f).filter((x) => x !== undefined && Number.isFinite(x));
    return xs.length ? median(xs) : undefined;
  };
  results.medians = Object.fromEntries(
    modes.map((m) => [
      m.key,
      { rps: medianOf((r) => r[m.key].rps), cpuPerRequestUs: medianOf((r) => r[m.key].cpuPerRequestUs) },
    ]),
  );
  results.subjectAccessReviews = sar.calls;
  results.users = [...new Set(sar.received.map((r) => r.review.spec?.user))];
  return results;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const r = await runAggregatedBench();
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  const fixed = (x, d = 3) => (x === undefined ? 'n/a' : x.toFixed(d));
  process.stderr.write(
    `aggregated/anonymous creates in the same process: median ${r.sameProcessRatio.toFixed(3)} (${r.sameProcessRatios.map((x) => x.toFixed(3)).join(', ')}); server CPU ${fixed(r.sameProcessCpuRatio)}x\n`,
  );
  process.stderr.write(
    `aggregated/anonymous across two processes: median ${r.ratio.toFixed(3)} over ${r.ratios.length} rounds (${r.ratios.map((x) => x.toFixed(3)).join(', ')}); ${r.subjectAccessReviews} SubjectAccessReviews sent, users ${JSON.stringify(r.users)}\n`,
  );
  if (r.controlRatios)
    process.stderr.write(
      `control/anonymous (two identical processes): median ${r.controlRatio.toFixed(3)} (${r.controlRatios.map((x) => x.toFixed(3)).join(', ')})\n`,
    );
  process.stderr.write(
    `server CPU per create, medians: ${Object.entries(r.medians)
      .map(([k, v]) => `${k} ${fixed(v.cpuPerRequestUs, 0)} µs`)
      .join(
        ', ',
      )}; aggregated/anonymous ${fixed(r.cpuRatio)}x${r.controlRatios ? `, control/anonymous ${fixed(r.controlCpuRatio)}x` : ''}\n`,
  );
}
