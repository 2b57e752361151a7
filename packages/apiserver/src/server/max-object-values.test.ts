import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { encodeProtobuf } from '@kevents/api';
import { MemoryStorage } from '@kevents/storage';
import { leasesResource } from '../resources/leases/resource.js';
import { buildApiServer } from './build-server.js';
import type { ApiServer } from './build-server.js';
import { maxObjectValues } from '../registry/object-values.js';

const leases = '/apis/coordination.k8s.io/v1/namespaces/ns/leases';
const labels = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
const lease = (name: string, n = 0): Record<string, unknown> => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...(n > 0 && { labels: labels(n) }) },
  spec: { holderIdentity: 'me' },
});
const tooLarge = (limit: number, what = 'in one object'): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Request entity too large: limit is ${limit} values (object members and array elements) ${what}`,
  reason: 'RequestEntityTooLarge',
  code: 413,
});

const servers: ApiServer[] = [];
const build = (max?: number): ApiServer => {
  const s = buildApiServer({
    storage: new MemoryStorage(),
    resources: [leasesResource()],
    ...(max !== undefined && { maxObjectValues: max }),
  });
  servers.push(s);
  return s;
};
let small: ApiServer;
let standard: ApiServer;
let large: ApiServer;
beforeAll(() => {
  small = build(200);
  standard = build();
  large = build(20_000);
});
afterAll(async () => {
  for (const s of servers) {
    await s.watches.closeAll();
    await s.app.close();
  }
});

async function call(
  server: ApiServer,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body: unknown,
  contentType = 'application/json',
): Promise<{ code: number; body: Record<string, unknown> }> {
  const r = await server.app.inject({
    method,
    url,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { code: r.statusCode, body: r.json() };
}

/** The same request on a server with the default bound, then with a smaller one. */
async function both(
  ok: number,
  send: (s: ApiServer) => Promise<{ code: number; body: Record<string, unknown> }>,
): Promise<Record<string, unknown>> {
  expect((await send(standard)).code).toBe(ok);
  const refused = await send(small);
  expect(refused.code).toBe(413);
  return refused.body;
}

describe('buildApiServer({ maxObjectValues })', () => {
  it('refuses a create the default bound accepts, with the same Status naming its own bound, and stores nothing', async () => {
    expect(await both(201, (s) => call(s, 'POST', leases, lease('labels', 300)))).toEqual(tooLarge(200));
    const got = await small.app.inject({ method: 'GET', url: `${leases}/labels` });
    expect(got.statusCode).toBe(404);
  });

  it('refuses a JSON body spelling more than its body bound before it is parsed', async () => {
    const body = JSON.stringify(lease('wide', 1_500)).replace('"k0":"v"', '"k0":"v",');
    // The default server reads the text and finds the syntax error; the small one counts first.
    expect((await call(standard, 'POST', leases, body)).code).toBe(400);
    expect(await call(small, 'POST', leases, body)).toEqual({ code: 413, body: tooLarge(200) });
  });

  it('refuses a YAML create alike', async () => {
    const yaml = `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: yaml\n  labels:\n${Array.from(
      { length: 1_500 },
      (_, i) => `    k${i}: v\n`,
    ).join('')}`;
    expect(await both(201, (s) => call(s, 'POST', leases, yaml, 'application/yaml'))).toEqual(tooLarge(200));
  });

  it('refuses an update, a merge, JSON and strategic merge patch and an apply alike', async () => {
    for (const s of [standard, small]) {
      expect((await call(s, 'POST', leases, lease('base'))).code).toBe(201);
    }
    const put = (s: ApiServer): Promise<{ code: number; body: Record<string, unknown> }> =>
      call(s, 'PUT', `${leases}/put`, lease('put', 300));
    expect(await both(201, put)).toEqual(tooLarge(200));
    const patch = { metadata: { labels: labels(300) } };
    expect(await both(200, (s) => call(s, 'PATCH', `${leases}/base`, patch, 'application/merge-patch+json'))).toEqual(
      tooLarge(200),
    );
    const ops = [{ op: 'add', path: '/metadata/labels', value: labels(300) }];
    expect(await both(200, (s) => call(s, 'PATCH', `${leases}/base`, ops, 'application/json-patch+json'))).toEqual(
      tooLarge(200),
    );
    // A strategic merge patch spelling more than three times the bound, refused before it is parsed.
    const wide = { metadata: { labels: labels(700) } };
    expect(
      await both(200, (s) => call(s, 'PATCH', `${leases}/base`, wide, 'application/strategic-merge-patch+json')),
    ).toEqual(tooLarge(600, 'in a merge or strategic merge patch'));
    const apply = (s: ApiServer): Promise<{ code: number; body: Record<string, unknown> }> =>
      call(s, 'PATCH', `${leases}/applied?fieldManager=m`, lease('applied', 300), 'application/apply-patch+yaml');
    expect(await both(201, apply)).toEqual(tooLarge(200));
  });

  it('lets a larger bound store what the default refuses, and names it past it', async () => {
    const body = lease('many', Math.floor(maxObjectValues * 0.6));
    expect(await call(standard, 'POST', leases, body)).toEqual({ code: 413, body: tooLarge(maxObjectValues) });
    expect((await call(large, 'POST', leases, body)).code).toBe(201);
    // Past the default's body bound (11,000 names) but within this one's: counted once stored.
    const wider = lease('wider', 12_000);
    expect(await call(large, 'POST', leases, wider)).toEqual({ code: 413, body: tooLarge(20_000) });
    expect(await call(large, 'POST', leases, wider, 'application/yaml')).toEqual({
      code: 413,
      body: tooLarge(20_000),
    });
  });

  it("holds a protobuf body to the server's own bound while it is decoded", async () => {
    const send = async (server: ApiServer, name: string, n: number): Promise<{ code: number; body: unknown }> => {
      const r = await server.app.inject({
        method: 'POST',
        url: leases,
        headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' },
        payload: Buffer.from(encodeProtobuf(lease(name, n), 'coordination/v1.Lease')),
      });
      return { code: r.statusCode, body: r.json() };
    };
    expect(await send(small, 'pb', 300)).toEqual({ code: 413, body: tooLarge(200) });
    // 9,000 labels are more fields than the default's body bound, fewer than the larger one's
    expect(await send(standard, 'pb-wide', 9_000)).toEqual({ code: 413, body: tooLarge(maxObjectValues) });
    expect((await send(large, 'pb-wide', 9_000)).code).toBe(201);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => build(0)).toThrow(RangeError);
    expect(() => build(1.5)).toThrow(RangeError);
  });
});
