/**
 * The web view against a JWT-protected kevents-apiserver: the page's three files are open to anonymous (an
 * AuthenticationConfiguration `anonymous.conditions` listing their exact paths), the API is not. Without a token
 * the page says 401; with a pasted token (kept in sessionStorage) it lists and watches. Through `kubectl proxy`
 * (with --api-prefix, so behind a path prefix; over HTTPS, as kubectl sends no token over HTTP) the proxy's
 * credentials apply and the page works unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { freePort } from '@kevents/api/testing';
import { OidcIssuer } from '@kevents/authn/testing';
import {
  browserSkipReason,
  createEvent,
  eventBody,
  launchChromium,
  startApiserver,
  type Apiserver,
} from './testing/harness.js';

const skip = browserSkipReason();
const kubectlMissing = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status !== 0;
if (skip) console.log(`browser tests skipped: ${skip}`);
const suite = skip ? describe.skip : describe;

suite('web view with JWT authentication', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kevents-ui-auth-'));
  let issuer: OidcIssuer;
  let api: Apiserver;
  let browser: Browser;
  let close: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    issuer = await OidcIssuer.start({ alg: 'ES256' });
    const config = join(dir, 'authn.json');
    writeFileSync(
      config,
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'AuthenticationConfiguration',
        jwt: [
          {
            issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
            claimMappings: { username: { claim: 'sub', prefix: 'oidc:' } },
          },
        ],
        // The web view's files (canonical paths: `/ui/` is `/ui`) and liveness; nothing else.
        anonymous: {
          enabled: true,
          conditions: [{ path: '/ui' }, { path: '/ui/app.js' }, { path: '/ui/app.css' }, { path: '/livez' }],
        },
      }),
    );
    [api, { browser, close }] = await Promise.all([
      startApiserver([`--authentication-config=${config}`], true),
      launchChromium(),
    ]);
    token = await issuer.mint({ sub: 'alice', aud: 'kevents' });
    // The authenticator is ready once the issuer's discovery is done: retry the first create until then.
    for (let i = 0; ; i++) {
      try {
        await createEvent(api.url, eventBody({ name: 'jwt-1', namespace: 'shop', reason: 'Secured' }), {
          authorization: `Bearer ${token}`,
        });
        break;
      } catch (err) {
        if (i > 50) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }, 60_000);

  afterAll(async () => {
    await close?.();
    await api?.stop();
    await issuer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses without a token, works with a pasted one kept for the tab', async () => {
    expect((await fetch(`${api.url}/apis/events.k8s.io/v1/events`)).status).toBe(401);
    const page = await browser.newPage();
    await page.goto(`${api.url}/ui/`);
    await page.locator('#status.error', { hasText: '401' }).waitFor({ timeout: 5_000 });
    await expect(page.locator('#events tbody tr[data-key]').count()).resolves.toBe(0);
    await page.fill('#token', token);
    await page.click('button:text("Use token")');
    await page.locator('#events td', { hasText: 'Secured' }).waitFor({ timeout: 5_000 });
    await page.locator('#status', { hasText: 'live' }).waitFor();
    await expect(page.evaluate(() => sessionStorage.getItem('kevents.token'))).resolves.toBe(token);
    await page.reload();
    await page.locator('#events td', { hasText: 'Secured' }).waitFor({ timeout: 5_000 });
    await page.close();
  });

  (kubectlMissing ? it.skip : it)('works through kubectl proxy behind a path prefix', async () => {
    const kubeconfig = join(dir, 'kubeconfig.json');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'k', cluster: { server: api.secureUrl, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'alice', user: { token } }],
        contexts: [{ name: 'k', context: { cluster: 'k', user: 'alice' } }],
        'current-context': 'k',
      }),
    );
    const port = await freePort();
    const proxy: ChildProcess = spawn(
      'kubectl',
      ['proxy', `--kubeconfig=${kubeconfig}`, `--port=${port}`, '--address=127.0.0.1', '--api-prefix=/k8s/'],
      { stdio: 'ignore' },
    );
    try {
      const base = `http://127.0.0.1:${port}/k8s`;
      for (let i = 0; ; i++) {
        const ok = await fetch(`${base}/livez`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (i > 100) throw new Error('kubectl proxy did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
      const page = await browser.newPage();
      await page.goto(`${base}/ui/`);
      await page
        .locator('#events td', { hasText: 'Secured' })
        .waitFor({ timeout: 5_000 })
        .catch(async (err: Error) => {
          throw new Error(`${err.message}\nstatus: ${await page.textContent('#status')}`);
        });
      await page.locator('#status', { hasText: 'live' }).waitFor();
      await createEvent(api.url, eventBody({ name: 'jwt-2', namespace: 'shop', reason: 'ViaProxy' }), {
        authorization: `Bearer ${token}`,
      });
      await page.locator('#events td', { hasText: 'ViaProxy' }).waitFor({ timeout: 2_000 });
      await page.close();
    } finally {
      const exited = new Promise((r) => proxy.once('exit', r));
      proxy.kill('SIGTERM');
      await exited;
    }
  });
});
