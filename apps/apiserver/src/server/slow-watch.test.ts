import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import http2 from 'node:http2';
import type { ServerHttp2Stream } from 'node:http2';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { WatchHub, watchBacklogLimitBytes } from '@kevents/apiserver';
import type { KubeObject } from '@kevents/api';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { servingCert } from './tls.js';

const limit = 256 * 1024;
let srv: TestServer;
let hub: WatchHub;

beforeAll(async () => {
  hub = new WatchHub({ backlogLimitBytes: limit });
  srv = await startTestServer({ watches: hub });
});
afterAll(async () => srv.close());

async function waitUntil(cond: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a watcher that stops reading', () => {
  it('is ended once its backlog passes the limit, counted, and its output freed; a reading watcher goes on', async () => {
    const path = '/apis/events.k8s.io/v1/namespaces/slow/events?watch=true&resourceVersion=0';
    const created = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/slow/events`, {
      method: 'POST',
      body: sampleEvent('seed', 'slow'),
    });
    expect(created.status).toBe(201);
    const seed = await srv.storage.get<KubeObject>({ resource: 'events', namespace: 'slow', name: 'seed' });

    const serverSide: ServerResponse[] = [];
    srv.server.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === path) serverSide.push(res);
    });
    // The slow client sends its request and never reads a byte.
    const port = Number(new URL(srv.url).port);
    const slow: Socket = connect(port, '127.0.0.1');
    slow.on('error', () => undefined);
    slow.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    slow.pause();
    // The fast client reads everything.
    let fastBytes = 0;
    let fastEnded = false;
    const fast = await new Promise<IncomingMessage>((resolve) => get(`${srv.url}${path}`, resolve));
    fast.on('data', (d: Buffer) => (fastBytes += d.length));
    fast.on('end', () => (fastEnded = true));
    fast.on('error', () => (fastEnded = true));
    await waitUntil(() => serverSide.length === 2 && hub.size === 2, 'both watches open');

    const pad = 'x'.repeat(16 * 1024);
    let n = 0;
    await waitUntil(async () => {
      for (let i = 0; i < 20; i++, n++) {
        const copy = structuredClone(seed) as KubeObject & { metadata: Record<string, unknown> };
        copy.metadata = { ...copy.metadata, name: `ev-${n}`, uid: `uid-${n}`, resourceVersion: undefined };
        copy.metadata['annotations'] = { pad };
        await srv.storage.create({ resource: 'events', namespace: 'slow', name: `ev-${n}` }, copy);
      }
      return hub.size === 1 || n > 20_000;
    }, 'the slow watch to be ended');
    expect(hub.size).toBe(1);

    // The slow watch's connection was destroyed: what it held is freed.
    const slowSide = serverSide.find((r) => r.socket === null || r.socket.destroyed);
    expect(slowSide).toBeDefined();
    // destroy() frees the write buffer when it completes (on a later tick), not synchronously.
    await waitUntil(() => (slowSide!.socket?.writableLength ?? 0) === 0, 'the slow watch output to be freed', 5_000);
    const metrics = await request(`${srv.url}/metrics`);
    expect(metrics.text).toContain('apiserver_terminated_watchers_total{group="events.k8s.io",resource="events"} 1');

    // The reading watch goes on and sees every event.
    expect(fastEnded).toBe(false);
    await waitUntil(() => fastBytes > n * pad.length, 'the fast watch to receive every event');
    fast.destroy();
    slow.destroy();
  }, 60_000);
});

describe('HTTP/2 watches that never read, multiplexed on one connection', () => {
  it("are each ended once they fall 200 events behind (kube-apiserver's watch-cache channels), counted, holding at most their budget; a reading watch goes on", async () => {
    const pair = await servingCert('', '', '127.0.0.1');
    // The default budget: 200 events or 1 MiB, 100 ms to catch up.
    const watches = new WatchHub();
    const h2srv = await startTestServer({ https: pair, watches });
    const sessions: http2.ClientHttp2Session[] = [];
    try {
      const serverStreams: ServerHttp2Stream[] = [];
      h2srv.server.app.server.on('stream', (st: ServerHttp2Stream) => serverStreams.push(st));
      const ns = 'h2slow';
      const created = await h2srv.storage.create<KubeObject>(
        { resource: 'events', namespace: ns, name: 'seed' },
        { ...(sampleEvent('seed', ns) as unknown as KubeObject) },
      );
      const path = `/apis/events.k8s.io/v1/namespaces/${ns}/events?watch=true&resourceVersion=${created.metadata.resourceVersion}`;
      const open = (): http2.ClientHttp2Session => {
        const session = http2.connect(h2srv.url, { rejectUnauthorized: false });
        session.on('error', () => undefined);
        sessions.push(session);
        return session;
      };
      const n = 20;
      const slow = open();
      for (let i = 0; i < n; i++) {
        const st = slow.request({ ':path': path });
        st.on('error', () => undefined);
        st.pause();
      }
      let readLines = 0;
      const reading = open().request({ ':path': path });
      reading.on('data', (d: Buffer) => {
        for (const b of d) if (b === 10) readLines++;
      });
      await waitUntil(() => watches.size === n + 1, 'every watch open');

      let maxPending = 0;
      const events = 1500;
      for (let i = 0; i < events; i++) {
        const ev = sampleEvent(`ev-${i}`, ns, { note: 'x'.repeat(1000) }) as unknown as KubeObject;
        await h2srv.storage.create({ resource: 'events', namespace: ns, name: `ev-${i}` }, ev);
        if (i % 20 === 19) {
          // Let the server write and the reading client read, as a real load would.
          await new Promise((r) => setImmediate(r));
          for (const st of serverStreams) maxPending = Math.max(maxPending, st.writableLength);
        }
      }
      await waitUntil(() => watches.size === 1, 'the unread watches to be ended');
      expect(await h2srv.server.metrics.text()).toContain(
        `apiserver_terminated_watchers_total{group="events.k8s.io",resource="events"} ${n}`,
      );
      // What a watch held unsent never passed its budget (200 events of ~1.3 KiB here, under 1 MiB).
      expect(maxPending).toBeLessThanOrEqual(watchBacklogLimitBytes);
      // The reading watch saw every event and is still open.
      await waitUntil(() => readLines >= events, 'the reading watch to see every event');
      expect(watches.size).toBe(1);
    } finally {
      for (const s of sessions) s.destroy();
      await h2srv.close();
    }
  }, 30_000);
});
