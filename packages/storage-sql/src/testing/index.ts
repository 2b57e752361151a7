export {
  TestDatabase,
  migratePostgresTo,
  postgresAvailable,
  testDatabases,
  testPostgresAdminUrl,
} from './postgres-db.js';
export type { TestDatabases } from './postgres-db.js';
export { PostgresProcess, postgresBinDir } from './postgres-process.js';
export { coreEvent } from './core-event.js';
