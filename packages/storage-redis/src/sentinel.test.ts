import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectStorageError, keyOf, runStorageConformance, testObject } from '@kevents/storage/testing';
import { createRedisStorage, parseRedisUrl } from './index.js';
import { RedisSentinelSet } from './testing/index.js';

let set: RedisSentinelSet;
let n = 0;
beforeAll(async () => {
  set = await RedisSentinelSet.start(1);
}, 30_000);
afterAll(async () => {
  await set?.stop();
});

// A write, the Stream's read and the counter's polls must fit the suite's wait for a future
// resourceVersion: its default 100 ms was too short once on a loaded CI machine (through Sentinel).
runStorageConformance(
  'RedisStorage (Sentinel)',
  async (tuning) => ({
    storage: await createRedisStorage({ url: set.url, prefix: `sent${++n}`, ...tuning }),
  }),
  { tooLargeResourceVersionWaitMs: 2_000 },
);

describe('RedisStorage through Sentinel', () => {
  it('reaches the master Sentinel names and describes itself without credentials', async () => {
    expect(parseRedisUrl(set.url.replace('redis+sentinel://', 'redis+sentinel://u:secret@')).description).toMatch(
      /^redis\+sentinel:\/\/127\.0\.0\.1:\d+\/mymaster$/,
    );
    const ok = await createRedisStorage({ url: set.url, prefix: 'sent-desc' });
    try {
      await ok.ready();
      const c = await ok.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      expect((await ok.get(keyOf('ns', 'a'))).metadata.resourceVersion).toBe(c.metadata.resourceVersion);
    } finally {
      await ok.close();
    }
  });
});

describe('RedisStorage through Sentinels with a password', () => {
  let locked: RedisSentinelSet;
  beforeAll(async () => {
    locked = await RedisSentinelSet.start(1, 0, 'sentinel-secret');
  }, 30_000);
  afterAll(async () => {
    await locked?.stop();
    // ioredis's failover detector closes its Sentinel connections with a 2 s guard timer of its own.
    await new Promise((r) => setTimeout(r, 2_100));
  }, 10_000);

  it('authenticates to the Sentinels with sentinelPassword, and is unavailable without it', async () => {
    const ok = await createRedisStorage({ url: `${locked.url}?sentinelPassword=sentinel-secret`, prefix: 'sent-pw' });
    try {
      await ok.ready();
      await ok.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      expect(ok.description).not.toContain('sentinel-secret');
    } finally {
      await ok.close();
    }
    const refused = await createRedisStorage({ url: locked.url, prefix: 'sent-pw', connectWaitMs: 500 });
    try {
      await expectStorageError(refused.ready(), 'Unavailable');
      await expectStorageError(refused.create(keyOf('ns', 'b'), testObject('ns', 'b')), 'Unavailable');
    } finally {
      await refused.close();
    }
  });
});
