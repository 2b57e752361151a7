import { SqlStorage, sqlDefaults, type SqlStorageOptions } from './sql-storage.js';
import { SqliteBackend } from './sqlite.js';
import { SqliteThreadBackend } from './sqlite-thread.js';
import { PostgresBackend, type PostgresTlsOptions } from './postgres.js';

/** Settings of {@link createSqlStorage}: a URL and the store's settings (which the URL's query may also give). */
export interface SqlStoreOptions extends SqlStorageOptions {
  /**
   * `sqlite:///ABS/PATH.db[?synchronous=normal][&thread=false]` (`thread=false`: SQLite on the
   * event loop instead of its writer thread) or
   * `postgres://USER:PASS@HOST:5432/DB[?sslmode=require|verify-ca|verify-full]` (also
   * `postgresql://`). Both take `historyLimit`, `historyMaxAgeMs` and `pollIntervalMs`;
   * PostgreSQL also `poolSize`.
   */
  readonly url: string;
  /** TLS files for a PostgreSQL URL with an `sslmode` other than disable. */
  readonly tls?: PostgresTlsOptions;
  /** How long to wait for PostgreSQL to answer at start (default 10,000 ms). */
  readonly connectWaitMs?: number;
}

/** Whether `url` names a SQL store. */
export const isSqlUrl = (url: string): boolean => /^(sqlite|postgres|postgresql):\/\//.test(url);

/** The file of a `sqlite:///ABS/PATH.db` URL. */
export function sqlitePath(url: string): string {
  const m = /^sqlite:\/\/([^?]*)(\?.*)?$/.exec(url);
  const path = m === null ? '' : decodeURIComponent(m[1]!);
  if (!path.startsWith('/'))
    throw new Error(`${url}: a SQLite URL names an absolute path: sqlite:///ABS/PATH.db (three slashes)`);
  if (path.endsWith('/')) throw new Error(`${url}: a SQLite URL names a file, not a folder`);
  return path;
}

/** Opens a SQL store, migrating its schema, and starts its change feed. */
export async function createSqlStorage(options: SqlStoreOptions): Promise<SqlStorage> {
  const query = new URLSearchParams(/\?(.*)$/.exec(options.url)?.[1] ?? '');
  const num = (name: string, given: number | undefined): number | undefined => {
    const q = query.get(name);
    if (q !== null && !/^\d+$/.test(q)) throw new Error(`${name}=${q}: not a whole number`);
    return given ?? (q === null ? undefined : Number(q));
  };
  const settings: SqlStorageOptions = {
    ...options,
    historyLimit: num('historyLimit', options.historyLimit),
    historyMaxAgeMs: num('historyMaxAgeMs', options.historyMaxAgeMs),
  };
  let storage: SqlStorage;
  if (options.url.startsWith('sqlite://')) {
    if (options.tls !== undefined)
      throw new Error('--storage-cafile, --storage-certfile and --storage-keyfile do not apply to SQLite');
    const sync = query.get('synchronous') ?? 'full';
    if (sync !== 'full' && sync !== 'normal') throw new Error(`synchronous=${sync}: use full or normal`);
    const thread = query.get('thread') ?? 'true';
    if (thread !== 'true' && thread !== 'false') throw new Error(`thread=${thread}: use true or false`);
    const sqlite = { path: sqlitePath(options.url), synchronous: sync } as const;
    const backend = thread === 'true' ? await SqliteThreadBackend.open(sqlite) : await SqliteBackend.open(sqlite);
    storage = new SqlStorage(backend, {
      ...settings,
      pollIntervalMs: num('pollIntervalMs', options.pollIntervalMs) ?? 0,
    });
  } else if (/^postgres(ql)?:\/\//.test(options.url)) {
    const backend = await PostgresBackend.open(
      {
        url: options.url,
        ...(options.tls === undefined ? {} : { tls: options.tls }),
        ...(query.has('poolSize') ? { poolSize: num('poolSize', undefined)! } : {}),
      },
      options.connectWaitMs,
    );
    storage = new SqlStorage(backend, {
      ...settings,
      pollIntervalMs: num('pollIntervalMs', options.pollIntervalMs) ?? sqlDefaults.pollIntervalMs,
    });
  } else throw new Error(`${options.url}: not a SQL store URL (sqlite:///ABS/PATH.db or postgres://...)`);
  try {
    await storage.start();
  } catch (err) {
    await storage.close();
    throw err;
  }
  return storage;
}
