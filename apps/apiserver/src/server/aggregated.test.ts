import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerMetrics } from '@kevents/apiserver';
import { generateCA, generateClientCert, generateServingCert } from '@kevents/authn/testing';
import type { KeyPair } from '@kevents/authn/testing';
import { WebhookServer, subjectAccessReviewPath } from '@kevents/authz/testing';
import type { ReceivedReview } from '@kevents/authz/testing';
import { MemoryStorage } from '@kevents/storage';
import { buildServer } from './app.js';
import type { KeventsServer } from './app.js';
import { startAuthentication } from './authentication.js';
import type { AuthenticationSetup } from './authentication.js';
import { startAuthorization } from './authorization.js';
import type { AuthorizationSetup } from './authorization.js';
import { apiserverOptions } from '../cli/flags.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const dir = mkdtempSync(join(tmpdir(), 'kevents-aggregated-'));

interface Answer {
  status: number;
  body: string;
}

/**
 * One HTTPS request to kevents as kube-aggregator sends it: its own connection, the given client
 * certificate (or none), the given headers.
 */
const send = (
  url: string,
  path: string,
  o: { cert?: KeyPair; headers?: Record<string, string | string[]>; method?: string; body?: string } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${url}${path}`,
      {
        method: o.method ?? 'GET',
        agent: false,
        rejectUnauthorized: false,
        ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
        headers: {
          accept: 'application/json',
          ...(o.body ? { 'content-type': 'application/json' } : {}),
          ...o.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });

describe('aggregated API server: request-header authentication and delegated authorization', () => {
  let frontProxyCA: KeyPair;
  let proxyCert: KeyPair;
  let wrongName: KeyPair;
  let strangerCert: KeyPair;
  let sar: WebhookServer;
  let authn: AuthenticationSetup;
  let authz: AuthorizationSetup;
  let kevents: KeventsServer;
  let url: string;
  /** Headers each request had when it reached its handler. */
  const handled: Record<string, unknown>[] = [];

  beforeAll(async () => {
    frontProxyCA = await generateCA('front-proxy-ca');
    const otherCA = await generateCA('other-ca');
    proxyCert = await generateClientCert(frontProxyCA, 'front-proxy-client');
    wrongName = await generateClientCert(frontProxyCA, 'not-the-aggregator');
    strangerCert = await generateClientCert(otherCA, 'front-proxy-client');
    sar = await WebhookServer.start({ token: 'auth-delegator-token', path: subjectAccessReviewPath });
    sar.answer = (r: ReceivedReview) => {
      const user = (r.review.spec as { user?: string }).user;
      if (user === 'alice') return { status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "view"' } };
      if (user === 'mallory') return { status: { allowed: false, denied: true, reason: 'not you' } };
      return { status: { allowed: false } };
    };
    const origin = new URL(sar.url).origin;
    const caFile = join(dir, 'front-proxy-ca.crt');
    writeFileSync(caFile, frontProxyCA.cert);
    const kubeconfig = join(dir, 'authorization.kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'c',
            cluster: { server: origin, 'certificate-authority-data': Buffer.from(sar.ca.cert).toString('base64') },
          },
        ],
        users: [{ name: 'u', user: { token: 'auth-delegator-token' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const metrics = new ServerMetrics();
    authz = await startAuthorization({
      options: apiserverOptions({
        authorizationKubeconfig: kubeconfig,
        authorizationAlwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
        authorizationAlwaysAllowGroups: ['system:masters'],
        authorizationWebhookCacheAuthorizedTtlMs: 10_000,
        authorizationWebhookCacheUnauthorizedTtlMs: 10_000,
      }),
      metrics,
      log: silent,
    });
    authn = await startAuthentication({
      options: apiserverOptions({
        requestheaderClientCaFile: caFile,
        requestheaderAllowedNames: ['front-proxy-client'],
        requestheaderUsernameHeaders: ['X-Remote-User'],
        requestheaderGroupHeaders: ['X-Remote-Group'],
        requestheaderExtraHeadersPrefix: ['X-Remote-Extra-'],
        requestheaderUidHeaders: ['X-Remote-Uid'],
      }),
      authorizer: authz.authorizer.name,
      metrics,
      log: silent,
    });
    const serving = await generateServingCert(await generateCA('serving-ca'));
    const server = buildServer({
      storage: new MemoryStorage(),
      https: { cert: serving.cert, key: serving.key, ...authn.tls },
      authenticator: authn.authenticator!,
      authorizer: authz.authorizer,
      metrics,
    });
    server.app.addHook('preHandler', (req, _reply, done) => {
      handled.push({ ...req.headers });
      done();
    });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    url = `https://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
    kevents = server;
  }, 60_000);

  afterAll(async () => {
    await kevents?.watches.closeAll();
    await kevents?.app.close();
    authn?.close();
    authz?.close();
    await sar?.close();
  });

  const aliceHeaders = {
    'X-Remote-User': 'alice',
    'X-Remote-Uid': 'alice-uid',
    'X-Remote-Group': ['devs', 'system:authenticated'],
    'X-Remote-Extra-Scopes': 'view',
    'X-Remote-Extra-Example.com%2FTeam': 'blue',
  };

  it('honours the headers from a verified front proxy with an allowed name: the SAR carries the user', async () => {
    const before = sar.calls;
    const r = await send(url, '/apis/events.k8s.io/v1/namespaces/ns1/events/e1', {
      cert: proxyCert,
      headers: aliceHeaders,
    });
    expect(r.status).toBe(404); // authorized; no such event
    expect(sar.calls).toBe(before + 1);
    const got = sar.received.at(-1)!;
    expect(got.headers.authorization).toBe('Bearer auth-delegator-token');
    expect(got.review.apiVersion).toBe('authorization.k8s.io/v1');
    expect(got.review.spec).toEqual({
      resourceAttributes: {
        namespace: 'ns1',
        verb: 'get',
        group: 'events.k8s.io',
        version: 'v1',
        resource: 'events',
        name: 'e1',
      },
      user: 'alice',
      uid: 'alice-uid',
      groups: ['devs', 'system:authenticated'],
      extra: { scopes: ['view'], 'example.com/team': ['blue'] },
    });
    // The front-proxy headers are gone before the handler reads the request.
    const last = handled.at(-1)!;
    expect(Object.keys(last).filter((k) => k.startsWith('x-remote-'))).toEqual([]);
  });

  it('sends watch as the verb, and a cached decision is not asked again', async () => {
    const before = sar.calls;
    const r = await send(url, '/apis/events.k8s.io/v1/events?watch=true&timeoutSeconds=1', {
      cert: proxyCert,
      headers: { 'X-Remote-User': 'alice' },
    });
    expect(r.status).toBe(200);
    expect((sar.received.at(-1)!.review.spec as { resourceAttributes: { verb: string } }).resourceAttributes.verb).toBe(
      'watch',
    );
    expect((sar.received.at(-1)!.review.spec as { groups: string[] }).groups).toEqual(['system:authenticated']);
    await send(url, '/apis/events.k8s.io/v1/events?watch=true&timeoutSeconds=1', {
      cert: proxyCert,
      headers: { 'X-Remote-User': 'alice' },
    });
    expect(sar.calls).toBe(before + 1);
  });

  it('ignores the headers with a certificate from another CA, a disallowed CN, or no certificate', async () => {
    const path = '/apis/events.k8s.io/v1/events';
    const stranger = await send(url, path, { cert: strangerCert, headers: aliceHeaders });
    expect(stranger.status).toBe(401);
    expect(JSON.parse(stranger.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const disallowed = await send(url, path, { cert: wrongName, headers: aliceHeaders });
    expect(disallowed.status).toBe(401);
    const before = sar.calls;
    const none = await send(url, path, { headers: aliceHeaders });
    // Anonymous: the cluster is asked about system:anonymous, not alice, and has no opinion.
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body).message).toBe(
      'events.events.k8s.io is forbidden: User "system:anonymous" cannot list resource "events" in API group "events.k8s.io" at the cluster scope',
    );
    expect(sar.calls).toBe(before + 1);
    expect((sar.received.at(-1)!.review.spec as { user: string }).user).toBe('system:anonymous');
  });

  it('answers a denial with the exact 403 text and reason', async () => {
    const r = await send(url, '/apis/events.k8s.io/v1/namespaces/prod/events', {
      cert: proxyCert,
      headers: { 'X-Remote-User': 'mallory' },
    });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'events.events.k8s.io is forbidden: User "mallory" cannot list resource "events" in API group "events.k8s.io" in the namespace "prod": not you',
      details: { group: 'events.k8s.io', kind: 'events' },
    });
  });

  it('always-allow paths and groups skip the SubjectAccessReview', async () => {
    const before = sar.calls;
    const health = await send(url, '/healthz', { cert: proxyCert, headers: { 'X-Remote-User': 'nobody' } });
    expect(health.status).toBe(200);
    const masters = await send(url, '/apis/events.k8s.io/v1/events', {
      cert: proxyCert,
      headers: { 'X-Remote-User': 'root', 'X-Remote-Group': 'system:masters' },
    });
    expect(masters.status).toBe(200);
    const version = await send(url, '/version', { cert: proxyCert, headers: { 'X-Remote-User': 'nobody' } });
    expect(version.status).toBe(403);
    expect(sar.calls).toBe(before + 1);
    expect(sar.received.at(-1)!.review.spec).toMatchObject({
      nonResourceAttributes: { path: '/version', verb: 'get' },
      user: 'nobody',
    });
  });

  it('creates an event as the front proxy user', async () => {
    const body = JSON.stringify({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'made-by-alice', namespace: 'ns1' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'example.com/c',
      reportingInstance: 'i',
      action: 'Test',
      reason: 'Test',
      type: 'Normal',
      regarding: { kind: 'Pod', namespace: 'ns1', name: 'p' },
    });
    const r = await send(url, '/apis/events.k8s.io/v1/namespaces/ns1/events', {
      cert: proxyCert,
      headers: { 'X-Remote-User': 'alice' },
      method: 'POST',
      body,
    });
    expect(r.status).toBe(201);
    expect((sar.received.at(-1)!.review.spec as { resourceAttributes: { verb: string } }).resourceAttributes.verb).toBe(
      'create',
    );
  });
});
