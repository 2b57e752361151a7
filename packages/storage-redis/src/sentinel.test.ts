import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { keyOf, runStorageConformance, testObject } from '@kevents/storage/testing';
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

runStorageConformance('RedisStorage (Sentinel)', async (tuning) => ({
  storage: await createRedisStorage({ url: set.url, prefix: `sent${++n}`, ...tuning }),
}));

describe('RedisStorage through Sentinel', () => {
  it('reaches the master Sentinel names and describes itself without credentials', async () => {
    expect(parseRedisUrl(set.url.replace('redis+sentinel://', 'redis+sentinel://u:secret@')).description).toMatch(/^redis\+sentinel:\/\/127\.0\.0\.1:\d+\/mymaster$/);
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
