/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import { readWatch } from '../testing/watch-lines.js';
import type { TestServer } from '../testing/server.js';

// What client-go's metadata client (kube-controller-manager's garbage collector, namespace and
// resource-quota controllers) sends for single objects and watches, and for lists, without its
// first clause (the same in protobuf, which protobuf.test.ts reads).
const metadataAccept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const metadataListAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;
const create = (n: string, name: string) => request(ns(n), { method: 'POST', body: sampleEvent(name, n) });

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ bookmarkIntervalMs: 100 }) });
});
afterAll(async () => srv.close());

describe('PartialObjectMetadata (the metadata client)', () => {
  it('GET answers the object’s metadata alone, in its stored order', async () => {
    const made = await create('pm1', 'a');
    const r = await request(`${ns('pm1')}/a`, { headers: { accept: metadataAccept } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: made.body.metadata,
    });
    expect(Object.keys(r.body.metadata)).toEqual(Object.keys(made.body.metadata));
    expect(r.text).toBe(
      `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(made.body.metadata)}}\n`,
    );
    const beta = await request(`${ns('pm1')}/a`, {
      headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1' },
    });
    expect(beta.body.apiVersion).toBe('meta.k8s.io/v1beta1');
  });

  it('LIST answers a PartialObjectMetadataList with the page’s metadata; an empty one has null items', async () => {
    await create('pm2', 'a');
    await create('pm2', 'b');
    const page = await request(`${ns('pm2')}?limit=1`, { headers: { accept: metadataListAccept } });
    expect(page.status).toBe(200);
    expect(page.body.kind).toBe('PartialObjectMetadataList');
    expect(page.body.apiVersion).toBe('meta.k8s.io/v1');
    expect(Object.keys(page.body.metadata)).toEqual(['resourceVersion', 'continue', 'remainingItemCount']);
    expect(page.body.metadata.remainingItemCount).toBe(1);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'a', namespace: 'pm2' },
    });
    const rest = await request(`${ns('pm2')}?limit=1&continue=${encodeURIComponent(page.body.metadata.continue)}`, {
      headers: { accept: metadataListAccept },
    });
    expect(rest.body.items.map((i: any) => i.metadata.name)).toEqual(['b']);
    const empty = await request(ns('pm-none'), { headers: { accept: metadataListAccept } });
    expect(empty.text).toMatch(
      /^\{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io\/v1","metadata":\{"resourceVersion":"\d+"\},"items":null\}\n$/,
    );
  });

  it('a list of a single object or one object of a list is kube’s 406, naming kube’s Go type', async () => {
    await create('pm3', 'a');
    const one = await request(`${ns('pm3')}/a`, { headers: { accept: metadataListAccept.split(',')[0]! } });
    expect(one.status).toBe(406);
    expect(one.body).toMatchObject({
      kind: 'Status',
      reason: 'NotAcceptable',
      code: 406,
      message: 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Event)',
    });
    const list = await request(ns('pm3'), { headers: { accept: metadataAccept.split(',')[0]! } });
    expect(list.body.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*core.EventList)',
    );
    const lease = await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/pm3/leases`, {
      headers: { accept: metadataAccept.split(',')[0]! },
    });
    expect(lease.body.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*coordination.LeaseList)',
    );
    // A missing object is still a 404 first, as in kube.
    const missing = await request(`${ns('pm3')}/nope`, { headers: { accept: metadataListAccept.split(',')[0]! } });
    expect(missing.status).toBe(404);
  });

  it('a watch sends each object’s metadata, bookmarks included; PartialObjectMetadataList sends the objects (kube’s fallback)', async () => {
    await create('pm4', 'a');
    const r = await readWatch(
      `${ns('pm4')}?watch=true&allowWatchBookmarks=true`,
      3,
      { accept: metadataAccept },
      async () => {
        await new Promise((x) => setTimeout(x, 50));
        await request(`${ns('pm4')}/a`, { method: 'DELETE' });
      },
    );
    expect(r.status).toBe(200);
    const [added, deleted] = r.events.filter((l) => l.type !== 'BOOKMARK');
    expect(added).toMatchObject({
      type: 'ADDED',
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a' } },
    });
    expect(Object.keys(added.object)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(deleted).toMatchObject({
      type: 'DELETED',
      object: { kind: 'PartialObjectMetadata', metadata: { name: 'a' } },
    });
    const bookmark = r.events.find((l) => l.type === 'BOOKMARK');
    expect(bookmark).toBeDefined();
    expect(bookmark!.object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: bookmark!.object.metadata.resourceVersion, creationTimestamp: null },
    });
    await create('pm5', 'b');
    const full = await readWatch(`${ns('pm5')}?watch=true`, 1, { accept: metadataListAccept.split(',')[0]! }, () =>
      Promise.resolve(),
    );
    expect(full.events[0].object.kind).toBe('Event');
    const yaml = await request(`${ns('pm5')}?watch=true`, {
      headers: { accept: 'application/yaml, application/json;q=0.5' },
    });
    expect(yaml.status).toBe(406);
    expect(yaml.text).toContain(
      "message: 'only the following media types are accepted: application/json;stream=watch,\n  application/vnd.kubernetes.protobuf;stream=watch'",
    );
  });

  it('writes answer as negotiated, and a conversion their answer cannot take is refused before writing', async () => {
    const made = await request(ns('pm6'), {
      method: 'POST',
      body: sampleEvent('a', 'pm6'),
      headers: { accept: metadataAccept },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'a', namespace: 'pm6' } });
    const table = await request(ns('pm6'), {
      method: 'POST',
      body: sampleEvent('t', 'pm6'),
      headers: { accept: tableAccept },
    });
    expect(table.status).toBe(201);
    expect(table.body.kind).toBe('Table');
    expect(table.body.rows).toHaveLength(1);
    expect(table.body.rows[0].object.metadata.name).toBe('t');

    for (const accept of [metadataListAccept.split(',')[0]!, 'text/html']) {
      const refused = await request(ns('pm6'), { method: 'POST', body: sampleEvent('b', 'pm6'), headers: { accept } });
      expect(refused.status).toBe(406);
    }
    const badTable = await request(`${ns('pm6')}?includeObject=All`, {
      method: 'POST',
      body: sampleEvent('c', 'pm6'),
      headers: { accept: tableAccept },
    });
    expect(badTable.status).toBe(400);
    // kube's order: a body it cannot read is a 400 before the conversion fails; a body media
    // type it cannot read is a 415 before bad options are a 422.
    const unreadable = await request(ns('pm6'), {
      method: 'POST',
      body: '{"bad json',
      headers: { accept: metadataListAccept.split(',')[0]! },
    });
    expect(unreadable.status).toBe(400);
    const plain = await request(`${ns('pm6')}?dryRun=bogus`, {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect((await request(`${ns('pm6')}/b`)).status).toBe(404);
    expect((await request(`${ns('pm6')}/c`)).status).toBe(404);

    const patched = await request(`${ns('pm6')}/a`, {
      method: 'PATCH',
      body: { metadata: { labels: { patched: 'yes' } } },
      headers: { 'content-type': 'application/merge-patch+json', accept: metadataAccept },
    });
    expect([patched.status, patched.body]).toMatchObject([
      200,
      { kind: 'PartialObjectMetadata', metadata: { name: 'a' } },
    ]);

    // A delete answers with a Status, which any conversion passes unchanged.
    const deleted = await request(`${ns('pm6')}/t`, {
      method: 'DELETE',
      headers: { accept: metadataListAccept.split(',')[0]! },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  it('the namespace controller’s delete-collection, then its check that nothing is left', async () => {
    await create('pm7', 'a');
    await create('pm7', 'b');
    const onlyObject = await request(ns('pm7'), {
      method: 'DELETE',
      headers: { accept: metadataAccept.split(',')[0]! },
    });
    expect(onlyObject.status).toBe(406);
    expect((await request(ns('pm7'))).body.items).toHaveLength(2);
    const r = await request(ns('pm7'), {
      method: 'DELETE',
      body: '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}\n',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['a', 'b']);
    const left = await request(ns('pm7'), { headers: { accept: metadataListAccept } });
    expect(left.body).toMatchObject({ kind: 'PartialObjectMetadataList', items: null });

    await create('pm8', 'a');
    const partial = await request(ns('pm8'), { method: 'DELETE', headers: { accept: metadataListAccept } });
    expect(partial.body).toMatchObject({ kind: 'PartialObjectMetadataList', items: [{ metadata: { name: 'a' } }] });
  });

  it('Tables in meta.k8s.io/v1beta1 carry v1beta1 row objects', async () => {
    await create('pm9', 'a');
    const r = await request(ns('pm9'), { headers: { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' } });
    expect(r.body.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(r.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1' });
  });
});
