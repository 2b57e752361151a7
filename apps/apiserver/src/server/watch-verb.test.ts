import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Authorizer, RequestAttributes } from '@kevents/api';
import { waitFor } from '@kevents/api/testing';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/** An authorizer that allows everything and records what it was asked. */
const asked: RequestAttributes[] = [];
const recorder: Authorizer = {
  name: 'recorder',
  authorize: (attrs) => {
    asked.push(attrs);
    return { decision: 'Allow', reason: '' };
  },
};

let srv: TestServer;

const lease = (name: string, namespace: string): Record<string, unknown> => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace },
  spec: { holderIdentity: 'me', leaseDurationSeconds: 10 },
});

beforeAll(async () => {
  srv = await startTestServer({ authorizer: recorder });
  for (const ns of ['wv', 'wv2']) {
    expect(
      (
        await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
          method: 'POST',
          body: sampleEvent('e1', ns),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, {
          method: 'POST',
          body: lease('l1', ns),
        })
      ).status,
    ).toBe(201);
  }
});
afterAll(async () => srv?.close());
beforeEach(() => {
  asked.length = 0;
});

/** The collections a watch may be asked on: [title, path, group, resource, namespace, metric scope]. */
const collections: readonly (readonly [string, string, string, string, string, string])[] = [
  [
    'events.k8s.io/v1 events in a namespace',
    '/apis/events.k8s.io/v1/namespaces/wv/events',
    'events.k8s.io',
    'events',
    'wv',
    'namespace',
  ],
  ['core v1 events in a namespace', '/api/v1/namespaces/wv/events', '', 'events', 'wv', 'namespace'],
  [
    'events.k8s.io/v1 events across namespaces',
    '/apis/events.k8s.io/v1/events',
    'events.k8s.io',
    'events',
    '',
    'cluster',
  ],
  ['core v1 events across namespaces', '/api/v1/events', '', 'events', '', 'cluster'],
  [
    'coordination.k8s.io/v1 leases in a namespace',
    '/apis/coordination.k8s.io/v1/namespaces/wv/leases',
    'coordination.k8s.io',
    'leases',
    'wv',
    'namespace',
  ],
  [
    'coordination.k8s.io/v1 leases across namespaces',
    '/apis/coordination.k8s.io/v1/leases',
    'coordination.k8s.io',
    'leases',
    '',
    'cluster',
  ],
];

const watchValues = ['t', 'True', '1', 'true', 'yes', 'TRUE', 'y', ''];
const listValues = ['false', '0', 'FALSE', 'False'];

/** Opens a GET, reads the first line, aborts: a watch when it streams an event line. */
async function firstLine(url: string): Promise<{ status: number; contentType: string; line: string; whole: string }> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers: { accept: 'application/json' } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const timer = setTimeout(() => abort.abort(), 3000);
      const { value, done } = await reader.read().finally(() => clearTimeout(timer));
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.includes('\n')) break;
    }
  } catch {
    // aborted
  } finally {
    abort.abort();
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    line: text.split('\n')[0] ?? '',
    whole: text,
  };
}

/** The apiserver_request_total samples with these labels, by label set. */
async function requestTotal(match: Record<string, string>): Promise<number> {
  const text = (await request(`${srv.url}/metrics`)).text;
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])) as Record<
      string,
      string
    >;
    if (Object.entries(match).every(([k, v]) => labels[k] === v))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

const resourceAsks = (): RequestAttributes[] => asked.filter((a) => a.isResourceRequest);

/** The apiserver_longrunning_requests gauge for these labels. */
async function longRunning(match: Record<string, string>): Promise<number> {
  const text = (await request(`${srv.url}/metrics`)).text;
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_longrunning_requests{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(match).every(([k, v]) => labels[k] === v))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

describe('watch=<true> on a collection GET is a watch for the handler, the authorizer and /metrics', () => {
  for (const [title, path, group, resource, namespace, scope] of collections) {
    for (const v of watchValues) {
      it(`${title}: watch=${JSON.stringify(v)}`, async () => {
        asked.length = 0;
        const abort = new AbortController();
        const res = await fetch(`${srv.url}${path}?watch=${encodeURIComponent(v)}&resourceVersion=0`, {
          signal: abort.signal,
        });
        try {
          expect(res.status).toBe(200);
          // A watch stream: the first line is an event, not a list.
          const reader = res.body!.getReader();
          let text = '';
          while (!text.includes('\n')) {
            const { value, done } = await reader.read();
            if (done) break;
            text += new TextDecoder().decode(value);
          }
          expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({
            type: 'ADDED',
            object: { metadata: { name: expect.any(String) } },
          });
          expect(resourceAsks()).toEqual([
            expect.objectContaining({
              verb: 'watch',
              apiGroup: group,
              apiVersion: 'v1',
              resource,
              namespace,
              name: '',
              subresource: '',
            }),
          ]);
          // While it is open it is a long-running WATCH.
          expect(await longRunning({ verb: 'WATCH', group, resource, scope })).toBeGreaterThanOrEqual(1);
        } finally {
          abort.abort();
        }
      });
    }
  }

  it('every spelling of watch=<true> is counted as WATCH in apiserver_request_total (server-ended watches)', async () => {
    const before = new Map<string, { watch: number; list: number }>();
    for (const [, , group, resource, , scope] of collections) {
      before.set(`${group}|${resource}|${scope}`, {
        watch: await requestTotal({ verb: 'WATCH', group, resource, scope, code: '200' }),
        list: await requestTotal({ verb: 'LIST', group, resource, scope }),
      });
    }
    await Promise.all(
      collections.flatMap(([, path]) =>
        watchValues.map(async (v) => {
          const r = await request(`${srv.url}${path}?watch=${encodeURIComponent(v)}&timeoutSeconds=1`);
          expect(r.status).toBe(200);
          expect(JSON.parse(r.text.split('\n')[0]!).type).toBe('ADDED');
        }),
      ),
    );
    for (const [title, , group, resource, , scope] of collections) {
      const b = before.get(`${group}|${resource}|${scope}`)!;
      await waitFor(
        async () =>
          (await requestTotal({ verb: 'WATCH', group, resource, scope, code: '200' })) === b.watch + watchValues.length,
        2000,
      ).catch(async () => {
        throw new Error(
          `${title}: WATCH ${b.watch} -> ${await requestTotal({ verb: 'WATCH', group, resource, scope, code: '200' })}, expected +${watchValues.length}`,
        );
      });
      expect({ title, list: await requestTotal({ verb: 'LIST', group, resource, scope }) }).toEqual({
        title,
        list: b.list,
      });
    }
  });

  it('a watch the client closes is counted as WATCH too (kube-apiserver records it when the handler returns)', async () => {
    const labels = { verb: 'WATCH', group: 'events.k8s.io', resource: 'events', scope: 'namespace', code: '200' };
    const before = await requestTotal(labels);
    const r = await firstLine(`${srv.url}/apis/events.k8s.io/v1/namespaces/wv/events?watch=true&resourceVersion=0`);
    expect(JSON.parse(r.line).type).toBe('ADDED');
    await waitFor(async () => (await requestTotal(labels)) === before + 1, 2000);
  });

  it('the legacy /watch/ path is a watch for the authorizer and /metrics', async () => {
    const labels = { verb: 'WATCH', group: 'events.k8s.io', resource: 'events', scope: 'namespace', code: '200' };
    const before = await requestTotal(labels);
    const r = await request(`${srv.url}/apis/events.k8s.io/v1/watch/namespaces/wv/events?timeoutSeconds=1`);
    expect(JSON.parse(r.text.split('\n')[0]!).type).toBe('ADDED');
    expect(resourceAsks()).toEqual([
      expect.objectContaining({
        verb: 'watch',
        apiGroup: 'events.k8s.io',
        resource: 'events',
        namespace: 'wv',
        name: '',
      }),
    ]);
    await waitFor(async () => (await requestTotal(labels)) === before + 1, 2000);
  });

  it('a watch that the server ends (timeoutSeconds) is counted as WATCH too', async () => {
    const labels = { verb: 'WATCH', group: 'coordination.k8s.io', resource: 'leases', scope: 'namespace', code: '200' };
    const before = await requestTotal(labels);
    const r = await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/wv2/leases?watch=yes&timeoutSeconds=1`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'l1' } } });
    await waitFor(async () => (await requestTotal(labels)) === before + 1, 2000);
  });

  it('an open watch shows in apiserver_longrunning_requests{verb="WATCH"}', async () => {
    const abort = new AbortController();
    const res = await fetch(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/wv/leases?watch=1`, {
      signal: abort.signal,
    });
    try {
      expect(res.status).toBe(200);
      const metrics = (await request(`${srv.url}/metrics`)).text;
      const line = metrics
        .split('\n')
        .find(
          (l) =>
            l.startsWith('apiserver_longrunning_requests{') &&
            l.includes('resource="leases"') &&
            l.includes('scope="namespace"') &&
            l.includes('verb="WATCH"'),
        );
      expect(line).toBeDefined();
      expect(Number(line!.slice(line!.lastIndexOf(' ') + 1))).toBeGreaterThanOrEqual(1);
    } finally {
      abort.abort();
    }
  });
});

describe('watch=<false> on a collection GET is a list everywhere', () => {
  for (const [title, path, group, resource, namespace, scope] of collections) {
    for (const v of listValues) {
      it(`${title}: watch=${v}`, async () => {
        const labels = { verb: 'LIST', group, resource, scope, code: '200' };
        const before = await requestTotal(labels);
        const watchesBefore = await requestTotal({ verb: 'WATCH', group, resource, scope });
        asked.length = 0;
        const r = await request(`${srv.url}${path}?watch=${v}`);
        expect(r.status).toBe(200);
        expect(r.body.kind).toMatch(/List$/);
        expect(r.body.items.length).toBeGreaterThan(0);
        expect(resourceAsks()).toEqual([
          expect.objectContaining({ verb: 'list', apiGroup: group, resource, namespace, name: '' }),
        ]);
        expect(await requestTotal(labels)).toBe(before + 1);
        expect(await requestTotal({ verb: 'WATCH', group, resource, scope })).toBe(watchesBefore);
      });
    }
  }
});

describe('field selectors that pin metadata.name', () => {
  const base = `/apis/coordination.k8s.io/v1/namespaces/wv/leases`;

  it('a list with fieldSelector=metadata.name=x is verb list with name x for the authorizer', async () => {
    const r = await request(`${srv.url}${base}?fieldSelector=${encodeURIComponent('metadata.name=x')}`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('LeaseList');
    expect(r.body.items).toEqual([]);
    expect(resourceAsks()).toEqual([
      expect.objectContaining({ verb: 'list', resource: 'leases', namespace: 'wv', name: 'x' }),
    ]);
  });

  it('== pins the name too; != and other fields do not', async () => {
    const cases: [string, string][] = [
      ['metadata.name==l1', 'l1'],
      ['metadata.name!=l1', ''],
      ['metadata.namespace=wv', ''],
      ['metadata.namespace=wv,metadata.name=l1', 'l1'],
    ];
    for (const [selector, name] of cases) {
      asked.length = 0;
      const r = await request(`${srv.url}${base}?fieldSelector=${encodeURIComponent(selector)}`);
      expect({ selector, status: r.status }).toEqual({ selector, status: 200 });
      expect({ selector, asked: resourceAsks().map((a) => `${a.verb} ${a.name}`) }).toEqual({
        selector,
        asked: [`list ${name}`],
      });
    }
  });

  it('a name that is not a valid path segment is not pinned', async () => {
    const r = await request(`${srv.url}${base}?fieldSelector=${encodeURIComponent('metadata.name=..')}`);
    expect(r.status).toBe(200);
    expect(resourceAsks().map((a) => `${a.verb} ${a.name}`)).toEqual(['list ']);
  });

  it('a watch with fieldSelector=metadata.name=l1 is verb watch with name l1', async () => {
    const r = await firstLine(
      `${srv.url}${base}?watch=true&resourceVersion=0&fieldSelector=${encodeURIComponent('metadata.name=l1')}`,
    );
    expect(JSON.parse(r.line)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'l1' } } });
    expect(resourceAsks()).toEqual([
      expect.objectContaining({ verb: 'watch', resource: 'leases', namespace: 'wv', name: 'l1' }),
    ]);
  });

  it('a GET of one object is verb get, whatever watch says', async () => {
    const r = await request(`${srv.url}${base}/l1?watch=true`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('Lease');
    expect(resourceAsks().map((a) => `${a.verb} ${a.name}`)).toEqual(['get l1']);
  });
});

describe('DELETE on a collection', () => {
  it('is deletecollection for the authorizer and DELETE in /metrics (scope namespace)', async () => {
    const ns = 'wv-dc';
    for (const n of ['a', 'b']) {
      await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, {
        method: 'POST',
        body: lease(n, ns),
      });
    }
    const labels = {
      verb: 'DELETE',
      group: 'coordination.k8s.io',
      resource: 'leases',
      scope: 'namespace',
      code: '200',
    };
    const before = await requestTotal(labels);
    asked.length = 0;
    const r = await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, { method: 'DELETE' });
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('LeaseList');
    expect(resourceAsks()).toEqual([
      expect.objectContaining({ verb: 'deletecollection', resource: 'leases', namespace: ns, name: '' }),
    ]);
    expect(await requestTotal(labels)).toBe(before + 1);
  });

  it('a DELETE of one object is delete', async () => {
    await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/wv-d/leases`, {
      method: 'POST',
      body: lease('one', 'wv-d'),
    });
    asked.length = 0;
    const r = await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/wv-d/leases/one`, { method: 'DELETE' });
    expect(r.status).toBe(200);
    expect(resourceAsks().map((a) => `${a.verb} ${a.name}`)).toEqual(['delete one']);
  });

  it('deletecollection across all namespaces is deletecollection with no namespace', async () => {
    // Kubernetes serves no DELETE on the all-namespaces path of a namespaced resource: 405.
    const r = await request(`${srv.url}/apis/coordination.k8s.io/v1/leases`, { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(resourceAsks().map((a) => `${a.verb} ${a.namespace}`)).toEqual(['deletecollection ']);
  });
});

describe('the request scope label of apiserver_request_total, as kube-apiserver’s installer sets it', () => {
  it('POST on a namespaced collection is scope "resource"', async () => {
    const labels = { verb: 'POST', group: 'coordination.k8s.io', resource: 'leases', code: '201' };
    const before = { resource: await requestTotal({ ...labels, scope: 'resource' }) };
    const r = await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/wv-scope/leases`, {
      method: 'POST',
      body: lease('s', 'wv-scope'),
    });
    expect(r.status).toBe(201);
    expect(await requestTotal({ ...labels, scope: 'resource' })).toBe(before.resource + 1);
  });

  it('GET, PUT and PATCH of one object are scope "resource"', async () => {
    const item = `${srv.url}/apis/coordination.k8s.io/v1/namespaces/wv/leases/l1`;
    const m = { group: 'coordination.k8s.io', resource: 'leases', scope: 'resource', code: '200' };
    const before = await requestTotal({ ...m, verb: 'GET' });
    const got = await request(item);
    expect(await requestTotal({ ...m, verb: 'GET' })).toBe(before + 1);
    const putBefore = await requestTotal({ ...m, verb: 'PUT' });
    expect((await request(item, { method: 'PUT', body: got.body })).status).toBe(200);
    expect(await requestTotal({ ...m, verb: 'PUT' })).toBe(putBefore + 1);
    const patchBefore = await requestTotal({ ...m, verb: 'PATCH' });
    expect(
      (
        await request(item, {
          method: 'PATCH',
          body: { metadata: { labels: { p: '1' } } },
          headers: { 'content-type': 'application/merge-patch+json' },
        })
      ).status,
    ).toBe(200);
    expect(await requestTotal({ ...m, verb: 'PATCH' })).toBe(patchBefore + 1);
  });
});
