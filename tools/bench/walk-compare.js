#!/usr/bin/env node
// Pages of a large store, this build against another git ref's build, in one run: both servers
// (memory store, as shipped) are filled with the same --events Events of user.js (797 bytes over
// --namespaces namespaces, each event posted to one and then the other), then walked --walks
// times through all pages of GET /apis/events.k8s.io/v1/events?limit=500, a page of one and the
// same page of the other in turn (AB BA ...), each on its own keep-alive connection, timed on this
// client from the request to the last body byte. Prints each walk's server CPU per page
// (/proc/<pid>/stat) of both and their ratio, then the client's p50 and p99 of each build and the
// pooled CPU ratio (current / baseline). compare.js's pages come from the encoded-item cache; these
// are decoded and encoded, as a walk through a store larger than the cache is.
// Usage: npm run build && node tools/bench/walk-compare.js --baseline=<git ref> [--events=50000] [--walks=6]
//        [--namespaces=50] [--install]
// The baseline is built once in a git worktree under node_modules/.cache/kevents-bench/<sha> and reused.
import './lib/help.js';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { apiserverMain, numberArg, stringArg } from './lib/args.js';
import { prepareBaseline } from './lib/baseline.js';
import { cpuSeconds, freePort, startNode, waitReady } from './lib/processes.js';
import { send, userEvent } from './user.js';

const ref = stringArg('baseline', '');
const events = numberArg('events', 50_000);
const walks = numberArg('walks', 6);
const limit = 500;
const log = (s) => process.stderr.write(`${s}\n`);

if (!ref) {
  log('walk-compare: --baseline=<git ref> is needed (see --help)');
  process.exit(2);
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** The pid of the process that serves: kevents-apiserver restarts itself once with its young-generation flags. */
async function servingPid(child) {
  const { spawnSync } = await import('node:child_process');
  const out = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout?.trim() ?? '';
  return Number(out.split('\n')[0]) || child.pid;
}

async function main() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const baseline = prepareBaseline(ref, { root, forceInstall: process.argv.includes('--install') });
  const servers = [];
  try {
    for (const [name, main] of [
      ['baseline', baseline.main],
      ['current', apiserverMain],
    ]) {
      const port = await freePort();
      const server = startNode([main, `--insecure-port=${port}`, '--secure-port=0', '--storage=memory']);
      servers.push({ name, port, server });
    }
    for (const s of servers) await waitReady(`http://127.0.0.1:${s.port}/readyz`);
    await new Promise((r) => setTimeout(r, 1000));
    for (const s of servers) s.pid = await servingPid(s.server.child);
    const fillAgent = new Agent({ keepAlive: true, maxSockets: 16 });
    let next = 0;
    const worker = async () => {
      while (next < events) {
        const e = userEvent(next++);
        const body = JSON.stringify(e);
        for (const s of servers) {
          const path = `/apis/events.k8s.io/v1/namespaces/${e.metadata.namespace}/events`;
          const r = await send(fillAgent, s.port, 'POST', path, body);
          if (r.status !== 201) throw new Error(`create on ${s.name}: ${r.status} ${r.text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    fillAgent.destroy();
    log(`filled both with ${events} events; baseline ${ref} (${baseline.sha.slice(0, 12)})`);
    await new Promise((r) => setTimeout(r, 3000));
    const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
    const res = servers.map(() => ({ cpu: [], ms: [] }));
    for (let w = 0; w < walks; w++) {
      const conts = servers.map(() => '');
      const cpu0 = servers.map((s) => cpuSeconds(s.pid));
      let pages = 0;
      do {
        for (const i of (pages + w) % 2 ? [1, 0] : [0, 1]) {
          const q = `?limit=${limit}${conts[i] ? `&continue=${encodeURIComponent(conts[i])}` : ''}`;
          const r = await send(agents[i], servers[i].port, 'GET', `/apis/events.k8s.io/v1/events${q}`);
          if (r.status !== 200) throw new Error(`list on ${servers[i].name}: ${r.status} ${r.text.slice(0, 200)}`);
          res[i].ms.push(r.ms);
          conts[i] = JSON.parse(r.text).metadata.continue ?? '';
        }
        pages++;
      } while (conts[0]);
      servers.forEach((s, i) => res[i].cpu.push(((cpuSeconds(s.pid) - cpu0[i]) * 1000) / pages));
      log(
        `walk ${w + 1} (${pages} pages): server CPU per page ${servers.map((s, i) => `${s.name} ${res[i].cpu.at(-1).toFixed(2)} ms`).join(', ')}; current/baseline ${(res[1].cpu.at(-1) / res[0].cpu.at(-1)).toFixed(3)}`,
      );
    }
    agents.forEach((a) => a.destroy());
    const out = {
      bench: 'walk-compare',
      baseline: ref,
      baselineSha: baseline.sha,
      events,
      walks,
      builds: servers.map((s, i) => ({
        name: s.name,
        cpuMsPerPage: res[i].cpu,
        p50: pct(res[i].ms, 50),
        p99: pct(res[i].ms, 99),
      })),
      cpuRatioPooled: sum(res[1].cpu) / sum(res[0].cpu),
      loadavg: loadavg().slice(0, 2),
    };
    for (const b of out.builds)
      log(
        `${b.name}: server CPU per page ${(sum(b.cpuMsPerPage) / walks).toFixed(2)} ms; page p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms`,
      );
    log(`server CPU per page, current / baseline: ${out.cpuRatioPooled.toFixed(3)} (all walks pooled)`);
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    for (const s of servers) await s.server.stop();
  }
}

await main();
