import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { waitFor } from '@kevents/api/testing';
import { ServerMetrics } from '@kevents/apiserver';
import { OidcIssuer } from '@kevents/authn/testing';
import { startAuthentication } from './authentication.js';
import type { AuthenticationSetup } from './authentication.js';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiserverOptions } from '../cli/flags.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-authn-reload-'));
const file = join(dir, 'authn.yaml');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const doc = (iss: OidcIssuer | { url: string; ca: { cert: string } }, anonymous?: unknown): string =>
  stringify({
    apiVersion: 'apiserver.config.k8s.io/v1beta1',
    kind: 'AuthenticationConfiguration',
    jwt: [
      {
        issuer: { url: iss.url, audiences: ['kevents'], certificateAuthority: iss.ca.cert },
        claimMappings: { username: { claim: 'sub', prefix: '' } },
      },
    ],
    ...(anonymous ? { anonymous } : {}),
  });

let a: OidcIssuer;
let b: OidcIssuer;
let srv: TestServer;
let authn: AuthenticationSetup;
const metrics = new ServerMetrics();

beforeAll(async () => {
  a = await OidcIssuer.start({ alg: 'RS256' });
  b = await OidcIssuer.start({ alg: 'ES256' });
  writeFileSync(file, doc(a));
  authn = await startAuthentication({
    options: apiserverOptions(),
    file,
    authorizer: 'AlwaysAllow',
    metrics,
    log: silent,
    reload: { pollMs: 50, healthTimeoutMs: 1500 },
  });
  srv = await startTestServer({ authenticator: authn.authenticator!, metrics });
});
afterAll(async () => {
  authn?.close();
  await srv?.close();
  await a?.stop();
  await b?.stop();
});

const status = async (token: string): Promise<number> =>
  (await fetch(`${srv.url}/apis/events.k8s.io/v1/events`, { headers: { authorization: `Bearer ${token}` } })).status;
const reloads = async (s: 'success' | 'failure'): Promise<number> => {
  const m = new RegExp(
    `^apiserver_authentication_config_controller_automatic_reloads_total\\{status="${s}"\\} (\\d+)$`,
    'm',
  ).exec(await metrics.text());
  return m ? Number(m[1]) : 0;
};

describe('--authentication-config reload', () => {
  it('rotates the issuer while requests flow: old tokens stop, new ones start, nothing fails in between', async () => {
    const tokenA = await a.mint({ sub: 'from-a', aud: 'kevents' });
    const tokenB = await b.mint({ sub: 'from-b', aud: 'kevents' });
    await waitFor(async () => (await status(tokenA)) === 200, 15_000); // discovery runs in the background at start
    expect(await status(tokenB)).toBe(401);
    const seen: { a: number; b: number }[] = [];
    let flowing = true;
    const flow = (async () => {
      while (flowing) {
        const [sa, sb] = await Promise.all([status(tokenA), status(tokenB)]);
        seen.push({ a: sa, b: sb });
      }
    })();
    await waitFor(async () => seen.length > 5, 15_000);
    writeFileSync(file, doc(b));
    await waitFor(async () => (await status(tokenB)) === 200, 15_000);
    await waitFor(async () => seen.length > 0 && seen[seen.length - 1]!.b === 200, 15_000);
    flowing = false;
    await flow;
    expect(await status(tokenA)).toBe(401);
    // Every answer is 200 or 401, A goes 200 -> 401 once, B goes 401 -> 200 once, never both refused.
    for (const s of seen) {
      expect([200, 401]).toContain(s.a);
      expect([200, 401]).toContain(s.b);
      expect(s.a === 200 || s.b === 200).toBe(true);
    }
    const flips = (xs: number[]) => xs.filter((x, i) => i > 0 && x !== xs[i - 1]).length;
    expect(flips(seen.map((s) => s.a))).toBeLessThanOrEqual(1);
    expect(flips(seen.map((s) => s.b))).toBe(1);
    expect(await reloads('success')).toBe(1);
  });

  it('an invalid file, a changed anonymous block or an unhealthy issuer changes nothing', async () => {
    const tokenB = await b.mint({ sub: 'from-b', aud: 'kevents' });
    const failures = await reloads('failure');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt: [{issuer: {url: "http://x"}}]\n',
    );
    await waitFor(async () => (await reloads('failure')) === failures + 1, 15_000);
    expect(await status(tokenB)).toBe(200);
    writeFileSync(file, doc(b, { enabled: true }));
    await waitFor(async () => (await reloads('failure')) === failures + 2, 15_000);
    expect(await status(tokenB)).toBe(200);
    const down = await OidcIssuer.start();
    const downDoc = doc(down);
    await down.stop();
    writeFileSync(file, downDoc);
    await waitFor(async () => (await reloads('failure')) >= failures + 3, 15_000);
    expect(await status(tokenB)).toBe(200);
    expect(await reloads('success')).toBe(1);
  });
});
