import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  brief,
  expectStorageError,
  keyOf,
  objectOf,
  rvOf,
  rvs,
  testObject,
  WatchReader,
} from '@kevents/storage/testing';
import { isStorageError } from '@kevents/storage';
import { createRedisStorage } from './index.js';
import {
  createWhenAvailable,
  requestsThroughFailure,
  watchFailure,
  whenAvailable,
  expectAllWithin,
} from './testing/faults.js';
import { redisCommand, RedisSentinelSet, waitFor, waitReplicated } from './testing/index.js';

/** How late a request may end past commandTimeoutMs: timers run late on a loaded machine. */
const slackMs = 500;

/** A master, one replica and one Sentinel for the tests of a describe block. */
function sentinelSet(): { readonly set: RedisSentinelSet } {
  const holder = {} as { set: RedisSentinelSet };
  beforeAll(async () => {
    holder.set = await RedisSentinelSet.start(1, 1);
  }, 40_000);
  afterAll(async () => {
    await holder.set?.stop();
    // ioredis's failover detector closes its Sentinel connections with a 2 s guard timer of its own.
    await new Promise((r) => setTimeout(r, 2_100));
  }, 10_000);
  return holder;
}

describe('RedisStorage through Sentinel, when the master fails', () => {
  const sets = sentinelSet();
  it('fails fast during the failover, follows the promoted replica, keeps replicated writes, and watches end so clients resume', async () => {
    const { set } = sets;
    const storage = await createRedisStorage({ url: set.url, prefix: 'fo' });
    try {
      await storage.ready();
      const before = [];
      for (let i = 0; i < 20; i++) before.push(await storage.create(keyOf('ns', `b${i}`), testObject('ns', `b${i}`)));
      const lastBefore = rvOf(before[before.length - 1]);
      // Acknowledged writes survive a failover once the replica has them (replication is asynchronous).
      await waitReplicated(set.master.port);

      const watch = new WatchReader(
        await storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: String(lastBefore) }),
      );
      const oldMaster = set.master.port;
      await set.master.kill('SIGKILL');

      const t0 = Date.now();
      await expectStorageError(storage.create(keyOf('ns', 'during'), testObject('ns', 'during')), 'Unavailable');
      // Within commandTimeoutMs (2 s) and the slack; it fails in milliseconds.
      expect(Date.now() - t0).toBeLessThan(2_000 + slackMs);

      // The watch ends with Unavailable (its client relists or resumes), not silently.
      expect(isStorageError(await watchFailure(watch, 15_000), 'Unavailable')).toBe(true);

      // The client follows the Sentinels to the promoted replica by itself.
      const after = await createWhenAvailable(storage, 'ns', 'after', 30_000);
      expect(set.currentMasterPort()).toBe(set.replicas[0].port);
      expect(set.currentMasterPort()).not.toBe(oldMaster);
      // The change feed (its own connection) follows too; until then the store is not ready.
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        10_000,
        () => 'the change feed did not reconnect',
      );

      // Every write acknowledged before the failover is there; resourceVersions keep rising.
      for (const b of before)
        expect(rvs(await whenAvailable(() => storage.get(keyOf('ns', b.metadata.name!)), 10_000))).toBe(rvs(b));
      expect(rvOf(after)).toBeGreaterThan(lastBefore);

      // A client that resumes from the last resourceVersion it saw gets what happened since.
      const resumed = new WatchReader(
        await whenAvailable(
          () => storage.watch({ resource: 'events', namespace: 'ns' }, { resourceVersion: String(lastBefore) }),
          10_000,
        ),
      );
      expect((await resumed.take(1, 10_000)).map(brief)).toEqual([`ADDED ns/after@${rvs(after)}`]);
      await storage.create(keyOf('ns', 'later'), testObject('ns', 'later'));
      expect((await resumed.take(1, 10_000)).map((e) => objectOf(e).metadata.name)).toEqual(['later']);
      expect((await storage.list({ resource: 'events', namespace: 'ns' })).items).toHaveLength(22);
    } finally {
      await storage.close();
    }
  }, 60_000);
});

describe('RedisStorage through Sentinel, on a manual failover (the old master stays up)', () => {
  const sets = sentinelSet();

  it('moves its writes to the promoted replica instead of the demoted master', async () => {
    const { set } = sets;
    const storage = await createRedisStorage({ url: set.url, prefix: 'manual' });
    try {
      await storage.ready();
      const first = await storage.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      await waitReplicated(set.master.port);
      // A Sentinel may answer NOGOODSLAVE until it has fresh INFO from the replica.
      await waitFor(
        async () => (await redisCommand(set.sentinels[0].port, 'SENTINEL FAILOVER mymaster', 2_000)) === '+OK',
        15_000,
        () => 'SENTINEL FAILOVER was refused',
      );
      await waitFor(
        () => set.currentMasterPort() === set.replicas[0].port,
        15_000,
        () => 'the replica was not promoted',
      );

      // Writes made between the promotion and the moment the client hears of it reach the old
      // master and are lost when it is demoted (Redis replicates asynchronously; see
      // docs/operations.md). The client must then move to the new master by itself.
      const onNewMaster = async (name: string): Promise<boolean> =>
        (await redisCommand(set.replicas[0].port, `HEXISTS {manual}:o:events ns/${name}`, 1_000)) === ':1';
      let tries = 0;
      await waitFor(
        async () => {
          const name = `try${tries++}`;
          const ok = await storage.create(keyOf('ns', name), testObject('ns', name)).then(
            () => true,
            (err: unknown) => {
              if (isStorageError(err, 'Unavailable')) return false;
              throw err;
            },
          );
          return ok && (await onNewMaster(name));
        },
        20_000,
        () => 'no write reached the new master',
      );
      await waitFor(
        () =>
          storage.ready().then(
            () => true,
            () => false,
          ),
        10_000,
        () => 'the change feed did not follow',
      );
      for (const name of ['after1', 'after2']) {
        const created = await storage.create(keyOf('ns', name), testObject('ns', name));
        expect(await onNewMaster(name)).toBe(true);
        expect(rvs(await storage.get(keyOf('ns', name)))).toBe(rvs(created));
      }
      expect(rvs(await storage.get(keyOf('ns', 'a')))).toBe(rvs(first));
    } finally {
      await storage.close();
    }
  }, 60_000);
});

for (const how of ['crashes', 'goes silent'] as const) {
  describe(`RedisStorage through Sentinel, when the master ${how}`, () => {
    const sets = sentinelSet();
    it('answers or fails every kind of request within commandTimeoutMs until the replica is promoted, and then succeeds', async () => {
      const { set } = sets;
      const commandTimeoutMs = 300;
      const storage = await createRedisStorage({ url: set.url, prefix: 'bound', commandTimeoutMs });
      try {
        await storage.ready();
        const records = await requestsThroughFailure(
          storage,
          'ns',
          async () => {
            await waitReplicated(set.master.port);
            if (how === 'crashes') await set.master.kill('SIGKILL');
            else set.master.pause();
          },
          40_000,
        );
        expectAllWithin(records, commandTimeoutMs + slackMs);
        expect(records.create.unavailable).toBeGreaterThan(0);
        expect(set.currentMasterPort()).toBe(set.replicas[0].port);
      } finally {
        set.master.resume();
        await storage.close();
      }
    }, 60_000);
  });
}
