import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRedisStorage } from '@kevents/storage-redis';
import { RedisServer } from '@kevents/storage-redis/testing';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { fuzzServer } from '@kevents/apiserver/testing';

let redis: RedisServer;
let srv: TestServer;
beforeAll(async () => {
  redis = await RedisServer.start();
  srv = await startTestServer({
    storage: await createRedisStorage({ url: redis.url, prefix: 'fuzz', tooLargeResourceVersionWaitMs: 50 }),
  });
});
afterAll(async () => {
  await srv?.close();
  await redis?.stop();
});

describe('hostile requests on every verb of every resource (Redis store)', () => {
  it('no 5xx, every error a Status, no write by a rejected request, the server answers', async () => {
    const report = await fuzzServer({ baseURL: srv.url, numRuns: Number(process.env['FUZZ_RUNS'] ?? 150) });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
  }, 180_000);
});
