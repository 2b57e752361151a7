import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { KubeObject } from '@kevents/api';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/**
 * The last variant of the security issue's item 7: many watches that start with the state of a
 * large namespace (`resourceVersion=0`), opened at once and never read. Their initial events are
 * decoded and encoded a batch per turn of the event loop across all of them, and shared by
 * resourceVersion, so the server keeps answering everyone else while it sends them.
 */
const objects = 6_000;
const watches = 30;
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer();
  const created = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/big/events`, {
    method: 'POST',
    body: sampleEvent('seed', 'big'),
  });
  expect(created.status).toBe(201);
  const seed = (await srv.storage.get<KubeObject>({
    resource: 'events',
    namespace: 'big',
    name: 'seed',
  })) as KubeObject & {
    metadata: Record<string, unknown>;
  };
  for (let i = 0; i < objects; i++) {
    const copy = structuredClone(seed);
    copy.metadata = {
      ...copy.metadata,
      resourceVersion: undefined,
      name: `e-${i}`,
      namespace: 'big',
      uid: `uid-${i}`,
      labels: { pad: 'x'.repeat(60) },
    };
    await srv.storage.create({ resource: 'events', namespace: 'big', name: `e-${i}` }, copy);
  }
});
afterAll(async () => srv.close());

describe('30 watches of a 6,000-event namespace opened at once with resourceVersion=0, never read', () => {
  it('leave the server answering: /livez, probed every 20 ms while they start, answers within 400 ms', async () => {
    const port = Number(new URL(srv.url).port);
    const path = '/apis/events.k8s.io/v1/namespaces/big/events?watch=1&resourceVersion=0';
    const sockets: Socket[] = Array.from({ length: watches }, () => {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => undefined);
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      s.pause();
      return s;
    });
    const probes: number[] = [];
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      const t = performance.now();
      const live = await request(`${srv.url}/livez`);
      probes.push(performance.now() - t);
      expect(live.status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
    }
    // Every watch is still open (none was ended as a slow watcher while sending its initial events).
    expect(srv.server.watches.size).toBe(watches);
    for (const s of sockets) s.destroy();
    // Before, each watch encoded its initial events as fast as the kernel took them (~3.6 MB a
    // connection on loopback), and /livez waited 0.8 s in this test (1–4.6 s from another process);
    // now a batch of 256 runs per turn across all watches. The bound leaves room for a loaded CI.
    expect(Math.max(...probes)).toBeLessThan(400);
  });
});
