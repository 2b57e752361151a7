import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { alwaysDeny } from '@kevents/authz';
import { Kubectl, request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ authorizer: alwaysDeny });
});
afterAll(async () => srv.close());

describe('--authorization-mode=AlwaysDeny', () => {
  it('answers resource requests with Kubernetes’ 403 Status', async () => {
    const list = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/ns/events`);
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'events.events.k8s.io is forbidden: User "system:anonymous" cannot list resource "events" in API group "events.k8s.io" in the namespace "ns": Everything is forbidden.',
      details: { group: 'events.k8s.io', kind: 'events' },
    });
    const get = await request(`${srv.url}/api/v1/namespaces/ns/events/x`);
    expect(get.body.message).toBe(
      'events "x" is forbidden: User "system:anonymous" cannot get resource "events" in API group "" in the namespace "ns": Everything is forbidden.',
    );
    const watch = await request(`${srv.url}/apis/events.k8s.io/v1/events?watch=true`);
    expect(watch.body.message).toBe(
      'events.events.k8s.io is forbidden: User "system:anonymous" cannot watch resource "events" in API group "events.k8s.io" at the cluster scope: Everything is forbidden.',
    );
  });

  it('decides before reading the body, and stores nothing', async () => {
    const big = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/ns/events`, {
      method: 'POST',
      body: { ...sampleEvent('x', 'ns'), note: 'y'.repeat(4 * 1024 * 1024) },
    });
    expect(big.status).toBe(403);
    expect(big.body.message).toContain('cannot create resource "events"');
    expect((await srv.storage.list({ resource: 'events' })).items).toHaveLength(0);
  });

  it('forbids non-resource paths but keeps health checks open', async () => {
    const v = await request(`${srv.url}/version`);
    expect(v.status).toBe(403);
    expect(v.body.message).toBe(
      'forbidden: User "system:anonymous" cannot get path "/version": Everything is forbidden.',
    );
    expect((await request(`${srv.url}/readyz`)).text).toBe('ok');
  });

  it('is what kubectl prints', async () => {
    const r = await new Kubectl(srv.url).run(['get', 'events.events.k8s.io', '-n', 'ns', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Forbidden)');
  });
});

// A client that goes away while a SubjectAccessReview webhook decides (kube-apiserver cancels the
// call and its retries with the request context): the call in flight is cut, no retry follows,
// and nothing is stored for the departed client.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect as h2connect, constants as h2 } from 'node:http2';
import type { ClientHttp2Session } from 'node:http2';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAuthorizer } from '@kevents/authz';
import { WebhookServer } from '@kevents/authz/testing';
import type { AuthorizationConfiguration } from '@kevents/api';
import { servingCert } from './tls.js';

describe('a client that goes away while the authorization webhook decides', () => {
  let webhook: WebhookServer;
  let plain: TestServer;
  let tls: TestServer;
  let tlsCA: string;
  const eventsPath = '/apis/events.k8s.io/v1/namespaces/ns/events';
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    webhook = await WebhookServer.start();
    const file = join(mkdtempSync(join(tmpdir(), 'kevents-authz-abort-')), 'webhook.kubeconfig');
    writeFileSync(file, webhook.kubeconfig());
    const authorizer = () =>
      buildAuthorizer(
        {
          apiVersion: 'apiserver.config.k8s.io/v1',
          kind: 'AuthorizationConfiguration',
          authorizers: [
            {
              type: 'Webhook',
              name: 'webhook',
              webhook: {
                timeout: 10e9,
                authorizedTTL: 0,
                unauthorizedTTL: 0,
                cacheAuthorizedRequests: false,
                cacheUnauthorizedRequests: false,
                subjectAccessReviewVersion: 'v1',
                failurePolicy: 'NoOpinion',
                connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: file },
              },
            },
          ],
        } as unknown as AuthorizationConfiguration,
        { retryBackoff: { initialMs: 50, factor: 1.5, jitter: 0, steps: 5 } },
      );
    plain = await startTestServer({ authorizer: authorizer() });
    const pair = await servingCert('', '', '127.0.0.1');
    tlsCA = pair.cert;
    tls = await startTestServer({ authorizer: authorizer(), https: { key: pair.key, cert: pair.cert } });
  });
  afterAll(async () => {
    await plain?.close();
    await tls?.close();
    await webhook?.close();
  });

  it('HTTP/1.1 socket closed during a failing webhook call: the call is cut, no retry, nothing stored', async () => {
    webhook.received.length = 0;
    webhook.abandoned = 0;
    // Retried 5 times when nobody leaves; slow enough that the close below always comes before the
    // answer, however loaded the machine is (a 300 ms answer raced the close on a busy CI runner).
    webhook.answer = () => ({ http: 500, body: 'overloaded', delayMs: 3000 });
    const body = JSON.stringify(sampleEvent('left-h1', 'ns'));
    const socket = connect(Number(new URL(plain.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST ${eventsPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await webhook.until(() => webhook.calls === 1);
    socket.destroy();
    await webhook.until(() => webhook.abandoned === 1, 2500); // the webhook saw its request close unanswered
    await sleep(500); // an uncut retry would follow the abandoned call after a 50 ms backoff
    expect(webhook.calls).toBe(1);
    expect((await plain.storage.list({ resource: 'events' })).items).toHaveLength(0);
  });

  it('HTTP/2 stream reset during a slow webhook call: the call is cut, nothing stored; the connection serves on', async () => {
    webhook.received.length = 0;
    webhook.abandoned = 0;
    webhook.answer = () => ({ status: { allowed: true }, delayMs: 1000 });
    const session: ClientHttp2Session = h2connect(tls.url, { ca: tlsCA });
    try {
      const stream = session.request({ ':method': 'POST', ':path': eventsPath, 'content-type': 'application/json' });
      stream.on('error', () => undefined);
      stream.end(JSON.stringify(sampleEvent('left-h2', 'ns')));
      await webhook.until(() => webhook.calls === 1);
      stream.close(h2.NGHTTP2_CANCEL);
      await webhook.until(() => webhook.abandoned === 1, 2000);
      await sleep(1200); // the webhook's Allow would have arrived and the event been created
      expect(webhook.calls).toBe(1);
      expect((await tls.storage.list({ resource: 'events' })).items).toHaveLength(0);
      // the next request on the same connection is decided and served
      webhook.answer = () => ({ status: { allowed: true } });
      const status = await new Promise<number>((resolve, reject) => {
        const s = session.request({ ':method': 'POST', ':path': eventsPath, 'content-type': 'application/json' });
        let code = 0;
        s.on('response', (h) => (code = Number(h[':status'])));
        s.on('data', () => undefined);
        s.on('end', () => resolve(code));
        s.on('error', reject);
        s.end(JSON.stringify(sampleEvent('stayed-h2', 'ns')));
      });
      expect(status).toBe(201);
      const items = (await tls.storage.list({ resource: 'events' })).items as { metadata: { name: string } }[];
      expect(items.map((e) => e.metadata.name)).toEqual(['stayed-h2']);
    } finally {
      session.close();
    }
  });
});
