import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isStorageError } from '@kevents/storage';
import { brief, expectStorageError, keyOf, rvOf, rvs, testObject, WatchReader } from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { createWhenAvailable, watchFailure } from './testing/faults.js';
import { RedisServer, waitFor } from './testing/index.js';

/** A Redis without persistence: a restart loses everything, including the resourceVersion counter. */
let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(async () => {
  await server?.stop();
});

describe('RedisStorage when Redis comes back empty', () => {
  it('starts over: watches end, old resourceVersions are refused as too large, new writes and watches work', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: 'empty', tooLargeResourceVersionWaitMs: 300 });
    try {
      let last = '0';
      for (let i = 0; i < 5; i++) last = rvs(await storage.create(keyOf('ns', `old${i}`), testObject('ns', `old${i}`)));
      const watch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: last }),
      );
      await server.kill('SIGKILL');
      await server.restart();
      expect(isStorageError(await watchFailure(watch, 10_000), 'Unavailable')).toBe(true);

      const fresh = await createWhenAvailable(storage, 'ns', 'new', 15_000);
      expect(rvOf(fresh)).toBeLessThan(rvOf(last));
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        10_000,
        () => 'the store did not recover',
      );
      expect((await storage.list({ resource: 'events', namespace: 'ns' })).items.map((o) => o.metadata.name)).toEqual([
        'new',
      ]);
      // A client still holding a resourceVersion from before is told to relist.
      await expectStorageError(
        storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: last }),
        'TooLargeResourceVersion',
      );
      await expectStorageError(
        storage.list(
          { resource: 'events', namespace: 'ns' },
          { resourceVersion: last, resourceVersionMatch: 'NotOlderThan' },
        ),
        'TooLargeResourceVersion',
      );
      // One that relisted watches on from the new state.
      const listed = await storage.list({ resource: 'events', namespace: 'ns' });
      const rewatch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: listed.resourceVersion }),
      );
      const next = await storage.create(keyOf('ns', 'next'), testObject('ns', 'next'));
      expect((await rewatch.take(1, 10_000)).map(brief)).toEqual([`ADDED ns/next@${rvs(next)}`]);
    } finally {
      await storage.close();
    }
  }, 60_000);
});
