import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import { runRestConformance } from '@kevents/apiserver/testing';
import { createSqlStorage } from '@kevents/storage-sql';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { leasesV1Target } from './lease-targets.js';

let dir: string;
let srv: TestServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kevents-rest-'));
  srv = await startTestServer({ storage: await createSqlStorage({ url: `sqlite://${join(dir, 'events.db')}` }) });
});
afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

runRestConformance(
  leasesV1Target(
    () => srv.url,
    () => srv.storage,
  ),
);
