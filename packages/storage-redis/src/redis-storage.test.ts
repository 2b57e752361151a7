import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { StorageWatchEvent } from '@kevents/storage';
import { keyOf, objectOf, runStorageConformance, testObject, type TestObject } from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { RedisServer } from './testing/index.js';
import { firstWritesErrorStats } from './testing/script-errors.js';

let server: RedisServer;
let n = 0;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(async () => {
  await server?.stop();
});

// A write, the Stream's read and the counter's polls must fit the suite's wait for a future
// resourceVersion: its default 100 ms was too short once on a loaded CI machine (through Sentinel).
runStorageConformance(
  'RedisStorage (standalone)',
  async (tuning) => ({
    storage: await createRedisStorage({ url: server.url, prefix: `conf${++n}`, ...tuning }),
  }),
  { tooLargeResourceVersionWaitMs: 2_000 },
);

describe('RedisStorage watch fan-out', () => {
  it('gives the watches woken together one shared batch per prefix, and each exactly its own events', async () => {
    const s = await createRedisStorage({ url: server.url, prefix: `fan${++n}` });
    const seen = new Map<string, (readonly StorageWatchEvent<TestObject>[])[]>();
    const done: Promise<void>[] = [];
    const watches = [];
    for (const [name, namespace] of [
      ['all-1', undefined],
      ['a-1', 'a'],
      ['all-2', undefined],
      ['b', 'b'],
      ['a-2', 'a'],
    ] as const) {
      const w = await s.watch<TestObject>({ resource: 'events', ...(namespace ? { namespace } : {}) });
      const batches: (readonly StorageWatchEvent<TestObject>[])[] = [];
      seen.set(name, batches);
      watches.push(w);
      done.push(w.consume((batch) => void batches.push(batch)));
    }
    const created: string[] = [];
    for (const ns of ['a', 'b', 'a']) {
      const o = await s.create(keyOf(ns, `o${created.length}`), testObject(ns, `o${created.length}`));
      created.push(`${ns}/${o.metadata.name} ${o.metadata.resourceVersion}`);
    }
    const names = (name: string): string[] =>
      seen
        .get(name)!
        .flatMap((b) =>
          b.map((e) => `${objectOf(e).metadata.namespace}/${objectOf(e).metadata.name} ${e.resourceVersion}`),
        );
    for (let i = 0; i < 100 && names('all-2').length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    expect(names('all-1')).toEqual(created);
    expect(names('all-2')).toEqual(created);
    expect(names('a-1')).toEqual([created[0], created[2]]);
    expect(names('a-2')).toEqual([created[0], created[2]]);
    expect(names('b')).toEqual([created[1]]);
    const nonEmpty = (name: string) => seen.get(name)!.filter((b) => b.length > 0);
    expect(nonEmpty('all-2')).toEqual(nonEmpty('all-1'));
    nonEmpty('all-2').forEach((b, i) => expect(b).toBe(nonEmpty('all-1')[i]));
    nonEmpty('a-2').forEach((b, i) => expect(b).toBe(nonEmpty('a-1')[i]));
    for (const w of watches) w.stop();
    await Promise.all(done);
    await s.close();
  });
});

describe('RedisStorage scripts', () => {
  it('loads its scripts when it connects: concurrent first writes meet no NOSCRIPT error', async () => {
    const { errorStats, listed } = await firstWritesErrorStats(
      [server.url],
      () => createRedisStorage({ url: server.url, prefix: `scripts${++n}` }),
      32,
    );
    expect(errorStats[0]).not.toContain('NOSCRIPT');
    expect(listed).toBe(32);
  });
});
