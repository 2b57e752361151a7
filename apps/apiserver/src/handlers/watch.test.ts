import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import { readWatch } from '../testing/watch-lines.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;

const create = (n: string, name: string, extra: Record<string, unknown> = {}) =>
  request(ns(n), { method: 'POST', body: sampleEvent(name, n, extra) });

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ bookmarkIntervalMs: 100 }) });
});
afterAll(async () => srv.close());

describe('watch over HTTP', () => {
  it('without resourceVersion sends synthetic ADDED for existing events, then changes', async () => {
    await create('w1', 'a');
    await create('w1', 'b');
    const r = await readWatch(`${ns('w1')}?watch=true`, 3, {}, async () => {
      await new Promise((x) => setTimeout(x, 100));
      await create('w1', 'c');
    });
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json');
    expect(r.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b', 'ADDED c']);
    expect(r.events[0].object.kind).toBe('Event');
    expect(r.events[0].object.apiVersion).toBe('events.k8s.io/v1');
  });

  it('with sendInitialEvents ends the initial state with an annotated BOOKMARK', async () => {
    await create('w2', 'a');
    const r = await readWatch(
      `${ns('w2')}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
      2,
    );
    expect(r.events[0].type).toBe('ADDED');
    expect(r.events[1].type).toBe('BOOKMARK');
    expect(r.events[1].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(r.events[1].object.kind).toBe('Event');
    expect(Number(r.events[1].object.metadata.resourceVersion)).toBeGreaterThan(0);
  });

  it('sends periodic BOOKMARKs when allowed', async () => {
    const rv = (await create('w3', 'a')).body.metadata.resourceVersion;
    const r = await readWatch(`${ns('w3')}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`, 1);
    expect(r.events[0].type).toBe('BOOKMARK');
  });

  it('ends the stream after timeoutSeconds', async () => {
    const started = Date.now();
    const r = await readWatch(`${ns('w4')}?watch=true&timeoutSeconds=1`, 100);
    expect(r.events).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('applies field selectors, with DELETED when an object stops matching', async () => {
    const a = (await create('w5', 'sel', { type: 'Warning' })).body;
    const r = await readWatch(
      `${ns('w5')}?watch=true&resourceVersion=${a.metadata.resourceVersion}&fieldSelector=metadata.name%3Dsel`,
      2,
      {},
      async () => {
        await new Promise((x) => setTimeout(x, 100));
        await create('w5', 'other');
        await request(`${ns('w5')}/sel`, {
          method: 'PATCH',
          body: { metadata: { labels: { l: '1' } } },
          headers: { 'content-type': 'application/merge-patch+json' },
        });
        await request(`${ns('w5')}/sel`, { method: 'DELETE' });
      },
    );
    expect(r.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED sel', 'DELETED sel']);
  });

  it('label selector transitions: ADDED when an object starts matching, DELETED when it stops', async () => {
    const a = (await create('w6', 'lab')).body;
    const url = `${ns('w6')}?watch=true&resourceVersion=${a.metadata.resourceVersion}&labelSelector=team%3Dblue`;
    const patch = (labels: unknown) =>
      request(`${ns('w6')}/lab`, {
        method: 'PATCH',
        body: { metadata: { labels } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
    const r = await readWatch(url, 2, {}, async () => {
      await new Promise((x) => setTimeout(x, 100));
      await patch({ team: 'blue' });
      await patch({ team: 'red' });
    });
    expect(r.events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it('serves the legacy /watch/ path and core/v1 objects on /api/v1', async () => {
    await create('w7', 'x');
    const legacy = await readWatch(`${srv.url}/apis/events.k8s.io/v1/watch/namespaces/w7/events`, 1);
    expect(legacy.events[0].object.metadata.name).toBe('x');
    const core = await readWatch(`${srv.url}/api/v1/namespaces/w7/events?watch=1`, 1);
    expect(core.events[0].object.apiVersion).toBe('v1');
    expect(core.events[0].object.involvedObject.name).toBe('web-0');
  });

  it('streams Tables when asked, with column definitions only on the first event', async () => {
    await create('w8', 't1');
    await create('w8', 't2');
    const r = await readWatch(`${ns('w8')}?watch=true`, 2, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    expect(r.events[0].object.kind).toBe('Table');
    expect(r.events[0].object.columnDefinitions).toHaveLength(10);
    expect(r.events[0].object.rows[0].cells[9]).toBe('t1');
    expect(r.events[1].object.columnDefinitions).toBeNull();
    expect(r.events[1].object.rows[0].object.kind).toBe('PartialObjectMetadata');
  });

  it("sends a BOOKMARK as a one-row Table, its row the bookmark as PartialObjectMetadata (kube's asTable)", async () => {
    await create('w9', 't1');
    const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const r = await readWatch(
      `${ns('w9')}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&includeObject=None`,
      2,
      { accept: table },
    );
    expect(r.events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(r.events[0].object.rows[0].object).toBeUndefined();
    const bookmark = r.events[1].object;
    expect(bookmark.kind).toBe('Table');
    expect(bookmark.columnDefinitions).toBeNull();
    expect(bookmark.metadata.resourceVersion).toBe(r.events[0].object.metadata.resourceVersion);
    expect(bookmark.rows).toHaveLength(1);
    // printEvent of an empty Event: Last Seen, Type, Reason, Object, Subobject, Source, Message, First Seen, Count, Name.
    expect(bookmark.rows[0].cells).toEqual(['<unknown>', '', '', '', '', '', '', '<unknown>', 1, '']);
    // With includeObject=None too: the row keeps the annotation that ends the initial events in sight.
    expect(bookmark.rows[0].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {
        resourceVersion: bookmark.metadata.resourceVersion,
        // Go's zero metav1.Time, written as kube writes it.
        creationTimestamp: null,
        annotations: { 'k8s.io/initial-events-end': 'true' },
      },
    });
  });

  it("keeps a watch open for a timeoutSeconds past setTimeout's range, and ends one with a negative timeoutSeconds at once", async () => {
    const long = new AbortController();
    const res = await fetch(`${ns('w10')}?watch=true&timeoutSeconds=2147484`, { signal: long.signal });
    const reader = res.body!.getReader();
    const ended = reader.read().then((r) => r.done);
    const open = await Promise.race([ended, new Promise((r) => setTimeout(() => r('open'), 300))]);
    expect(open).toBe('open');
    long.abort();
    await ended.catch(() => undefined);
    const started = Date.now();
    const negative = await fetch(`${ns('w10')}?watch=true&timeoutSeconds=-1`);
    expect(negative.status).toBe(200);
    expect(await negative.text()).toBe('');
    // Go's Duration of 9223372037 s wraps to a negative one: kube ends that watch at once too.
    const wrapped = await fetch(`${ns('w10')}?watch=true&timeoutSeconds=9223372037`);
    expect(wrapped.status).toBe(200);
    expect(await wrapped.text()).toBe('');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends live watches at shutdown so clients can re-watch elsewhere', async () => {
    const other = await startTestServer();
    const res = await fetch(`${other.url}/apis/events.k8s.io/v1/events?watch=true`);
    const reader = res.body!.getReader();
    const ended = (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) return true;
      }
    })();
    await new Promise((x) => setTimeout(x, 50));
    expect(other.server.watches.size).toBe(1);
    await other.close();
    expect(await ended).toBe(true);
  });
});
