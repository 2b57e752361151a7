#!/usr/bin/env node
// Authentication cost, in one run. Three kevents processes on the memory store: `anon` (no
// authentication configured: every request is system:anonymous), `control` (the same, a second
// process: how far two identical processes differ on this machine) and `jwt` (an
// AuthenticationConfiguration with a real HTTPS OIDC issuer and `anonymous: {enabled: true}`).
// Each round runs four create loads, in this order and then reversed (ABBA, so that drift in the
// machine's load cancels out and the two loads on the jwt process are always adjacent):
//   anonymous           -> anon, no token
//   cached JWT          -> jwt, one token (after its first request every check is a cache hit)
//   anonymous via chain -> jwt, no token (the configured chain answers system:anonymous)
//   anonymous, control  -> control, no token
// and reports, as medians of per-round ratios, the cached JWT against anonymous in the SAME process
// (the credential's cost) and against the anon process (the credential plus everything that
// differs between two processes), next to control/anon (the noise between identical processes).
// Then the cold cost: distinct tokens verified one at a time by a JwtAuthenticator with no cache,
// per algorithm (RS256, ES256, PS256), against the same kind of issuer.
// Usage: node tools/bench/authn.js [--seconds=3] [--connections=32] [--warmup=3] [--rounds=8]
//        [--cold=1000] [--control=1] (after npm run build)
import './lib/help.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JwtAuthenticator } from '@kevents/authn';
import { OidcIssuer } from '@kevents/authn/testing';
import { freePort, startNode, waitReady } from './lib/processes.js';
import { load } from './lib/load.js';
import { benchEvent as event } from './lib/bench-event.js';
import { apiserverMain, median, numberArg } from './lib/args.js';

const arg = numberArg;
const seconds = arg('seconds', 3);
const connections = arg('connections', 32);
const warmupSeconds = arg('warmup', 3);
const rounds = arg('rounds', 8);
const coldCount = arg('cold', 1000);
const withControl = arg('control', 1) !== 0;
const algorithms = ['RS256', 'ES256', 'PS256'];
const main = apiserverMain;
const quantile = (xs, q) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

function jwtEntry(issuer) {
  return {
    issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
    claimMappings: { username: { claim: 'sub', prefix: 'dev:' }, groups: { claim: 'groups', prefix: '' } },
  };
}

/** Waits until `url` answers 2xx to a request carrying `token`. */
async function waitAuthenticated(url, token, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    if (r?.ok) return;
    if (Date.now() > end) throw new Error(`${url} did not accept the token (last status ${r?.status})`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Verifies `n` distinct tokens, one at a time, with no cache: the per-token cost of signature and claim checks. */
async function coldVerification(issuer, n, alg) {
  const a = new JwtAuthenticator(jwtEntry(issuer));
  try {
    await a.whenReady();
    const tokens = [];
    for (let i = 0; i < n; i++) tokens.push(await issuer.mint({ sub: `user-${i}`, aud: 'kevents', groups: ['bench'] }));
    await a.authenticateToken(tokens[0]); // the JWKS fetch is not part of the cost
    const micros = [];
    for (const t of tokens.slice(1)) {
      const start = performance.now();
      const r = await a.authenticateToken(t);
      micros.push((performance.now() - start) * 1000);
      if (!r) throw new Error('a bench token was declined');
    }
    return { alg, p50: quantile(micros, 0.5), p99: quantile(micros, 0.99), n: micros.length };
  } finally {
    a.close();
  }
}

/** The median of per-round `f(round)`, skipping rounds where it is undefined. */
const medianOf = (rounds, f) => {
  const xs = rounds.map(f).filter((x) => x !== undefined && Number.isFinite(x));
  return xs.length ? median(xs) : undefined;
};

export async function runAuthnBench() {
  const dir = mkdtempSync(join(tmpdir(), 'kevents-bench-authn-'));
  const issuer = await OidcIssuer.start({ alg: 'RS256' });
  const config = join(dir, 'authn.json');
  writeFileSync(
    config,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [jwtEntry(issuer)],
      anonymous: { enabled: true },
    }),
  );
  const common = ['--secure-port=0', '--log-level=warn', '--watch-history=10000'];
  const servers = {};
  const start = async (name, extra) => {
    const port = await freePort();
    servers[name] = { port, process: startNode([main, `--insecure-port=${port}`, ...common, ...extra]) };
  };
  await start('anon', []);
  if (withControl) await start('control', []);
  await start('jwt', [`--authentication-config=${config}`]);
  const path = '/apis/events.k8s.io/v1/namespaces/bench/events';
  const token = await issuer.mint({
    sub: 'bench',
    aud: 'kevents',
    groups: ['bench'],
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  const control = {
    key: 'control',
    title: 'create, anonymous (control: a second identical process)',
    server: 'control',
    headers: {},
  };
  const modes = [
    { key: 'anonymous', title: 'create, anonymous (no authentication configured)', server: 'anon', headers: {} },
    { key: 'jwt', title: 'create, cached JWT', server: 'jwt', headers: { authorization: `Bearer ${token}` } },
    { key: 'viaChain', title: 'create, anonymous through the configured chain', server: 'jwt', headers: {} },
    ...(withControl ? [control] : []),
  ];
  const results = { rounds: [], connections, seconds };
  try {
    for (const s of Object.values(servers)) await waitReady(`http://127.0.0.1:${s.port}/readyz`);
    await waitAuthenticated(`http://127.0.0.1:${servers.jwt.port}${path}?limit=1`, token);
    const create = (mode, warm) =>
      load({
        title: mode.title,
        url: `http://127.0.0.1:${servers[mode.server].port}${path}`,
        method: 'POST',
        body: event,
        headers: { 'content-type': 'application/json', ...mode.headers },
        seconds,
        connections,
        pid: servers[mode.server].process.child.pid,
        warmupSeconds: warm,
      });
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`== round ${r + 1} of ${rounds}\n`);
      const round = {};
      // ABBA: the two loads on the jwt process are always adjacent, the anonymous processes around them.
      for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
        const x = await create(mode, r === 0 ? warmupSeconds : 0);
        if (x.failures > 0) throw new Error(`${x.failures} requests failed: ${mode.title}`);
        round[mode.key] = x;
      }
      results.rounds.push(round);
    }
    results.cold = [];
    for (const alg of algorithms) {
      process.stderr.write(`== cold verification of ${coldCount} distinct ${alg} tokens\n`);
      const other = alg === 'RS256' ? issuer : await OidcIssuer.start({ alg });
      try {
        results.cold.push(await coldVerification(other, coldCount, alg));
      } finally {
        if (other !== issuer) await other.stop();
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.process.stop()));
    await issuer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (a, b) => (round) => (round[a] && round[b] ? round[a].rps / round[b].rps : undefined);
  const cpuRatio = (a, b) => (round) =>
    round[a]?.cpuPerRequestUs && round[b]?.cpuPerRequestUs
      ? round[a].cpuPerRequestUs / round[b].cpuPerRequestUs
      : undefined;
  const pairs = {
    inProcess: ['jwt', 'viaChain'],
    crossProcess: ['jwt', 'anonymous'],
    chainAnonymous: ['viaChain', 'anonymous'],
    control: ['control', 'anonymous'],
  };
  results.ratios = {};
  for (const [name, [a, b]] of Object.entries(pairs))
    results.ratios[name] = {
      throughput: medianOf(results.rounds, ratio(a, b)),
      cpu: medianOf(results.rounds, cpuRatio(a, b)),
      rounds: results.rounds.map(ratio(a, b)),
    };
  results.medians = Object.fromEntries(
    modes.map((m) => [
      m.key,
      {
        title: m.title,
        rps: medianOf(results.rounds, (r) => r[m.key].rps),
        cpuPerRequestUs: medianOf(results.rounds, (r) => r[m.key].cpuPerRequestUs),
      },
    ]),
  );
  return results;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await runAuthnBench();
  const pct = (x) => (x === undefined ? 'n/a' : `${(x * 100).toFixed(0)}%`);
  const fixed = (x, d = 3) => (x === undefined ? 'n/a' : x.toFixed(d));
  const cpu = (v) => (v.cpuPerRequestUs === undefined ? 'n/a' : v.cpuPerRequestUs.toFixed(0));
  console.log(`\n${r.connections} connections, ${r.seconds} s per load, ${r.rounds.length} rounds (ABBA order)\n`);
  console.log('| round | measurement | req/s | p50 ms | p99 ms | server CPU µs/req |');
  console.log('|---|---|---|---|---|---|');
  r.rounds.forEach((round, i) => {
    for (const v of Object.values(round))
      console.log(`| ${i + 1} | ${v.title} | ${Math.round(v.rps)} | ${v.p50} | ${v.p99} | ${cpu(v)} |`);
  });
  console.log('\n| medians of the rounds | req/s | server CPU µs/req |');
  console.log('|---|---|---|');
  for (const m of Object.values(r.medians))
    console.log(`| ${m.title} | ${Math.round(m.rps)} | ${fixed(m.cpuPerRequestUs, 0)} |`);
  const line = (label, x) =>
    `${label}: throughput ${pct(x.throughput)}, server CPU per create ${fixed(x.cpu)}x (rounds: ${x.rounds.map(pct).join(', ')})`;
  const { inProcess, crossProcess, chainAnonymous, control } = r.ratios;
  console.log('\nmedians of per-round ratios:');
  console.log(line('- cached JWT / anonymous, same process', inProcess));
  console.log(line('- cached JWT / anonymous, separate processes', crossProcess));
  console.log(line('- anonymous through the chain / anonymous with none configured', chainAnonymous));
  if (r.rounds[0]?.control) console.log(line('- control: two identical anonymous processes', control));
  const met = inProcess.throughput !== undefined && inProcess.throughput >= 0.9;
  console.log(
    `\ncreate throughput with a cached JWT, same process: ${pct(inProcess.throughput)} of anonymous (target >= 90%): ${met ? 'met' : 'NOT met'}`,
  );
  if (r.rounds[0]?.control) {
    const spread = Math.max(...control.rounds.map((x) => Math.abs(1 - x)));
    console.log(
      `separate processes: ${pct(crossProcess.throughput)}; identical processes differ by up to ${pct(spread)} in a round on this machine`,
    );
  }
  for (const c of r.cold)
    console.log(
      `cold verification (${c.alg}, no cache), ${c.n} tokens: p50 ${c.p50.toFixed(0)} µs, p99 ${c.p99.toFixed(0)} µs`,
    );
}
