import { afterAll, beforeAll } from '@jest/globals';
import { runRestConformance } from '@kevents/apiserver/testing';
import { createSqlStorage } from '@kevents/storage-sql';
import { TestDatabase } from '@kevents/storage-sql/testing';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { leasesV1Target } from './lease-targets.js';

let db: TestDatabase;
let srv: TestServer;
beforeAll(async () => {
  db = await TestDatabase.create();
  srv = await startTestServer({ storage: await createSqlStorage({ url: db.url }) });
});
afterAll(async () => {
  await srv?.close();
  await db?.drop();
});

runRestConformance(
  leasesV1Target(
    () => srv.url,
    () => srv.storage,
  ),
);
