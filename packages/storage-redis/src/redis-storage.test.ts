import { afterAll, beforeAll } from '@jest/globals';
import { runStorageConformance } from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { RedisServer } from './testing/index.js';

let server: RedisServer;
let n = 0;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(async () => {
  await server?.stop();
});

runStorageConformance('RedisStorage (standalone)', async (tuning) => ({
  storage: await createRedisStorage({ url: server.url, prefix: `conf${++n}`, ...tuning }),
}));
