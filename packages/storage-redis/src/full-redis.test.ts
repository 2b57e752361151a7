import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { keyOf, objectOf, rvOf, testObject, WatchReader } from '@kevents/storage/testing';
import { isStorageError, type Storage } from '@kevents/storage';
import { createRedisStorage } from './index.js';
import { redisCommand, RedisServer } from './testing/index.js';

/** A Redis at its `maxmemory` with `noeviction`, as docs/operations.md asks for. */
let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start({ args: ['--maxmemory', '3mb', '--maxmemory-policy', 'noeviction'] });
});
afterAll(async () => {
  await server?.stop();
});

const note = 'x'.repeat(2_000);

/** Creates 2 kB events until the store refuses one: the names it took, and the refusal. */
async function fillUntilRefused(storage: Storage): Promise<{ acked: string[]; refused: unknown }> {
  const acked: string[] = [];
  for (let i = 0; i < 5_000; i++) {
    try {
      await storage.create(keyOf('ns', `e${i}`), testObject('ns', `e${i}`, { note }));
      acked.push(`e${i}`);
    } catch (refused) {
      return { acked, refused };
    }
  }
  throw new Error('Redis never filled up');
}

describe('RedisStorage on a full Redis (maxmemory, noeviction)', () => {
  it('refuses writes with Unavailable, keeps every acknowledged one, and works again when memory is freed', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: 'full', historyLimit: 100_000 });
    try {
      const watch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: '0' }),
      );
      const { acked, refused } = await fillUntilRefused(storage);
      expect(isStorageError(refused, 'Unavailable')).toBe(true);
      expect((refused as Error).message).toMatch(/^redis unavailable: OOM command not allowed/);
      expect(acked.length).toBeGreaterThan(100);

      // Nothing half-written: every acknowledged object is listed, each change reached the watch once, in order.
      const listed = (await storage.list({ resource: 'events', namespace: 'ns' })).items.map((o) => o.metadata.name);
      expect(listed.sort()).toEqual([...acked].sort());
      const seen = await watch.take(acked.length, 10_000);
      expect(seen.map((e) => objectOf(e).metadata.name)).toEqual(acked);
      const rvs = seen.map((e) => rvOf(e.resourceVersion));
      for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBe(rvs[i - 1] + 1);

      // Room again (an operator raises maxmemory): writes go on, with the next resourceVersion.
      expect(await redisCommand(server.port, 'CONFIG SET maxmemory 64mb')).toBe('+OK');
      const next = await storage.create(keyOf('ns', 'more'), testObject('ns', 'more', { note }));
      expect(rvOf(next)).toBe(rvs[rvs.length - 1] + 1);
      expect((await watch.take(1, 10_000)).map((e) => objectOf(e).metadata.name)).toEqual(['more']);
    } finally {
      await storage.close();
    }
  }, 60_000);

  it('still deletes when full, so deleting events makes room for new ones', async () => {
    expect(await redisCommand(server.port, 'FLUSHALL')).toBe('+OK');
    expect(await redisCommand(server.port, 'CONFIG SET maxmemory 3mb')).toBe('+OK');
    const storage = await createRedisStorage({ url: server.url, prefix: 'room', historyLimit: 20 });
    try {
      const { acked, refused } = await fillUntilRefused(storage);
      expect(isStorageError(refused, 'Unavailable')).toBe(true);
      const deleted = acked.splice(0, 50);
      for (const name of deleted) await storage.delete(keyOf('ns', name));
      const again = await storage.create(keyOf('ns', 'again'), testObject('ns', 'again', { note }));
      expect(again.metadata.name).toBe('again');
      const listed = (await storage.list({ resource: 'events', namespace: 'ns' })).items.map((o) => o.metadata.name);
      expect(listed.sort()).toEqual([...acked, 'again'].sort());
    } finally {
      await storage.close();
    }
  }, 60_000);
});
