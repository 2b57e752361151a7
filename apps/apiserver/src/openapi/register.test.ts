import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { MemoryStorage } from '@kevents/storage';
import { buildServer } from '../server/app.js';
import type { KeventsServer } from '../server/app.js';

let srv: KeventsServer;
beforeAll(() => {
  srv = buildServer({ storage: new MemoryStorage() });
});
afterAll(async () => srv.app.close());

const get = (url: string, headers: Record<string, string> = {}) => srv.app.inject({ method: 'GET', url, headers });

describe('/openapi/v3', () => {
  it('indexes every served group version with a hashed URL', async () => {
    const res = await get('/openapi/v3');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const root = res.json() as { paths: Record<string, { serverRelativeURL: string }> };
    expect(Object.keys(root.paths)).toEqual([
      'api/v1',
      'apis/authentication.k8s.io/v1',
      'apis/authentication.k8s.io/v1alpha1',
      'apis/authentication.k8s.io/v1beta1',
      'apis/authorization.k8s.io/v1',
      'apis/coordination.k8s.io/v1',
      'apis/events.k8s.io/v1',
    ]);
    expect(root.paths['apis/events.k8s.io/v1']!.serverRelativeURL).toMatch(
      /^\/openapi\/v3\/apis\/events\.k8s\.io\/v1\?hash=[0-9A-F]{128}$/,
    );
    expect(res.headers['etag']).toBe(`"${createHash('sha512').update(res.body).digest('hex').toUpperCase()}"`);
  });

  it('serves a group version immutably at its hash, with the hash as ETag', async () => {
    const root = (await get('/openapi/v3')).json() as { paths: Record<string, { serverRelativeURL: string }> };
    const url = root.paths['apis/events.k8s.io/v1']!.serverRelativeURL;
    const res = await get(url, { accept: 'application/json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, immutable');
    expect(res.headers['vary']).toBe('Accept');
    expect(new Date(String(res.headers['expires'])).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    const hash = new URL(url, 'http://x').searchParams.get('hash');
    expect(res.headers['etag']).toBe(`"${hash}"`);
    expect(createHash('sha512').update(res.body).digest('hex').toUpperCase()).toBe(hash);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.0.0');
    expect(Object.keys(doc.paths)).toContain('/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}');
  });

  it('serves without a hash (no caching headers), redirects a stale hash, answers 304 for a held ETag', async () => {
    const plain = await get('/openapi/v3/api/v1');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBeUndefined();
    const stale = await get('/openapi/v3/api/v1?hash=0123');
    expect(stale.statusCode).toBe(301);
    expect(stale.headers['location']).toBe(`/openapi/v3/api/v1?hash=${String(plain.headers['etag']).slice(1, -1)}`);
    const again = await get('/openapi/v3/api/v1', { 'if-none-match': String(plain.headers['etag']) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 406 to a protobuf-only client and 404 for a group version not served', async () => {
    expect(
      (await get('/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' }))
        .statusCode,
    ).toBe(406);
    const missing = await get('/openapi/v3/apis/apps/v1');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });
});

describe('/openapi/v2', () => {
  it('serves JSON to JSON clients and 406 to protobuf-only ones (kubectl then falls back or reports)', async () => {
    const json = await get('/openapi/v2', { accept: 'application/json' });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toBe('application/json');
    const doc = json.json() as {
      swagger: string;
      paths: Record<string, unknown>;
      definitions: Record<string, unknown>;
    };
    expect(doc.swagger).toBe('2.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/namespaces/{namespace}/events',
        '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      ]),
    );
    expect(Object.keys(doc.definitions)).toEqual(
      expect.arrayContaining([
        'io.k8s.api.events.v1.Event',
        'io.k8s.api.core.v1.Event',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
      ]),
    );
    // kubectl up to 1.28 asks for the gnostic protobuf form (kube-openapi answers it; see openapi/protobuf.test.ts).
    const pb = await get('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(pb.statusCode).toBe(200);
    expect(pb.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect((await get('/openapi/v2', { accept: 'text/html' })).statusCode).toBe(406);
  });
});

describe('group domain and views', () => {
  it('follows --group-domain and the core view switch', async () => {
    const other = buildServer({ storage: new MemoryStorage(), groupDomain: 'example.com', coreView: false });
    try {
      const root = (await other.app.inject({ url: '/openapi/v3' })).json() as { paths: Record<string, unknown> };
      expect(Object.keys(root.paths)).toEqual([
        'api/v1',
        'apis/authentication.k8s.io/v1',
        'apis/authentication.k8s.io/v1alpha1',
        'apis/authentication.k8s.io/v1beta1',
        'apis/authorization.k8s.io/v1',
        'apis/coordination.example.com/v1',
        'apis/events.example.com/v1',
      ]);
      const core = (await other.app.inject({ url: '/openapi/v3/api/v1' })).json() as { paths: Record<string, unknown> };
      expect(Object.keys(core.paths)).toEqual(['/api/v1', '/api/v1/namespaces', '/api/v1/namespaces/{name}']);
      const ev = (await other.app.inject({ url: '/openapi/v3/apis/events.example.com/v1' })).json() as {
        components: { schemas: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }> };
      };
      expect(ev.components.schemas['io.k8s.api.events.v1.Event']!['x-kubernetes-group-version-kind']).toEqual([
        { group: 'events.example.com', kind: 'Event', version: 'v1' },
      ]);
    } finally {
      await other.app.close();
    }
  });

  it('describes only paths the server routes', async () => {
    const doc = (await get('/openapi/v2')).json() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, item] of Object.entries(doc.paths)) {
      if (path.includes('/watch/')) continue; // streams; routed (see the watch tests)
      const url = path.replace('{namespace}', 'default').replace('{name}', 'missing-object');
      for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
        if (!item[method]) continue;
        const res = await srv.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          ...(method === 'get' ? {} : { payload: '{}' }),
          headers: { 'content-type': method === 'patch' ? 'application/merge-patch+json' : 'application/json' },
        });
        // any answer but "no such path" / "method not allowed" means the route exists
        expect({
          path,
          method,
          status: res.statusCode,
          body:
            res.statusCode === 405 || /the server could not find the requested resource/.test(res.body) ? res.body : '',
        }).toEqual({ path, method, status: res.statusCode, body: '' });
      }
    }
  });
});
