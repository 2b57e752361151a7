import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { brief, expectStorageError, keyOf, rvOf, rvs, testObject, WatchReader } from '@kevents/storage/testing';
import { isStorageError } from '@kevents/storage';
import { createRedisStorage } from './index.js';
import { createWhenAvailable, watchFailure } from './testing/faults.js';
import { RedisClusterSet, waitFor, waitReplicated } from './testing/index.js';

let cluster: RedisClusterSet;
beforeAll(async () => {
  cluster = await RedisClusterSet.start(3, 1);
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});

describe('RedisStorage on a Cluster, when the master of its slot fails', () => {
  it('fails fast, follows the promoted replica, keeps replicated writes, and watches end so clients resume', async () => {
    const storage = await createRedisStorage({ url: cluster.url, prefix: 'cfo' });
    try {
      await storage.ready();
      const before = [];
      for (let i = 0; i < 20; i++) before.push(await storage.create(keyOf('ns', `b${i}`), testObject('ns', `b${i}`)));
      const lastBefore = rvOf(before[before.length - 1]);
      const master = cluster.masterOf('{cfo}');
      if (master === undefined) throw new Error('no master serves the slot of {cfo}');
      await waitReplicated(master.port);

      const watch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: String(lastBefore) }),
      );
      await master.kill('SIGKILL');
      const t0 = Date.now();
      await expectStorageError(storage.create(keyOf('ns', 'during'), testObject('ns', 'during')), 'Unavailable');
      // ~1 s on a quiet machine, 3.8 s once in a loaded CI run: fast against a hang, which would
      // wait out the 20 s the watch below is given.
      expect(Date.now() - t0).toBeLessThan(5_000);

      expect(isStorageError(await watchFailure(watch, 20_000), 'Unavailable')).toBe(true);

      const after = await createWhenAvailable(storage, 'ns', 'after', 40_000);
      expect(cluster.masterOf('{cfo}')).not.toBe(master);
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        10_000,
        () => 'the change feed did not reconnect',
      );

      for (const b of before) expect(rvs(await storage.get(keyOf('ns', b.metadata.name!)))).toBe(rvs(b));
      expect(rvOf(after)).toBeGreaterThan(lastBefore);
      const resumed = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: String(lastBefore) }),
      );
      expect((await resumed.take(1, 10_000)).map(brief)).toEqual([`ADDED ns/after@${rvs(after)}`]);
      expect((await storage.list({ resource: 'events', namespace: 'ns' })).items).toHaveLength(21);
    } finally {
      await storage.close();
    }
  }, 90_000);
});
