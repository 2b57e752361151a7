import { afterAll, beforeAll } from '@jest/globals';
import { runStorageConformance } from '@kevents/storage/testing';
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
