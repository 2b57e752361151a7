import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv.close();
});

describe('apiserver_request_total', () => {
  it('counts exactly the resource requests, each under its verb, scope, dry run and code, however it ended', async () => {
    const events = `${srv.url}/apis/events.k8s.io/v1/namespaces/rm/events`;
    expect((await request(events, { method: 'POST', body: sampleEvent('a', 'rm') })).status).toBe(201);
    expect((await request(`${events}?dryRun=All`, { method: 'POST', body: sampleEvent('b', 'rm') })).status).toBe(201);
    expect(
      (await request(events, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await request(`${events}/a`, { method: 'HEAD' })).status).toBe(200);
    expect((await request(`${events}/a`)).status).toBe(200);
    expect((await request(`${events}/missing`)).status).toBe(404);
    expect((await request(events)).status).toBe(200);
    expect((await request(`${srv.url}/apis/events.k8s.io/v1/events`)).status).toBe(200);
    expect((await request(events, { method: 'PUT', body: sampleEvent('a', 'rm') })).status).toBe(405);
    expect((await request(`${srv.url}/version`)).status).toBe(200);
    expect((await request(`${srv.url}/healthz`)).status).toBe(200);
    expect((await request(`${srv.url}/apis/events.k8s.io/v1`)).status).toBe(200);
    expect((await request(`${srv.url}/no/such/path`)).status).toBe(404);

    const text = (await request(`${srv.url}/metrics`)).text;
    const lines = text.split('\n').filter((l) => l.startsWith('apiserver_request_total{'));
    const l = (code: number, verb: string, scope: string, dry = ''): string =>
      `apiserver_request_total{code="${code}",component="apiserver",dry_run="${dry}",group="events.k8s.io",resource="events",scope="${scope}",subresource="",verb="${verb}",version="v1"}`;
    expect(lines.sort()).toEqual(
      [
        `${l(201, 'POST', 'resource')} 1`,
        `${l(201, 'POST', 'resource', 'All')} 1`,
        `${l(400, 'POST', 'resource')} 1`,
        `${l(200, 'GET', 'resource')} 2`,
        `${l(404, 'GET', 'resource')} 1`,
        `${l(200, 'LIST', 'namespace')} 1`,
        `${l(200, 'LIST', 'cluster')} 1`,
        `${l(405, 'PUT', 'namespace')} 1`,
      ].sort(),
    );
    const counts = text
      .split('\n')
      .filter((x) => x.startsWith('apiserver_request_duration_seconds_count{'))
      .map((x) => x.replace(/^apiserver_request_duration_seconds_count\{/, '').replace(/,version="v1"\}/, ''));
    expect(counts.sort()).toEqual(
      [
        'component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="POST" 2',
        'component="apiserver",dry_run="All",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="POST" 1',
        'component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="GET" 3',
        'component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="namespace",subresource="",verb="LIST" 1',
        'component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="cluster",subresource="",verb="LIST" 1',
        'component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="namespace",subresource="",verb="PUT" 1',
      ].sort(),
    );
  });
});
