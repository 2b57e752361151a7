import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  brief,
  expectStorageError,
  keyOf,
  rvs,
  testObject,
  WatchReader,
  type TestObject,
} from '@kevents/storage/testing';
import { Redis } from 'ioredis';
import { createRedisStorage, type RedisStorage } from './index.js';
import { RedisServer, SilentProxy, waitFor } from './testing/index.js';

let server: RedisServer;
let admin: Redis;
let n = 0;
beforeAll(async () => {
  server = await RedisServer.start();
  admin = new Redis(server.url);
});
afterAll(async () => {
  admin?.disconnect();
  await server?.stop();
});

/** How many bytes Redis has sent to its clients since it started (INFO stats). */
async function bytesOut(): Promise<number> {
  const info = await admin.info('stats');
  return Number(/^total_net_output_bytes:(\d+)/m.exec(info)?.[1] ?? NaN);
}

/** How many commands `name` Redis has run since it started (INFO commandstats). */
async function calls(name: string): Promise<number> {
  const info = await admin.info('commandstats');
  return Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function creates(storage: RedisStorage, names: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    const o = await storage.create(keyOf('ns', name), testObject('ns', name));
    out.push(`ADDED ns/${name}@${rvs(o)}`);
  }
  return out;
}

describe('RedisStorage change feed while no watch is open', () => {
  it('reads nothing from the Stream while the process only writes and reads, and pings instead', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: `idle${++n}` });
    try {
      await storage.ready();
      await sleep(50);
      const [xread0, ping0] = [await calls('xread'), await calls('ping')];
      await creates(
        storage,
        Array.from({ length: 30 }, (_, i) => `o${i}`),
      );
      await storage.get(keyOf('ns', 'o3'));
      await storage.list({ resource: 'events', namespace: 'ns' });
      await sleep(1_200);
      expect((await calls('xread')) - xread0).toBe(0);
      // The idle feed's pings (one a second) and the storage's own ready check.
      expect((await calls('ping')) - ping0).toBeGreaterThanOrEqual(1);
      await storage.ready();
    } finally {
      await storage.close();
    }
  });

  it('gives a watch opened after idle writes every change after its resourceVersion, in order and once, then the new ones', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: `idle${++n}` });
    try {
      const before = await creates(
        storage,
        Array.from({ length: 20 }, (_, i) => `a${i}`),
      );
      const from = before[4]!.slice(before[4]!.indexOf('@') + 1);
      const watcher = await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: from });
      const watch = new WatchReader(watcher);
      expect((await watch.take(15, 5_000)).map(brief)).toEqual(before.slice(5));
      const after = await creates(storage, ['b0', 'b1', 'b2']);
      expect((await watch.take(3, 5_000)).map(brief)).toEqual(after);
      await watch.expectQuiet(200);
      watcher.stop();
    } finally {
      await storage.close();
    }
  });

  it('goes idle again when the last watch stops, and a later watch from now sees only what follows', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: `idle${++n}` });
    try {
      const firstWatcher = await storage.watch({ resource: 'events', namespace: 'ns' });
      const first = new WatchReader(firstWatcher);
      const seen = await creates(storage, ['c0', 'c1']);
      expect((await first.take(2, 5_000)).map(brief)).toEqual(seen);
      firstWatcher.stop();
      // The feed's blocking read returns within a second; then it stops reading.
      await sleep(1_200);
      const xread0 = await calls('xread');
      const unseen = await creates(storage, ['d0', 'd1', 'd2']);
      await sleep(300);
      expect((await calls('xread')) - xread0).toBe(0);
      const laterWatcher = await storage.watch({ resource: 'events', namespace: 'ns' });
      const later = new WatchReader(laterWatcher);
      const next = await creates(storage, ['e0', 'e1']);
      expect((await later.take(2, 5_000)).map(brief)).toEqual(next);
      await later.expectQuiet(200);
      expect(next.some((e) => unseen.includes(e))).toBe(false);
      laterWatcher.stop();
    } finally {
      await storage.close();
    }
  });

  it('wakes for a request that waits for a future resourceVersion written by another process', async () => {
    const reader = await createRedisStorage({ url: server.url, prefix: `idle${++n}` });
    const writer = await createRedisStorage({ url: server.url, prefix: `idle${n}` });
    try {
      const o = await writer.create(keyOf('ns', 'w0'), testObject('ns', 'w0'));
      const next = String(Number(rvs(o)) + 1);
      const waiting = reader.list(
        { resource: 'events', namespace: 'ns' },
        { resourceVersion: next, resourceVersionMatch: 'NotOlderThan' },
      );
      await sleep(50);
      await writer.create(keyOf('ns', 'w1'), testObject('ns', 'w1'));
      const list = await waiting;
      expect(list.items.map((i) => i.metadata.name)).toEqual(['w0', 'w1']);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('notices a connection that went silent while idle, and carries on over a new one', async () => {
    const proxy = await SilentProxy.start(server.port);
    const storage = await createRedisStorage({ url: proxy.url, prefix: `idle${++n}` });
    try {
      const first = await storage.create(keyOf('ns', 'f0'), testObject('ns', 'f0'));
      await storage.ready();
      proxy.silenceOpenConnections();
      await expectStorageError(storage.ready(), 'Unavailable');
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        15_000,
        () => 'the store did not reconnect',
      );
      const watcher = await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: rvs(first) });
      const watch = new WatchReader(watcher);
      const later = await storage.create(keyOf('ns', 'f1'), testObject('ns', 'f1'));
      expect((await watch.take(1, 10_000)).map(brief)).toEqual([`ADDED ns/f1@${rvs(later)}`]);
      watcher.stop();
    } finally {
      await storage.close();
      await proxy.close();
    }
  }, 30_000);
});

describe('RedisStorage change feed and the process own writes', () => {
  const note = 'x'.repeat(2_000);

  it('gives a watch every create of the process in order and once, without reading the creates back from the Stream', async () => {
    // A read of the Stream every 100 ms at most: each read then brings at most the one create
    // that woke it, and the creates of the process between two reads join the window by themselves.
    const storage = await createRedisStorage({ url: server.url, prefix: `own${++n}`, watchBatchIntervalMs: 100 });
    try {
      const watcher = await storage.watch<TestObject>({ resource: 'events', namespace: 'ns' });
      const watch = new WatchReader(watcher);
      await sleep(100);
      const made: string[] = [];
      const create = async (name: string): Promise<void> => {
        const o = await storage.create(keyOf('ns', name), testObject('ns', name, { note }));
        made.push(`ADDED ns/${o.metadata.name}@${rvs(o)}`);
      };
      // Bursts of concurrent creates, written in batches.
      for (let round = 0; round < 5; round++)
        await Promise.all(Array.from({ length: 20 }, (_, i) => create(`b${round}-${i}`)));
      // One at a time: read back, their 200 bodies alone would be 400 KB.
      const out0 = await bytesOut();
      for (let i = 0; i < 200; i++) await create(`s${i}`);
      const sent = (await bytesOut()) - out0;
      const seen = await watch.take(300, 10_000);
      const byRv = (a: string, b: string) => Number(a.split('@')[1]) - Number(b.split('@')[1]);
      expect(seen.map(brief)).toEqual([...made].sort(byRv));
      expect(seen.every((e) => e.type === 'ADDED' && e.object.note === note)).toBe(true);
      await watch.expectQuiet(200);
      expect(sent).toBeLessThan(200 * note.length * 0.5);
      watcher.stop();
    } finally {
      await storage.close();
    }
  });

  it('wakes a watch at once for own creates made while the feed waited between two reads', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: `own${++n}`, watchBatchIntervalMs: 200 });
    try {
      const watcher = await storage.watch<TestObject>({ resource: 'events', namespace: 'ns' });
      const watch = new WatchReader(watcher);
      await sleep(300);
      // The first create ends the blocked read, and the feed then waits 200 ms before the next
      // one; the next five join the window meanwhile, so the read after the wait starts after them.
      const create = async (name: string): Promise<string> => {
        const o = await storage.create(keyOf('ns', name), testObject('ns', name));
        return `ADDED ns/${name}@${rvs(o)}`;
      };
      const first = await create('w0');
      expect((await watch.take(1, 5_000)).map(brief)).toEqual([first]);
      const t0 = performance.now();
      const rest: string[] = [];
      for (const name of ['w1', 'w2', 'w3', 'w4', 'w5']) rest.push(await create(name));
      expect((await watch.take(5, 5_000)).map(brief)).toEqual(rest);
      // At the end of the wait, not at the end of the next read's block (1 s) or with the next create.
      expect(performance.now() - t0).toBeLessThan(700);
      watcher.stop();
    } finally {
      await storage.close();
    }
  });

  it('reads the Stream for what another replica writes between its own creates', async () => {
    const a = await createRedisStorage({ url: server.url, prefix: `own${++n}` });
    const b = await createRedisStorage({ url: server.url, prefix: `own${n}` });
    try {
      const watcher = await a.watch({ resource: 'events', namespace: 'ns' });
      const watch = new WatchReader(watcher);
      await sleep(100);
      const made: string[] = [];
      for (let i = 0; i < 30; i++) {
        const writer = i % 3 === 1 ? b : a;
        const burst = await Promise.all(
          [0, 1].map((j) => writer.create(keyOf('ns', `m${i}-${j}`), testObject('ns', `m${i}-${j}`))),
        );
        for (const o of burst) made.push(`ADDED ns/${o.metadata.name}@${rvs(o)}`);
      }
      const byRv = (x: string, y: string) => Number(x.split('@')[1]) - Number(y.split('@')[1]);
      expect((await watch.take(60, 10_000)).map(brief)).toEqual([...made].sort(byRv));
      await watch.expectQuiet(200);
      watcher.stop();
    } finally {
      await b.close();
      await a.close();
    }
  });
});
