import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runStorageConformance } from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { RedisClusterSet } from './testing/index.js';
import { firstWritesErrorStats } from './testing/script-errors.js';

let cluster: RedisClusterSet;
let n = 0;
beforeAll(async () => {
  cluster = await RedisClusterSet.start(3);
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

// Prefixes spread the instances' hash tags over the three masters' slots.
// A write, the Stream's read and the counter's polls must fit the suite's wait for a future
// resourceVersion: its default 100 ms was too short once on a loaded CI machine (through Sentinel).
runStorageConformance(
  'RedisStorage (Cluster)',
  async (tuning) => ({
    storage: await createRedisStorage({ url: cluster.url, prefix: `cl${++n}`, ...tuning }),
  }),
  { tooLargeResourceVersionWaitMs: 2_000 },
);

describe('RedisStorage (Cluster) scripts', () => {
  it('loads its scripts on every master when it connects: first writes meet no NOSCRIPT error', async () => {
    const { errorStats, listed } = await firstWritesErrorStats(
      cluster.nodes.map((node) => node.url),
      () => createRedisStorage({ url: cluster.url, prefix: `clscripts${++n}` }),
      16,
    );
    for (const stats of errorStats) expect(stats).not.toContain('NOSCRIPT');
    expect(listed).toBe(16);
  });
});
