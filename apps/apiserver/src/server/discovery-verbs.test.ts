/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Kubectl, request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;

beforeAll(async () => {
  srv = await startTestServer({ discoveryOmittedVerbs: ['delete', 'deletecollection'] });
});
afterAll(async () => srv.close());

describe('--discovery-omit-verbs', () => {
  it('leaves the verbs out of discovery, legacy and aggregated, and still serves them', async () => {
    const legacy = await request(`${srv.url}/apis/events.k8s.io/v1`);
    const events = legacy.body.resources.find((r: any) => r.name === 'events');
    expect(events.verbs).toEqual(['create', 'get', 'list', 'patch', 'update', 'watch']);
    const aggregated = await request(`${srv.url}/apis`, {
      headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    const leases = aggregated.body.items
      .find((g: any) => g.metadata.name === 'coordination.k8s.io')
      .versions[0].resources.find((r: any) => r.resource === 'leases');
    expect(leases.verbs).not.toContain('delete');
    const core = await request(`${srv.url}/api/v1`);
    expect(core.body.resources.find((r: any) => r.name === 'events').verbs).not.toContain('deletecollection');
    // OpenAPI still describes the operations.
    const openapi = await request(`${srv.url}/openapi/v3/apis/events.k8s.io/v1`);
    expect(openapi.body.paths['/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}'].delete).toBeDefined();

    await request(ns('dv'), { method: 'POST', body: sampleEvent('a', 'dv') });
    await request(ns('dv'), { method: 'POST', body: sampleEvent('b', 'dv') });
    expect((await request(`${ns('dv')}/a`, { method: 'DELETE' })).status).toBe(200);
    expect((await request(ns('dv'), { method: 'DELETE' })).body.items.map((i: any) => i.metadata.name)).toEqual(['b']);
  });

  it('kubectl still deletes', async () => {
    await request(ns('dv2'), { method: 'POST', body: sampleEvent('x', 'dv2') });
    const kubectl = new Kubectl(srv.url);
    const r = await kubectl.run(['delete', 'events.events.k8s.io', 'x', '-n', 'dv2']);
    expect([r.code, r.stdout.trim()]).toEqual([0, 'event.events.k8s.io "x" deleted']);
  });

  it('an unknown verb stops the start with one line', async () => {
    const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(process.execPath, [main, '--discovery-omit-verbs=delete,remove'], (err, _out, stderr) =>
        resolve({ code: err ? ((err as any).code as number) : 0, stderr }),
      ),
    );
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'Error: invalid argument "delete,remove" for "--discovery-omit-verbs" flag: unknown verb "remove" (served verbs: create, delete, deletecollection, get, list, patch, update, watch)',
    );
  });
});
