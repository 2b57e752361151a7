/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeProtobuf, decodeWatchEvent, encodeProtobuf } from '@kevents/api';
import type { ProtobufType } from '@kevents/api';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

const pb = 'application/vnd.kubernetes.protobuf';
// What client-go sends with ContentType protobuf (kube-controller-manager, kube-scheduler, kubelet).
const clientGoAccept = 'application/vnd.kubernetes.protobuf, */*';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ bookmarkIntervalMs: 100 }) });
});
afterAll(async () => srv.close());

/** A request with a bytes body and answer. */
async function send(url: string, init: { method?: string; body?: Uint8Array; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body ? { 'content-type': pb } : {}), ...init.headers },
    ...(init.body ? { body: new Uint8Array(init.body) } : {}),
  });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

const decoded = (bytes: Uint8Array, type: ProtobufType): any => decodeProtobuf(bytes, type);

describe('application/vnd.kubernetes.protobuf', () => {
  it('creates from a protobuf body and answers in protobuf: the bytes kube writes for the object', async () => {
    const body = encodeProtobuf(sampleEvent('a', 'p1'), 'events/v1.Event');
    const made = await send(ns('p1'), { method: 'POST', body, headers: { accept: clientGoAccept } });
    expect([made.status, made.type]).toEqual([201, pb]);
    expect(made.bytes.subarray(0, 4)).toEqual(Buffer.from('k8s\0', 'latin1'));
    const json = await request(`${ns('p1')}/a`);
    expect(decoded(made.bytes, 'events/v1.Event')).toEqual(json.body);
    const got = await send(`${ns('p1')}/a`, { headers: { accept: clientGoAccept } });
    expect(got.bytes).toEqual(encodeProtobuf(json.body, 'events/v1.Event'));
    // A body without kind and apiVersion takes the handler's, as kube's decoder defaults them.
    const { kind: _k, apiVersion: _a, ...bare } = sampleEvent('b', 'p1');
    const b = await send(ns('p1'), { method: 'POST', body: encodeProtobuf(bare, 'events/v1.Event') });
    expect(b.status).toBe(201);
  });

  it('lists, core v1 events and leases in protobuf', async () => {
    await request(ns('p2'), { method: 'POST', body: sampleEvent('a', 'p2') });
    await request(ns('p2'), { method: 'POST', body: sampleEvent('b', 'p2') });
    const json = await request(`${ns('p2')}?limit=1`);
    const list = await send(`${ns('p2')}?limit=1`, { headers: { accept: clientGoAccept } });
    expect(list.type).toBe(pb);
    expect(decoded(list.bytes, 'events/v1.EventList')).toEqual(json.body);
    const core = await send(`${srv.url}/api/v1/namespaces/p2/events/a`, { headers: { accept: pb } });
    expect(decoded(core.bytes, 'core/v1.Event')).toEqual(
      (await request(`${srv.url}/api/v1/namespaces/p2/events/a`)).body,
    );
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', namespace: 'p2' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-02T03:04:05.123456Z' },
    };
    const leases = `${srv.url}/apis/coordination.k8s.io/v1/namespaces/p2/leases`;
    const made = await send(leases, {
      method: 'POST',
      body: encodeProtobuf(lease, 'coordination/v1.Lease'),
      headers: { accept: pb },
    });
    expect(made.status).toBe(201);
    expect(decoded(made.bytes, 'coordination/v1.Lease').spec).toEqual(lease.spec);
    const updated = await send(`${leases}/l`, {
      method: 'PUT',
      body: encodeProtobuf(
        { ...decoded(made.bytes, 'coordination/v1.Lease'), spec: { ...lease.spec, holderIdentity: 'you' } },
        'coordination/v1.Lease',
      ),
      headers: { accept: pb },
    });
    expect([updated.status, decoded(updated.bytes, 'coordination/v1.Lease').spec.holderIdentity]).toEqual([200, 'you']);
  });

  it('the metadata client’s first choice: PartialObjectMetadataList in protobuf', async () => {
    await request(ns('p3'), { method: 'POST', body: sampleEvent('a', 'p3') });
    const r = await send(ns('p3'), {
      headers: {
        accept:
          'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      },
    });
    expect(r.type).toBe(pb);
    const list = decoded(r.bytes, 'meta/v1.PartialObjectMetadataList');
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.items.map((i: any) => i.metadata.name)).toEqual(['a']);
    // Tables are never protobuf: the next clause is taken.
    const table = await request(ns('p3'), {
      headers: { accept: 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1,application/json' },
    });
    expect(table.body.kind).toBe('EventList');
  });

  it('PartialObjectMetadata(List) of meta.k8s.io/v1beta1 in protobuf, as kube serves it', async () => {
    for (const name of ['a', 'b', 'c']) await request(ns('p6'), { method: 'POST', body: sampleEvent(name, 'p6') });
    const beta = (as: string): string => `${pb};as=${as};g=meta.k8s.io;v=v1beta1, application/json`;
    const one = await send(`${ns('p6')}/a`, { headers: { accept: beta('PartialObjectMetadata') } });
    expect(one.type).toBe(pb);
    const json = await request(`${ns('p6')}/a`, {
      headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1' },
    });
    expect(decoded(one.bytes, 'meta/v1.PartialObjectMetadata')).toEqual(json.body);
    expect(json.body.apiVersion).toBe('meta.k8s.io/v1beta1');
    // One item (encoded whole) and several (encoded in turns): v1beta1's list message, items field 1.
    for (const limit of [1, 3]) {
      const url = `${ns('p6')}?limit=${limit}`;
      const list = await send(url, { headers: { accept: beta('PartialObjectMetadataList') } });
      expect(list.type).toBe(pb);
      const jsonList = await request(url, {
        headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1' },
      });
      const got = decoded(list.bytes, 'meta/v1beta1.PartialObjectMetadataList');
      // protobuf carries no TypeMeta for the items.
      const items = jsonList.body.items.map(({ metadata }: any) => ({ metadata }));
      expect(got).toEqual({ ...jsonList.body, items });
      expect(list.bytes).toEqual(encodeProtobuf({ ...jsonList.body, items }, 'meta/v1beta1.PartialObjectMetadataList'));
    }
  });

  it('watches in length-prefixed WatchEvent frames', async () => {
    await request(ns('p4'), { method: 'POST', body: sampleEvent('a', 'p4') });
    const ctrl = new AbortController();
    const res = await fetch(`${ns('p4')}?watch=true&allowWatchBookmarks=true`, {
      headers: { accept: 'application/vnd.kubernetes.protobuf;stream=watch' },
      signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const reader = res.body!.getReader();
    let buf = Buffer.alloc(0);
    const frames: { type: string; object: any }[] = [];
    const timer = setTimeout(() => ctrl.abort(), 10_000);
    setTimeout(() => void request(`${ns('p4')}/a`, { method: 'DELETE' }), 50);
    try {
      while (frames.length < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        buf = Buffer.concat([buf, Buffer.from(value)]);
        while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
          const n = buf.readUInt32BE(0);
          const ev = decodeWatchEvent(buf.subarray(4, 4 + n));
          frames.push({ type: ev.type, object: decoded(ev.object!, 'events/v1.Event') });
          buf = buf.subarray(4 + n);
        }
      }
    } catch {
      // aborted
    } finally {
      clearTimeout(timer);
      ctrl.abort();
    }
    const real = frames.filter((f) => f.type !== 'BOOKMARK');
    expect(real.map((f) => `${f.type} ${f.object.metadata.name}`)).toEqual(['ADDED a', 'DELETED a']);
    expect(real[0]!.object.kind).toBe('Event');
  });

  it('deletes with a protobuf DeleteOptions body, answers a protobuf Status, refuses an unreadable body', async () => {
    await request(ns('p5'), { method: 'POST', body: sampleEvent('a', 'p5') });
    const wrong = encodeProtobuf(
      { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', preconditions: { uid: 'not-it' } },
      'meta/v1.DeleteOptions',
    );
    const conflict = await send(`${ns('p5')}/a`, { method: 'DELETE', body: wrong });
    expect(conflict.status).toBe(409);
    const gone = await send(`${ns('p5')}/a`, { method: 'DELETE', headers: { accept: pb } });
    expect([gone.status, gone.type]).toEqual([200, pb]);
    expect(decoded(gone.bytes, 'meta/v1.Status')).toMatchObject({ kind: 'Status', status: 'Success' });
    const bad = await send(ns('p5'), { method: 'POST', body: Buffer.from('k8s\0\x0a\xff', 'latin1') });
    expect(bad.status).toBe(400);
    const status = JSON.parse(bad.bytes.toString());
    expect(status.message).toMatch(/^the object provided is unrecognized \(must be of type Event\): .+ \(6b387300/);
    const none = await send(ns('p5'), { method: 'POST', body: Buffer.from('{"kind":"Event"}') });
    expect(none.status).toBe(400);
  });
});

describe('errors in protobuf (ErrorNegotiated: a Status in the media type negotiated)', () => {
  /** The protobuf Status and the JSON one for the same request, decoded with kevents' codec. */
  async function both(url: string, init: { method?: string; body?: unknown; accept: string }) {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const headers: Record<string, string> = { accept: init.accept };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method: init.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = await request(url, { method: init.method ?? 'GET', ...(init.body ? { body: init.body } : {}) });
    return { status: res.status, type: res.headers.get('content-type'), bytes, json };
  }

  const expectSame = (r: Awaited<ReturnType<typeof both>>, code: number): void => {
    expect([r.status, r.type, r.json.status]).toEqual([code, pb, code]);
    expect(r.bytes.subarray(0, 4)).toEqual(Buffer.from('k8s\0', 'latin1'));
    const status = decoded(r.bytes, 'meta/v1.Status');
    expect(status).toEqual(r.json.body);
    expect([status.apiVersion, status.kind, status.status, status.code]).toEqual(['v1', 'Status', 'Failure', code]);
    // The bytes are those kube writes for that Status (the same encoder as every other answer).
    expect(r.bytes).toEqual(encodeProtobuf(r.json.body, 'meta/v1.Status'));
  };

  it('a handler’s errors: 404, 409, 422 with causes, as client-go with protobuf asks', async () => {
    await request(ns('pe'), { method: 'POST', body: sampleEvent('a', 'pe') });
    expectSame(await both(`${ns('pe')}/missing`, { accept: clientGoAccept }), 404);
    expectSame(await both(ns('pe'), { method: 'POST', body: sampleEvent('a', 'pe'), accept: clientGoAccept }), 409);
    const invalid = await both(ns('pe'), {
      method: 'POST',
      body: sampleEvent('bad', 'pe', { type: 'Weird', reason: '' }),
      accept: pb,
    });
    expectSame(invalid, 422);
    expect(decoded(invalid.bytes, 'meta/v1.Status').details.causes).toHaveLength(2);
  });

  it('errors outside a resource handler: an unknown path, a watch’s own refusal (stream=watch is allowed)', async () => {
    expectSame(await both(`${srv.url}/apis/nope.example.com/v1/things`, { accept: pb }), 404);
    expectSame(await both(`${ns('pe')}?watch=1&labelSelector=a%20in`, { accept: `${pb};stream=watch` }), 400);
  });

  it('406 itself is never negotiated: WriteRawJSON (indented JSON, no newline)', async () => {
    const r = await send(ns('pe'), { headers: { accept: `${pb};as=Table;g=meta.k8s.io;v=v1` } });
    expect([r.status, r.type]).toEqual([406, 'application/json']);
    expect(r.bytes.toString()).toMatch(/^\{\n {2}"kind": "Status",[^]*\}$/);
  });

  it('a conversion or a server version in the clause is not taken for a Status: the next clause is', async () => {
    const r = await send(`${ns('pe')}/missing`, {
      headers: { accept: `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1, ${pb};sv=v1, application/yaml, ${pb}` },
    });
    expect([r.status, r.type]).toEqual([404, 'application/yaml']);
    const p = await send(`${ns('pe')}/missing`, { headers: { accept: `application/yaml;q=0.5, ${pb}` } });
    expect([p.status, p.type]).toEqual([404, pb]);
  });
});
