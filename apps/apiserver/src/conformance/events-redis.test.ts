import { afterAll, beforeAll } from '@jest/globals';
import { runRestConformance } from '@kevents/apiserver/testing';
import { createRedisStorage } from '@kevents/storage-redis';
import { RedisServer } from '@kevents/storage-redis/testing';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { coreV1Target, eventsV1Target } from './event-targets.js';

let redis: RedisServer;
let srv: TestServer;
beforeAll(async () => {
  redis = await RedisServer.start();
  srv = await startTestServer({ storage: await createRedisStorage({ url: redis.url, prefix: 'rest-conformance' }) });
});
afterAll(async () => {
  await srv?.close();
  await redis?.stop();
});

runRestConformance(
  eventsV1Target(
    () => srv.url,
    () => srv.storage,
  ),
);
runRestConformance(
  coreV1Target(
    () => srv.url,
    () => srv.storage,
  ),
);
