import { afterAll, beforeAll } from '@jest/globals';
import { runRestConformance } from '@kevents/apiserver/testing';
import { MemoryStorage } from '@kevents/storage';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { leasesV1Target } from './lease-targets.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ historyLimit: 100_000 }) });
});
afterAll(async () => srv?.close());

runRestConformance(
  leasesV1Target(
    () => srv.url,
    () => srv.storage,
  ),
);
