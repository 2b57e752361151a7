import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { firstRevisionStatement, postgresMigrations } from '../schema.js';

/** The PostgreSQL the tests use (the machine's, trust auth): `KEVENTS_TEST_POSTGRES` or 127.0.0.1:5432. */
export const testPostgresAdminUrl =
  process.env['KEVENTS_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throwaway database `kevents_test_<random>` on a PostgreSQL server; `drop()` removes it. */
export class TestDatabase {
  readonly url: string;
  readonly name: string;
  private readonly adminUrl: string;

  private constructor(url: string, adminUrl: string, name: string) {
    this.url = url;
    this.adminUrl = adminUrl;
    this.name = name;
  }

  static async create(adminUrl: string = testPostgresAdminUrl): Promise<TestDatabase> {
    const name = `kevents_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    return new TestDatabase(u.toString(), adminUrl, name);
  }

  async drop(): Promise<void> {
    const admin = new pg.Client({ connectionString: this.adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
}

/** Throwaway databases for a test file: `fresh()` makes one, `dropAll()` (for `afterAll`) drops every one made. */
export interface TestDatabases {
  fresh(): Promise<TestDatabase>;
  dropAll(): Promise<void>;
}

/** A {@link TestDatabases} on the server at `adminUrl`. */
export function testDatabases(adminUrl: string = testPostgresAdminUrl): TestDatabases {
  const made: TestDatabase[] = [];
  return {
    fresh: async () => {
      const db = await TestDatabase.create(adminUrl);
      made.push(db);
      return db;
    },
    dropAll: async () => {
      for (const db of made.splice(0)) await db.drop();
    },
  };
}

/** Whether a PostgreSQL server answers at `adminUrl`. */
export async function postgresAvailable(adminUrl: string = testPostgresAdminUrl): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Migrates the empty database `c` is connected to up to schema `version` (not the newest), as
 * the store would have at that version: for tests of a database an older kevents wrote.
 */
export async function migratePostgresTo(c: pg.Client, version: number): Promise<void> {
  await c.query('BEGIN');
  await c.query('CREATE TABLE kevents_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)');
  for (const m of postgresMigrations.slice(0, version)) await c.query(m);
  await c.query('INSERT INTO kevents_schema (id, version) VALUES (1, $1)', [version]);
  await c.query(firstRevisionStatement);
  await c.query('COMMIT');
}
