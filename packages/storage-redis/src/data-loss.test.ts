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

describe('RedisStorage when Redis comes back empty while no watch is open', () => {
  it("gives a watch opened after it the new Redis's changes only, in order and once, not the old window's", async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: 'idle-empty' });
    try {
      // A watch fills the feed's window with the first Redis's changes, then stops: the feed goes idle.
      const firstWatch = await storage.watch({ resource: 'events', namespace: 'ns' });
      const first = new WatchReader(firstWatch);
      for (let i = 0; i < 20; i++) await storage.create(keyOf('ns', `old${i}`), testObject('ns', `old${i}`));
      expect(await first.take(20, 10_000)).toHaveLength(20);
      firstWatch.stop();
      await new Promise((r) => setTimeout(r, 1_500));

      // Redis restarts between two idle pings and loses everything: its counter goes back.
      await server.kill('SIGKILL');
      await server.restart();
      await createWhenAvailable(storage, 'ns', 'new0', 15_000);
      for (let i = 1; i < 5; i++) await storage.create(keyOf('ns', `new${i}`), testObject('ns', `new${i}`));

      // A watch from now, read at once (as the HTTP handler does, before the feed has synced
      // again): nothing of the old window, every later change.
      const watcher = await storage.watch({ resource: 'events', namespace: 'ns' });
      const watch = new WatchReader(watcher);
      expect(await watch.next(1)).toBe('timeout');
      const later: string[] = [];
      for (let i = 0; i < 20; i++)
        later.push(
          `ADDED ns/later${i}@${rvs(await storage.create(keyOf('ns', `later${i}`), testObject('ns', `later${i}`)))}`,
        );
      expect((await watch.take(20, 10_000)).map(brief)).toEqual(later);
      await watch.expectQuiet(300);
      watcher.stop();
    } finally {
      await storage.close();
    }
  }, 60_000);
});
