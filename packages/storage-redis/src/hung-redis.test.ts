import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isStorageError } from '@kevents/storage';
import {
  brief,
  expectStorageError,
  keyOf,
  rvs,
  testObject,
  WatchReader,
  type TestObject,
} from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { createWhenAvailable, watchFailure } from './testing/faults.js';
import { redisCommand, RedisServer, SilentProxy, waitFor } from './testing/index.js';

let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(async () => {
  server?.resume();
  await server?.stop();
});

describe('RedisStorage when Redis stops answering (connections open, no replies)', () => {
  it('answers 503 within the command timeout, ends watches, and recovers when Redis answers again', async () => {
    const storage = await createRedisStorage({ url: server.url, prefix: 'hung' });
    try {
      const first = await storage.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const watch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: rvs(first) }),
      );
      const quick = await createRedisStorage({ url: `${server.url}?commandTimeoutMs=300`, prefix: 'hung' });
      await quick.ready();
      server.pause();
      try {
        const t0 = Date.now();
        const lost = await expectStorageError(storage.create(keyOf('ns', 'b'), testObject('ns', 'b')), 'Unavailable');
        expect(Date.now() - t0).toBeLessThan(4_000);
        // Sent and not answered: the client is told that it may have been applied (it is, below).
        expect(lost.message).toBe(
          'redis unavailable: no answer within 2000 ms (commandTimeoutMs); the write may have been applied',
        );
        // The timeout is a URL parameter too.
        const t = Date.now();
        const e = await expectStorageError(quick.get(keyOf('ns', 'a')), 'Unavailable');
        expect(e.message).toBe('redis unavailable: no answer within 300 ms (commandTimeoutMs)');
        expect(Date.now() - t).toBeLessThan(1_500);
        // The watch does not hang on a silent connection: it ends, so its client relists.
        const t1 = Date.now();
        expect(isStorageError(await watchFailure(watch, 10_000), 'Unavailable')).toBe(true);
        expect(Date.now() - t1).toBeLessThan(8_000);
        await expectStorageError(storage.ready(), 'Unavailable');
      } finally {
        server.resume();
        await quick.close();
      }
      const after = await createWhenAvailable(storage, 'ns', 'after', 15_000);
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        15_000,
        () => 'the store did not recover',
      );
      const resumed = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: rvs(first) }),
      );
      const seen = (await resumed.take(1, 10_000)).map(brief);
      // 'b' may have been applied before its reply was lost; 'after' is there in any case.
      expect(seen[0] === `ADDED ns/after@${rvs(after)}` || seen[0]!.startsWith('ADDED ns/b@')).toBe(true);
      expect((await storage.get(keyOf('ns', 'after'))).metadata.uid).toBe(after.metadata.uid);
    } finally {
      await storage.close();
    }
  }, 60_000);

  it('leaves a connection that went silent (a vanished host, a partition) and carries on over a new one', async () => {
    const proxy = await SilentProxy.start(server.port);
    const storage = await createRedisStorage({ url: proxy.url, prefix: 'silent' });
    try {
      const first = await storage.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const watch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: rvs(first) }),
      );
      proxy.silenceOpenConnections();
      await expectStorageError(storage.create(keyOf('ns', 'b'), testObject('ns', 'b')), 'Unavailable');
      expect(isStorageError(await watchFailure(watch, 10_000), 'Unavailable')).toBe(true);
      // Redis itself is fine: new connections reach it, and the store finds them by itself.
      const after = await createWhenAvailable(storage, 'ns', 'after', 15_000);
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        15_000,
        () => 'the store did not reconnect',
      );
      const resumed = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: rvs(after) }),
      );
      const later = await storage.create(keyOf('ns', 'later'), testObject('ns', 'later'));
      expect((await resumed.take(1, 10_000)).map(brief)).toEqual([`ADDED ns/later@${rvs(later)}`]);
    } finally {
      await storage.close();
      await proxy.close();
    }
  }, 60_000);
});

describe('RedisStorage when Redis answers slowly and then not at all', () => {
  it('gives a request commandTimeoutMs in all, not per command: a guaranteed update whose read was slow fails at the deadline', async () => {
    const slow = await RedisServer.start({ args: ['--enable-debug-command', 'yes'] });
    const storage = await createRedisStorage({ url: slow.url, prefix: 'slow', commandTimeoutMs: 1_000 });
    try {
      await storage.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      // Redis is busy for 700 ms: the update's read waits for it, then its write gets no answer.
      const busy = redisCommand(slow.port, 'DEBUG SLEEP 0.7', 5_000);
      await new Promise((r) => setTimeout(r, 20));
      const t0 = Date.now();
      const e = await expectStorageError(
        storage.guaranteedUpdate<TestObject>(keyOf('ns', 'a'), (cur) => {
          slow.pause();
          return { ...cur!, note: 'late' };
        }),
        'Unavailable',
      );
      const took = Date.now() - t0;
      slow.resume();
      expect(await busy).toBe('+OK');
      // 1 s and a slack for a loaded machine's late timers; each command had its own 1 s: 1.7 s.
      expect(took).toBeGreaterThanOrEqual(950);
      expect(took).toBeLessThan(1_500);
      expect(e.message).toBe(
        'redis unavailable: no answer within 1000 ms (commandTimeoutMs); the write may have been applied',
      );
      // A read that gets no answer says nothing of the kind.
      await waitFor(
        () =>
          storage.get(keyOf('ns', 'a')).then(
            () => true,
            () => false,
          ),
        10_000,
        () => 'the store did not reconnect',
      );
      slow.pause();
      const t1 = Date.now();
      const r = await expectStorageError(storage.get(keyOf('ns', 'a')), 'Unavailable');
      // One command, one deadline: the bound only tells the deadline from no deadline (the test's
      // own 30 s); a loaded CI machine's late timers took it to 1,652 ms once.
      expect(Date.now() - t1).toBeLessThan(3_000);
      slow.resume();
      expect(r.message).toBe('redis unavailable: no answer within 1000 ms (commandTimeoutMs)');
    } finally {
      slow.resume();
      await storage.close();
      await slow.stop();
    }
  }, 30_000);
});
