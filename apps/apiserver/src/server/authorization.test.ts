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
