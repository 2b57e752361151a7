import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { KubeObject } from '@kevents/api';
import { initialTurns, MemoryStorage } from '@kevents/storage';
import type { KeyPrefix, StorageWatchEvent, WatchOptions } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/**
 * The last variant of the security issue's item 7: many watches that start with the state of a
 * large namespace (`resourceVersion=0`), opened at once and never read. Before, each watch decoded,
 * encoded and wrote its initial events as fast as the kernel took them (~3.6 MB a connection on
 * loopback) in one go, and everyone else waited: /livez took 1–4.6 s from another process. Now a
 * batch of initial events runs per turn of the event loop across all such watches
 * (`InitialTurns`), so other requests are served between any two batches. The test counts the
 * batches the store hands the server's watches in each turn of the event loop, which does not
 * depend on the machine's speed or load.
 */
const objects = 6_000;
const watches = 30;
let srv: TestServer;
/** The turn of the event loop: a setImmediate chain, one step per check phase. */
let turn = 0;
let ticking = true;
/** How many batches of initial events the store handed the watches, per turn. */
const batchesPerTurn = new Map<number, number>();

/** A memory store whose watches count the batches of ADDED events they hand their consumer. */
function countingStorage(): MemoryStorage {
  const storage = new MemoryStorage();
  const watch = storage.watch.bind(storage);
  storage.watch = async <T extends KubeObject>(prefix: KeyPrefix, options?: WatchOptions<T>) => {
    const w = await watch<T>(prefix, options);
    const consume = w.consume.bind(w);
    w.consume = (sink) =>
      consume((batch: readonly StorageWatchEvent<T>[]) => {
        if (batch.some((e) => e.type === 'ADDED')) batchesPerTurn.set(turn, (batchesPerTurn.get(turn) ?? 0) + 1);
        return sink(batch);
      });
    return w;
  };
  return storage;
}

beforeAll(async () => {
  srv = await startTestServer({ storage: countingStorage() });
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
      uid: `uid-${i}`,
      labels: { pad: 'x'.repeat(60) },
    };
    await srv.storage.create({ resource: 'events', namespace: 'big', name: `e-${i}` }, copy);
  }
});
afterAll(async () => {
  ticking = false;
  await srv.close();
});

describe('30 watches of a 6,000-event namespace opened at once with resourceVersion=0, never read', () => {
  it('send their initial events one batch per turn of the event loop across all of them, answering /livez meanwhile', async () => {
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const port = Number(new URL(srv.url).port);
    const path = '/apis/events.k8s.io/v1/namespaces/big/events?watch=1&resourceVersion=0';
    const sockets: Socket[] = Array.from({ length: watches }, () => {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => undefined);
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      s.pause();
      return s;
    });
    const total = (): number => [...batchesPerTurn.values()].reduce((a, b) => a + b, 0);
    const start = Date.now();
    // At least 3 s, and until the watches wrote several batches each (a loaded machine takes longer).
    while (Date.now() - start < 3_000 || (total() <= 2 * watches && Date.now() - start < 30_000)) {
      const live = await request(`${srv.url}/livez`);
      expect(live.status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
    }
    ticking = false;
    // Every watch is still open (none was ended as a slow watcher while sending its initial events).
    expect(srv.server.watches.size).toBe(watches);
    for (const s of sockets) s.destroy();
    // Each watch wrote several batches of 256 before its connection filled up.
    expect(total()).toBeGreaterThan(2 * watches);
    expect(Math.max(...batchesPerTurn.values())).toBe(initialTurns.perTurn);
  }, 60_000);
});
