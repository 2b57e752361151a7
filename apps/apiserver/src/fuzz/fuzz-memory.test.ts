import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { fuzzServer } from '@kevents/apiserver/testing';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ tooLargeResourceVersionWaitMs: 20 }) });
});
afterAll(async () => srv.close());

describe('hostile requests on every verb of every resource (memory store)', () => {
  it('no 5xx, every error a Status, no write by a rejected request, the server answers', async () => {
    const report = await fuzzServer({ baseURL: srv.url, numRuns: Number(process.env['FUZZ_RUNS'] ?? 300) });
    if (process.env['FUZZ_VERBOSE']) process.stderr.write(`${JSON.stringify(report.byStatus)}\n`);
    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
  }, 120_000);
});
