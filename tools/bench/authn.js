#!/usr/bin/env node
// Authentication cost, in one run: creates with a cached JWT against creates as system:anonymous
// (two kevents processes side by side, rounds alternating), and the cold cost of verifying a token
// that is not in the cache (in process, against the same real HTTPS issuer).
// Usage: node tools/bench/authn.js [--seconds=10] [--connections=32] [--warmup=5] [--rounds=3] [--cold=2000]
// (after npm run build)
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
const seconds = arg('seconds', 10);
const connections = arg('connections', 32);
const warmupSeconds = arg('warmup', 5);
const rounds = arg('rounds', 3);
const coldCount = arg('cold', 2000);
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
async function coldVerification(issuer, n) {
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
    return { p50: quantile(micros, 0.5), p99: quantile(micros, 0.99), n: micros.length };
  } finally {
    a.close();
  }
}

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
    }),
  );
  const anonPort = await freePort();
  const jwtPort = await freePort();
  const common = ['--secure-port=0', '--log-level=warn', '--watch-history=10000'];
  const anon = startNode([main, `--insecure-port=${anonPort}`, ...common]);
  const jwt = startNode([main, `--insecure-port=${jwtPort}`, `--authentication-config=${config}`, ...common]);
  const path = '/apis/events.k8s.io/v1/namespaces/bench/events';
  const token = await issuer.mint({
    sub: 'bench',
    aud: 'kevents',
    groups: ['bench'],
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  const results = { rounds: [] };
  try {
    await waitReady(`http://127.0.0.1:${anonPort}/readyz`);
    await waitAuthenticated(`http://127.0.0.1:${jwtPort}${path}?limit=1`, token);
    const create = (title, port, pid, headers, warm) =>
      load({
        title,
        url: `http://127.0.0.1:${port}${path}`,
        method: 'POST',
        body: event,
        headers: { 'content-type': 'application/json', ...headers },
        seconds,
        connections,
        pid,
        warmupSeconds: warm,
      });
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`== round ${r + 1} of ${rounds}\n`);
      const warm = r === 0 ? warmupSeconds : 0;
      const a = await create('create, anonymous', anonPort, anon.child.pid, {}, warm);
      const j = await create('create, cached JWT', jwtPort, jwt.child.pid, { authorization: `Bearer ${token}` }, warm);
      if (j.failures > 0) throw new Error(`${j.failures} JWT creates failed`);
      results.rounds.push({
        anonymous: a,
        jwt: j,
        ratio: j.rps / a.rps,
        cpuRatio: j.cpuPerRequestUs && a.cpuPerRequestUs ? j.cpuPerRequestUs / a.cpuPerRequestUs : undefined,
      });
    }
    process.stderr.write(`== cold verification of ${coldCount} distinct tokens\n`);
    results.cold = await coldVerification(issuer, coldCount);
  } finally {
    await Promise.all([anon.stop(), jwt.stop()]);
    await issuer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await runAuthnBench();
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  const cpu = (v) => (v.cpuPerRequestUs === undefined ? 'n/a' : v.cpuPerRequestUs.toFixed(0));
  const row = (v, base) =>
    `| ${v.title} | ${Math.round(v.rps)} | ${v.p50} | ${v.p99} | ${cpu(v)} | ${base ? pct(v.rps / base.rps) : '—'} |`;
  console.log('\n| measurement | req/s | p50 ms | p99 ms | server CPU µs/req | throughput vs anonymous |');
  console.log('|---|---|---|---|---|---|');
  r.rounds.forEach((x, i) => {
    console.log(row({ ...x.anonymous, title: `create, anonymous (round ${i + 1})` }));
    console.log(row({ ...x.jwt, title: `create, cached JWT (round ${i + 1})` }, x.anonymous));
  });
  const m = median(r.rounds.map((x) => x.ratio));
  console.log(
    `\ncreate throughput with a cached JWT, median of ${r.rounds.length} rounds: ${pct(m)} of anonymous (target >= 90%): ${m >= 0.9 ? 'met' : 'NOT met'}`,
  );
  const cpuRatios = r.rounds.map((x) => x.cpuRatio).filter((x) => x !== undefined);
  if (cpuRatios.length)
    console.log(`server CPU per create with a cached JWT, median: ${median(cpuRatios).toFixed(3)} of anonymous`);
  console.log(
    `cold verification (RS256, no cache), ${r.cold.n} tokens: p50 ${r.cold.p50.toFixed(0)} µs, p99 ${r.cold.p99.toFixed(0)} µs`,
  );
}
