#!/usr/bin/env node
// A long fuzz run against a real kevents-apiserver process (issue 11): hostile paths, query
// strings and bodies on every verb of every resource discovery lists, checked for 5xx, error
// bodies that are not a Status, writes kept by rejected requests, hangs and a server that stops
// answering. Prints progress; exits 1 when anything is found.
// The server's RSS (from /proc) is sampled every 500 requests; a growth past --max-rss-growth-mb
// (default 250) fails the run. The heap in use (from the server's /metrics) is printed beside it:
// when it stays flat while RSS grows, the growth is memory the allocator and V8 keep, not a leak.
// Usage (after npm run build):
//   node tools/fuzz/run.js [--runs=20000] [--seed=N] [--storage=memory|redis://127.0.0.1:6379/0]
//                          [--max-rss-growth-mb=250]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, startNode, waitReady } from '../bench/lib/processes.js';

const opt = (name, def) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split('=')
    .slice(1)
    .join('=') ?? def;
const runs = Number(opt('runs', 20000));
const seed = opt('seed', undefined);
const storage = opt('storage', 'memory');
const maxGrowthMB = Number(opt('max-rss-growth-mb', 250));
if (process.argv.includes('--help')) {
  console.log(
    'node tools/fuzz/run.js [--runs=20000] [--seed=N] [--storage=memory|redis://HOST:PORT/DB] [--max-rss-growth-mb=250]',
  );
  process.exit(0);
}
/** The resident set of a process in MiB, from /proc (undefined off Linux). */
const rssMB = (pid) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
};
const main = fileURLToPath(new URL('../../apps/apiserver/dist/main.js', import.meta.url));
const { fuzzServer } = await import('@kevents/apiserver/testing/fuzz');

const port = await freePort();
const server = startNode([
  main,
  `--insecure-port=${port}`,
  '--secure-port=0',
  `--storage=${storage}`,
  '--log-level=warn',
]);
const baseURL = `http://127.0.0.1:${port}`;
/** The server's JavaScript heap in use and its external memory in MiB, from its /metrics. */
const heapMB = async () => {
  const text = await (await fetch(`${baseURL}/metrics`)).text().catch(() => '');
  const read = (name) => {
    const v = new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1];
    return v === undefined ? '?' : (Number(v) / 2 ** 20).toFixed(0);
  };
  return { used: read('nodejs_heap_size_used_bytes'), external: read('nodejs_external_memory_bytes') };
};
let code = 1;
try {
  await waitReady(`${baseURL}/readyz`);
  const pid = server.child.pid;
  const started = Date.now();
  const rssStart = rssMB(pid);
  let rssMax = rssStart ?? 0;
  console.log(`fuzzing ${baseURL} (pid ${pid}, storage ${storage}): ${runs} requests${seed ? `, seed ${seed}` : ''}`);
  const report = await fuzzServer({
    baseURL,
    numRuns: runs,
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    onRequest: async (done, r) => {
      if (done % 500 === 0 || done === runs) {
        const rss = rssMB(pid);
        const heap = await heapMB();
        if (rss !== undefined) rssMax = Math.max(rssMax, rss);
        const rate = Math.round((done / (Date.now() - started)) * 1000);
        console.log(
          `${done}/${runs} requests (${rate}/s) RSS ${rss?.toFixed(0)} MiB (heap used ${heap.used}, external ${heap.external}) statuses ${JSON.stringify(r.byStatus)} failures ${r.failures.length}`,
        );
      }
    },
  });
  const alive = server.child.exitCode === null && server.child.pid === pid;
  const rssEnd = rssMB(pid);
  if (rssStart !== undefined && rssEnd !== undefined) {
    console.log(
      `server RSS: ${rssStart.toFixed(0)} MiB at the start, ${rssMax.toFixed(0)} MiB at most, ${rssEnd.toFixed(0)} MiB at the end`,
    );
    if (rssMax - rssStart > maxGrowthMB)
      report.failures.push({
        request: {},
        problem: `RSS grew by ${(rssMax - rssStart).toFixed(0)} MiB (limit ${maxGrowthMB})`,
      });
  }
  if (!alive) report.failures.push({ request: {}, problem: `the server process exited (${server.child.exitCode})` });
  console.log(
    `done: ${report.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(report.byStatus)}`,
  );
  for (const f of report.failures) console.log(`FAILURE: ${f.problem}\n  ${JSON.stringify(f.request).slice(0, 2000)}`);
  code = report.failures.length ? 1 : 0;
} finally {
  await server.stop();
}
process.exit(code);
