/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const ev = (ns: string, name = '') =>
  `${srv.url}/apis/events.k8s.io/v1/namespaces/${ns}/events${name ? `/${name}` : ''}`;
const core = (ns: string, name = '') => `${srv.url}/api/v1/namespaces/${ns}/events${name ? `/${name}` : ''}`;

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv.close());

const legacyEvent = (name: string, ns: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: ns },
  involvedObject: { kind: 'Pod', name: 'web-0', namespace: ns, apiVersion: 'v1' },
  reason: 'BackOff',
  message: 'Back-off restarting failed container',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:10:00Z',
  count: 5,
  type: 'Warning',
});

describe('one object, two API views', () => {
  it('creates via events.k8s.io, reads via core v1 and back with the same name, uid and resourceVersion', async () => {
    const created = (
      await request(ev('rt'), {
        method: 'POST',
        body: sampleEvent('a', 'rt', { related: { kind: 'Node', name: 'n1' } }),
      })
    ).body;
    const c = (await request(core('rt', 'a'))).body;
    expect(c.apiVersion).toBe('v1');
    expect(c.metadata).toEqual(created.metadata);
    expect(c.involvedObject).toEqual(created.regarding);
    expect(c.message).toBe(created.note);
    expect(c.reportingComponent).toBe(created.reportingController);
    expect(c.reportingInstance).toBe(created.reportingInstance);
    expect(c.eventTime).toBe(created.eventTime);
    expect(c.related).toEqual({ kind: 'Node', name: 'n1' });
    expect(c.firstTimestamp).toBeNull();
    expect(c.source).toEqual({});
    const back = (await request(ev('rt', 'a'))).body;
    expect(back).toEqual(created);
  });

  it('creates via core v1 with only legacy fields and reads via events.k8s.io', async () => {
    const created = await request(core('rt'), { method: 'POST', body: legacyEvent('legacy', 'rt') });
    expect(created.status).toBe(201);
    const e = (await request(ev('rt', 'legacy'))).body;
    expect(e).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      eventTime: null,
      reason: 'BackOff',
      note: 'Back-off restarting failed container',
      regarding: { kind: 'Pod', name: 'web-0', namespace: 'rt', apiVersion: 'v1' },
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:10:00Z',
      deprecatedCount: 5,
      type: 'Warning',
    });
    expect(e.metadata.uid).toBe(created.body.metadata.uid);
  });

  it('applies each view’s own validation: core v1 allows legacy updates, events.k8s.io does not', async () => {
    const cur = (await request(core('rt', 'legacy'))).body;
    const upd = await request(core('rt', 'legacy'), { method: 'PUT', body: { ...cur, count: 6, message: 'again' } });
    expect(upd.status).toBe(200);
    expect(upd.body.count).toBe(6);
    const strict = await request(ev('rt', 'legacy'), {
      method: 'PATCH',
      body: { deprecatedCount: 7 },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(strict.status).toBe(422);
    expect(strict.body.message).toBe('Event "legacy" is invalid: count: Invalid value: 7: field is immutable');
    const upper = await request(core('rt'), { method: 'POST', body: legacyEvent('Upper.Case', 'rt') });
    expect(upper.status).toBe(201);
    const upperStrict = await request(ev('rt'), { method: 'POST', body: sampleEvent('Upper.Case2', 'rt') });
    expect(upperStrict.status).toBe(422);
  });

  it('a watch on one view sees writes made through the other', async () => {
    const start = (await request(ev('xw'))).body.metadata.resourceVersion;
    const ctrl = new AbortController();
    const res = await fetch(`${core('xw')}?watch=true&resourceVersion=${start}`, { signal: ctrl.signal });
    const reader = res.body!.getReader();
    await request(ev('xw'), { method: 'POST', body: sampleEvent('w', 'xw') });
    let buf = '';
    while (!buf.includes('\n')) buf += Buffer.from((await reader.read()).value!).toString();
    ctrl.abort();
    const line = JSON.parse(buf.slice(0, buf.indexOf('\n')));
    expect(line.type).toBe('ADDED');
    expect(line.object.apiVersion).toBe('v1');
    expect(line.object.involvedObject.name).toBe('web-0');
  });

  it('maps events.k8s.io field labels onto the core ones', async () => {
    await request(ev('fs'), { method: 'POST', body: sampleEvent('one', 'fs') });
    await request(ev('fs'), {
      method: 'POST',
      body: sampleEvent('two', 'fs', { regarding: { kind: 'Node', name: 'n1', namespace: 'fs' }, type: 'Warning' }),
    });
    const names = async (url: string) => ((await request(url)).body.items as any[]).map((i) => i.metadata.name);
    expect(await names(`${ev('fs')}?fieldSelector=regarding.kind%3DNode`)).toEqual(['two']);
    expect(await names(`${core('fs')}?fieldSelector=involvedObject.kind%3DNode`)).toEqual(['two']);
    expect(await names(`${ev('fs')}?fieldSelector=reportingController%3Dexample.com%2Ftests,type!%3DWarning`)).toEqual([
      'one',
    ]);
    expect(await names(`${core('fs')}?fieldSelector=reportingComponent%3Dexample.com%2Ftests`)).toEqual(['one', 'two']);
    expect(await names(`${core('fs')}?fieldSelector=source%3Dexample.com%2Ftests`)).toEqual(['one', 'two']);
    expect((await request(`${core('fs')}?fieldSelector=regarding.kind%3DNode`)).body.message).toBe(
      'field label not supported: regarding.kind',
    );
    expect((await request(`${ev('fs')}?fieldSelector=note%3Dx`)).body.message).toBe('field label not supported: note');
    const del = await request(`${core('fs')}?fieldSelector=type%3DWarning`, { method: 'DELETE' });
    expect(del.body.items.map((i: any) => i.metadata.name)).toEqual(['two']);
    expect(await names(ev('fs'))).toEqual(['one']);
  });
});
