import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import type { AuthorizationConfiguration, Authorizer, RequestAttributes, WebhookConfiguration } from '@kevents/api';
import { buildAuthorizer } from '../build.js';
import type { BuildAuthorizerOptions } from '../build.js';
import { AuthorizationError } from '../errors.js';
import { AuthorizationMetrics } from '../metrics.js';
import { WebhookServer } from '../testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-authz-abort-'));
let server: WebhookServer;
let registry: Registry;
let metrics: AuthorizationMetrics;
let n = 0;

const attrs = (signal?: AbortSignal): RequestAttributes => ({
  user: { username: 'alice', groups: ['dev'] },
  verb: 'create',
  isResourceRequest: true,
  path: '/apis/events.k8s.io/v1/namespaces/ns/events',
  apiGroup: 'events.k8s.io',
  apiVersion: 'v1',
  resource: 'events',
  subresource: '',
  namespace: 'ns',
  name: '',
  ...(signal ? { signal } : {}),
});

function build(over: Partial<WebhookConfiguration> = {}, o: BuildAuthorizerOptions = {}): Authorizer {
  const file = join(dir, `kubeconfig-${++n}.yaml`);
  writeFileSync(file, server.kubeconfig());
  const config = {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AuthorizationConfiguration',
    authorizers: [
      {
        type: 'Webhook',
        name: 'hook',
        webhook: {
          timeout: 10e9,
          authorizedTTL: 300e9,
          unauthorizedTTL: 30e9,
          subjectAccessReviewVersion: 'v1',
          failurePolicy: 'NoOpinion',
          connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: file },
          ...over,
        },
      },
    ],
  } as unknown as AuthorizationConfiguration;
  return buildAuthorizer(config, { metrics, retryBackoff: { initialMs: 20, factor: 1.5, jitter: 0, steps: 5 }, ...o });
}

const metric = async (name: string, labels: Record<string, string>): Promise<number> => {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  return (m?.values ?? [])
    .filter((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l))
    .reduce((sum, x) => sum + x.value, 0);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  server = await WebhookServer.start();
});
afterAll(async () => server.close());
beforeEach(() => {
  registry = new Registry();
  metrics = new AuthorizationMetrics(registry);
  server.received.length = 0;
  server.abandoned = 0;
  server.answer = () => ({ status: { allowed: true } });
});

describe('an aborted request signal', () => {
  it('cuts the call in flight: the webhook sees it close, no retry follows, nothing is cached, metered canceled', async () => {
    server.answer = () => ({ status: { allowed: true }, delayMs: 3000 });
    const a = build();
    const ac = new AbortController();
    const pending = a.authorize(attrs(ac.signal));
    expect(pending).toBeInstanceOf(Promise);
    await server.until(() => server.calls === 1);
    const abortedAt = performance.now();
    ac.abort();
    const d = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(500);
    expect(d.decision).toBe('NoOpinion');
    expect(d.error).toBeInstanceOf(AuthorizationError);
    expect((d.error as AuthorizationError).code).toBe('WebhookCanceled');
    expect(d.error?.message).toMatch(/^Post "https:\/\/127\.0\.0\.1:\d+\/authorize": context canceled$/);
    await server.until(() => server.abandoned === 1); // the server saw its request close unanswered
    await sleep(300); // longer than every backoff sleep together
    expect(server.calls).toBe(1);
    expect(await metric('apiserver_authorization_webhook_evaluations_total', { result: 'canceled' })).toBe(1);
    expect(await metric('apiserver_authorization_webhook_evaluations_total', { result: 'error' })).toBe(0);
    expect(await metric('apiserver_authorization_webhook_evaluations_fail_open_total', {})).toBe(0);
    // not cached: the same request asks the webhook again
    server.answer = () => ({ status: { allowed: true } });
    expect((await a.authorize(attrs())).decision).toBe('Allow');
    expect(server.calls).toBe(2);
  });

  it('ends the backoff sleep at once: no retry after an abort between attempts', async () => {
    server.answer = () => ({ http: 500, body: 'broken' });
    const a = build({}, { retryBackoff: { initialMs: 400, factor: 1.5, jitter: 0, steps: 5 } });
    const ac = new AbortController();
    const pending = a.authorize(attrs(ac.signal));
    await server.until(() => server.calls === 1);
    await sleep(50); // the answer is in: the authorizer sleeps before its retry
    const abortedAt = performance.now();
    ac.abort();
    const d = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(200);
    expect((d.error as AuthorizationError).code).toBe('WebhookCanceled');
    await sleep(700);
    expect(server.calls).toBe(1);
    expect(await metric('apiserver_authorization_webhook_evaluations_fail_open_total', {})).toBe(0);
  });

  it('makes no call at all when already aborted; without abort, a failing webhook still retries and fails open', async () => {
    server.answer = () => ({ http: 500, body: 'broken' });
    const a = build();
    const d = await a.authorize(attrs(AbortSignal.abort()));
    expect((d.error as AuthorizationError).code).toBe('WebhookCanceled');
    expect(server.calls).toBe(0);
    await a.authorize(attrs(new AbortController().signal));
    expect(server.calls).toBe(5);
    expect(await metric('apiserver_authorization_webhook_evaluations_fail_open_total', { result: 'error' })).toBe(1);
  });

  it('shares one call among identical concurrent requests: one that goes away stops waiting, the others keep the call and its answer', async () => {
    server.answer = () => ({ status: { allowed: true }, delayMs: 300 });
    const a = build();
    const ac = new AbortController();
    const left = a.authorize(attrs(ac.signal));
    const stays = a.authorize(attrs(new AbortController().signal));
    const noSignal = a.authorize(attrs());
    await server.until(() => server.calls === 1);
    ac.abort();
    const gone = await left;
    expect((gone.error as AuthorizationError).code).toBe('WebhookCanceled');
    expect(gone.decision).toBe('NoOpinion');
    expect(await stays).toEqual({ decision: 'Allow', reason: '' });
    expect(await noSignal).toEqual({ decision: 'Allow', reason: '' });
    expect(server.abandoned).toBe(0);
    expect(server.calls).toBe(1);
    expect(await metric('apiserver_authorization_webhook_evaluations_total', { result: 'success' })).toBe(1);
    expect(a.authorize(attrs())).toEqual({ decision: 'Allow', reason: '' }); // the answer that came is cached
  });

  it('cuts a shared call once every request waiting for it has gone; a later request makes a new call', async () => {
    server.answer = () => ({ status: { allowed: true }, delayMs: 3000 });
    const a = build();
    const [x, y] = [new AbortController(), new AbortController()];
    const px = a.authorize(attrs(x.signal));
    const py = a.authorize(attrs(y.signal));
    await server.until(() => server.calls === 1);
    x.abort();
    expect((await px).error?.message).toMatch(/context canceled/);
    await sleep(100);
    expect(server.abandoned).toBe(0); // y still waits
    y.abort();
    expect((await py).error?.message).toMatch(/context canceled/);
    await server.until(() => server.abandoned === 1);
    server.answer = () => ({ status: { allowed: true } });
    expect((await a.authorize(attrs(new AbortController().signal))).decision).toBe('Allow');
    expect(server.calls).toBe(2);
    expect(await metric('apiserver_authorization_webhook_evaluations_total', { result: 'canceled' })).toBe(1);
  });

  it('shares nothing when answers are not kept (cacheAuthorizedRequests: false): each request is reviewed', async () => {
    server.answer = () => ({ status: { allowed: true }, delayMs: 200 });
    const a = build({ cacheAuthorizedRequests: false } as Partial<WebhookConfiguration>);
    const answers = await Promise.all([a.authorize(attrs()), a.authorize(attrs()), a.authorize(attrs())]);
    expect(answers.map((d) => d.decision)).toEqual(['Allow', 'Allow', 'Allow']);
    expect(server.calls).toBe(3);
  });

  it('shares calls only between requests with one cache key: another user is reviewed on its own', async () => {
    server.answer = () => ({ status: { allowed: true }, delayMs: 200 });
    const a = build();
    const bob = { ...attrs(), user: { username: 'bob', groups: ['dev'] } };
    await Promise.all([a.authorize(attrs()), a.authorize(bob), a.authorize(attrs())]);
    expect(server.calls).toBe(2);
    expect(server.received.map((r) => r.review.spec?.user).sort()).toEqual(['alice', 'bob']);
  });

  it('reaches the call through a wrapTransport wrapper that drops the signal', async () => {
    server.answer = () => ({ status: { allowed: true }, delayMs: 3000 });
    let wrapped = 0;
    const a = build(
      {},
      {
        // written before transports took a signal: calls its inner transport with (body, headers)
        wrapTransport: (inner) => (body, headers) => {
          wrapped++;
          return inner(body, headers);
        },
      },
    );
    const ac = new AbortController();
    const pending = a.authorize(attrs(ac.signal));
    await server.until(() => server.calls === 1);
    ac.abort();
    expect((await pending).error?.message).toMatch(/context canceled/);
    await server.until(() => server.abandoned === 1);
    expect(wrapped).toBe(1);
  });

  it('ends a call whose egress dial is still in progress; the late connection carries nothing', async () => {
    let dials = 0;
    const a = build(
      {},
      {
        dialFor: () => async (target) => {
          dials++;
          await sleep(300);
          return connect(target.port, target.host);
        },
      },
    );
    const ac = new AbortController();
    const pending = a.authorize(attrs(ac.signal));
    await sleep(50);
    const abortedAt = performance.now();
    ac.abort();
    expect((await pending).error?.message).toMatch(/context canceled/);
    expect(performance.now() - abortedAt).toBeLessThan(200);
    await sleep(600);
    expect(dials).toBe(1);
    expect(server.calls).toBe(0);
  });
});
