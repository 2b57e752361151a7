#!/usr/bin/env node
// Tracing cost, in one run: create throughput of three kevents processes side by side, rounds
// alternating: no --tracing-config-file, tracing at samplingRatePerMillion 0, and at 1,000,000
// (every request exported over OTLP gRPC to the test receiver in this process).
// Usage: node tools/bench/tracing.js [--seconds=10] [--connections=32] [--warmup=5] [--rounds=3]
// (after npm run build)
import './lib/help.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OtlpTraceReceiver } from '@kevents/tracing/testing';
import { freePort, startNode, waitReady } from './lib/processes.js';
import { load } from './lib/load.js';
import { benchEvent as event } from './lib/bench-event.js';
import { apiserverMain, median, numberArg } from './lib/args.js';

const arg = numberArg;
const seconds = arg('seconds', 10);
const connections = arg('connections', 32);
const warmupSeconds = arg('warmup', 5);
const rounds = arg('rounds', 3);
const main = apiserverMain;

export async function runTracingBench() {
  const dir = mkdtempSync(join(tmpdir(), 'kevents-bench-tracing-'));
  const receiver = await OtlpTraceReceiver.start();
  const file = (rate) => {
    const p = join(dir, `tracing-${rate}.json`);
    writeFileSync(
      p,
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'TracingConfiguration',
        endpoint: receiver.endpoint,
        samplingRatePerMillion: rate,
      }),
    );
    return p;
  };
  const common = ['--secure-port=0', '--log-level=warn', '--watch-history=10000'];
  const ports = { none: await freePort(), zero: await freePort(), all: await freePort() };
  const procs = {
    none: startNode([main, `--insecure-port=${ports.none}`, ...common]),
    zero: startNode([main, `--insecure-port=${ports.zero}`, `--tracing-config-file=${file(0)}`, ...common]),
    all: startNode([main, `--insecure-port=${ports.all}`, `--tracing-config-file=${file(1_000_000)}`, ...common]),
  };
  const path = '/apis/events.k8s.io/v1/namespaces/bench/events';
  const results = { rounds: [] };
  try {
    for (const p of Object.values(ports)) await waitReady(`http://127.0.0.1:${p}/readyz`);
    const create = (title, key, warm) =>
      load({
        title,
        url: `http://127.0.0.1:${ports[key]}${path}`,
        method: 'POST',
        body: event,
        headers: { 'content-type': 'application/json' },
        seconds,
        connections,
        pid: procs[key].child.pid,
        warmupSeconds: warm,
      });
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`== round ${r + 1} of ${rounds}\n`);
      const warm = r === 0 ? warmupSeconds : 0;
      // Alternate which goes first, so a drift of the machine does not favour one side.
      const first = r % 2 === 0;
      const none = first ? await create('create, no tracing file', 'none', warm) : undefined;
      const zero = await create('create, tracing at rate 0', 'zero', warm);
      const noneLate = first ? none : await create('create, no tracing file', 'none', warm);
      const spansBefore = receiver.spans.length;
      const all = await create('create, tracing at rate 1,000,000', 'all', warm);
      const spans = receiver.spans.length - spansBefore;
      receiver.clear();
      results.rounds.push({
        none: noneLate,
        zero,
        all,
        ratio0: zero.rps / noneLate.rps,
        ratioAll: all.rps / noneLate.rps,
        spans,
      });
    }
  } finally {
    await Promise.all(Object.values(procs).map((p) => p.stop()));
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await runTracingBench();
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  const cpu = (v) => (v.cpuPerRequestUs === undefined ? 'n/a' : v.cpuPerRequestUs.toFixed(0));
  const row = (v, base) =>
    `| ${v.title} | ${Math.round(v.rps)} | ${v.p50} | ${v.p99} | ${cpu(v)} | ${base ? pct(v.rps / base.rps) : '—'} |`;
  console.log('\n| measurement | req/s | p50 ms | p99 ms | server CPU µs/req | throughput vs no tracing |');
  console.log('|---|---|---|---|---|---|');
  r.rounds.forEach((x, i) => {
    console.log(row({ ...x.none, title: `${x.none.title} (round ${i + 1})` }));
    console.log(row({ ...x.zero, title: `${x.zero.title} (round ${i + 1})` }, x.none));
    console.log(row({ ...x.all, title: `${x.all.title} (round ${i + 1}; ${x.spans} spans received)` }, x.none));
  });
  const m0 = median(r.rounds.map((x) => x.ratio0));
  const mAll = median(r.rounds.map((x) => x.ratioAll));
  console.log(
    `\ncreate throughput with tracing at rate 0, median of ${r.rounds.length} rounds: ${pct(m0)} of no tracing file (target >= 95%): ${m0 >= 0.95 ? 'met' : 'NOT met'}`,
  );
  console.log(`create throughput with tracing at rate 1,000,000, median: ${pct(mAll)} of no tracing file`);
}
