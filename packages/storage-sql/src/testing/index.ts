export { TestDatabase, postgresAvailable, testPostgresAdminUrl } from './postgres-db.js';
export { PostgresProcess, postgresBinDir } from './postgres-process.js';
