import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerMetrics } from '@kevents/apiserver';
import { TokenReviewAuthenticator } from '@kevents/authn';
import { TokenReviewServer, generateCA, generateServingCert } from '@kevents/authn/testing';
import { MemoryStorage } from '@kevents/storage';
import { buildServer } from './app.js';
import type { KeventsServer } from './app.js';
import { startAuthentication, tokenReviewFromFlags } from './authentication.js';
import type { AuthenticationSetup } from './authentication.js';
import { apiserverOptions } from '../cli/flags.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const dir = mkdtempSync(join(tmpdir(), 'kevents-token-review-'));

const get = (url: string, token: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        agent: false,
        rejectUnauthorized: false,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });

describe('delegated authentication: TokenReviews to the cluster (--authentication-kubeconfig)', () => {
  let cluster: TokenReviewServer;
  let kubeconfig: string;
  let authn: AuthenticationSetup;
  let kevents: KeventsServer;
  let url: string;

  beforeAll(async () => {
    cluster = await TokenReviewServer.start('delegator-token');
    cluster.answer = (r) => {
      const token = r.review.spec?.token;
      if (token === 'bob-token')
        return {
          status: {
            authenticated: true,
            user: { username: 'bob', uid: 'bob-uid', groups: ['devs'], extra: { 'example.com/x': ['1'] } },
          },
        };
      if (token === 'broken-token') return { http: 500, body: '{"kind":"Status","message":"etcd is down","code":500}' };
      if (token === 'error-token') return { status: { authenticated: false, error: 'token is expired' } };
      return { status: { authenticated: false } };
    };
    kubeconfig = join(dir, 'authentication.kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- name: c\n  cluster:\n    server: ${cluster.url}\n    certificate-authority-data: ${Buffer.from(cluster.ca.cert).toString('base64')}`,
        'users:',
        '- name: u\n  user:\n    token: delegator-token',
        'contexts:',
        '- name: x\n  context:\n    cluster: c\n    user: u',
        'current-context: x',
        '',
      ].join('\n'),
    );
    const metrics = new ServerMetrics();
    authn = await startAuthentication({
      options: apiserverOptions({ authenticationKubeconfig: kubeconfig, authenticationTokenWebhookCacheTtlMs: 10_000 }),
      authorizer: 'AlwaysAllow',
      metrics,
      log: silent,
    });
    const serving = await generateServingCert(await generateCA('serving-ca'));
    kevents = buildServer({
      storage: new MemoryStorage(),
      https: { cert: serving.cert, key: serving.key, ...authn.tls },
      authenticator: authn.authenticator!,
      metrics,
    });
    await kevents.app.listen({ host: '127.0.0.1', port: 0 });
    url = `https://127.0.0.1:${(kevents.app.server.address() as { port: number }).port}/apis/events.k8s.io/v1/events`;
  }, 60_000);

  afterAll(async () => {
    await kevents?.watches.closeAll();
    await kevents?.app.close();
    authn?.close();
    await cluster?.close();
  });

  it('reviews a token unknown locally once, with the kubeconfig credentials, and reuses the answer', async () => {
    expect(authn.summary).toContain(`TokenReviews to the cluster of ${kubeconfig}`);
    const before = cluster.calls;
    expect((await get(url, 'bob-token')).status).toBe(200);
    expect(cluster.calls).toBe(before + 1);
    const got = cluster.received.at(-1)!;
    expect(got.authorization).toBe('Bearer delegator-token');
    expect(got.review).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token: 'bob-token' },
      status: { user: {} },
    });
    expect((await get(url, 'bob-token')).status).toBe(200);
    expect(cluster.calls).toBe(before + 1);
  });

  it('a refused token is a 401 and its refusal is cached too', async () => {
    const before = cluster.calls;
    const r = await get(url, 'stranger-token');
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await get(url, 'stranger-token')).status).toBe(401);
    expect(cluster.calls).toBe(before + 1);
  });

  it('a TokenReview error is a 401 and is not cached', async () => {
    const before = cluster.calls;
    expect((await get(url, 'broken-token')).status).toBe(401);
    expect((await get(url, 'broken-token')).status).toBe(401);
    expect(cluster.calls).toBe(before + 2);
    expect((await get(url, 'error-token')).status).toBe(401);
    expect((await get(url, 'error-token')).status).toBe(401);
    expect(cluster.calls).toBe(before + 4);
  });

  it('keeps an answer for the TTL only, and gives the user uid, groups and extra', async () => {
    const flagged = tokenReviewFromFlags(apiserverOptions({ authenticationKubeconfig: kubeconfig }))!;
    const before = cluster.calls;
    expect(await flagged.authenticateToken('bob-token')).toEqual({
      user: { username: 'bob', uid: 'bob-uid', groups: ['devs'], extra: { 'example.com/x': ['1'] } },
    });
    expect(cluster.calls).toBe(before + 1);
    // The TTL, on a clock of its own: the stand-in's answers, no network.
    let now = 1_000_000;
    let calls = 0;
    const counted = new TokenReviewAuthenticator({
      cacheTtlMs: 10_000,
      now: () => now,
      transport: async (body) => {
        calls++;
        const review = JSON.parse(body) as { spec: { token: string } };
        const answer = cluster.answer({ path: TokenReviewServer.path, authorization: undefined, review });
        return 'http' in answer
          ? { status: answer.http, body: answer.body }
          : { status: 201, body: JSON.stringify({ status: answer.status }) };
      },
    });
    await counted.authenticateToken('bob-token');
    now += 9_999;
    await counted.authenticateToken('bob-token');
    expect(calls).toBe(1);
    now += 1;
    await counted.authenticateToken('bob-token');
    expect(calls).toBe(2);
  });
});
