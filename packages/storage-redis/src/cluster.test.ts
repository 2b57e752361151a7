import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { keyOf, runStorageConformance, testObject } from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { RedisClusterSet } from './testing/index.js';

let cluster: RedisClusterSet;
let n = 0;
beforeAll(async () => {
  cluster = await RedisClusterSet.start(3);
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

// Prefixes spread the instances' hash tags over the three masters' slots.
runStorageConformance('RedisStorage (Cluster)', async (tuning) => ({
  storage: await createRedisStorage({ url: cluster.url, prefix: `cl${++n}`, ...tuning }),
}));

describe('RedisStorage (Cluster) scripts', () => {
  it('loads its scripts on every master when it connects: first writes meet no NOSCRIPT error', async () => {
    const admins = cluster.nodes.map((node) => new Redis(node.url));
    try {
      for (const a of admins) {
        await a.script('FLUSH');
        await a.config('RESETSTAT');
      }
      const s = await createRedisStorage({ url: cluster.url, prefix: `clscripts${++n}` });
      try {
        const names = Array.from({ length: 16 }, (_, i) => `first-${i}`);
        await Promise.all(names.map((name) => s.create(keyOf('ns', name), testObject('ns', name))));
        for (const a of admins) expect(String(await a.info('errorstats'))).not.toContain('NOSCRIPT');
      } finally {
        await s.close();
      }
    } finally {
      for (const a of admins) a.disconnect();
    }
  });
});
