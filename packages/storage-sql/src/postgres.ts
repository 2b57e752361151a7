import pg from 'pg';
import { StorageError, unavailableError } from '@kevents/storage';
import {
  changeFromRow,
  countCap,
  countPlan,
  matchColumn,
  type Bounds,
  type CountPlan,
  type FirstChange,
  type PageRequest,
  type PageResult,
  type SqlBackend,
  type SqlChange,
  type StoredRow,
  type WriteOp,
  type WriteResult,
} from './backend.js';
import { compactBody, expandBody } from './compact-body.js';
import { firstRevisionStatement, postgresMigrations, schemaVersion } from './schema.js';

/** TLS files for a PostgreSQL URL with `sslmode` (from `--storage-cafile`, `--storage-certfile`, `--storage-keyfile`). */
export interface PostgresTlsOptions {
  readonly ca?: string | Buffer;
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
}

/** Settings of a PostgreSQL database. */
export interface PostgresOptions {
  /** `postgres://user:pass@host:5432/db[?sslmode=...]`. */
  readonly url: string;
  readonly tls?: PostgresTlsOptions;
  /** Connections in the pool (default 8). */
  readonly poolSize?: number;
  /** A query that has not answered within this fails with Unavailable (default 5,000 ms). */
  readonly queryTimeoutMs?: number;
}

type Row = Record<string, unknown>;

/** `postgres://user:***@host:port/db`: the URL without its password. */
export function redactPostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    u.search = '';
    return u.toString();
  } catch {
    return 'postgres://(invalid URL)';
  }
}

/**
 * The `pg` settings of a URL: `sslmode` `disable` (default), `require` (TLS, no verification
 * unless a CA is given), `verify-ca` and `verify-full` (TLS verified against `--storage-cafile`,
 * or the system CAs; verify-ca does not check the host name).
 */
export function postgresConfig(options: PostgresOptions): pg.PoolConfig {
  const u = new URL(options.url);
  const mode = u.searchParams.get('sslmode') ?? 'disable';
  const modes = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];
  if (!modes.includes(mode)) throw new Error(`sslmode=${mode}: use one of ${modes.join(', ')}`);
  const tls = options.tls;
  if (mode === 'disable' && tls !== undefined)
    throw new Error(
      '--storage-cafile, --storage-certfile and --storage-keyfile need a TLS PostgreSQL URL (?sslmode=require, verify-ca or verify-full)',
    );
  let ssl: pg.PoolConfig['ssl'] = false;
  if (mode !== 'disable' && mode !== 'prefer') {
    ssl = {
      rejectUnauthorized: mode !== 'require' || tls?.ca !== undefined,
      ...(tls?.ca === undefined ? {} : { ca: tls.ca }),
      ...(tls?.cert === undefined ? {} : { cert: tls.cert }),
      ...(tls?.key === undefined ? {} : { key: tls.key }),
      ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
    };
  }
  const timeout = options.queryTimeoutMs ?? 5_000;
  return {
    host: decodeURIComponent(u.hostname) || '127.0.0.1',
    port: u.port === '' ? 5432 : Number(u.port),
    user: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
    ssl,
    max: options.poolSize ?? 8,
    connectionTimeoutMillis: timeout,
    query_timeout: timeout,
    idleTimeoutMillis: 30_000,
    application_name: 'kevents',
    // Every read is a key lookup or a key range in index order with a LIMIT, so the index's order
    // is always the plan. With the statistics of a table loaded faster than autovacuum analyzes
    // it (rows=79 for 20,000), PostgreSQL chose a bitmap scan of the whole resource and a sort
    // for a page of 500 (13 ms instead of 0.4). A pooler in transaction mode must pass `options`.
    options: '-c enable_bitmapscan=off',
    keepAlive: true,
  };
}

/**
 * How many writes a process sends between two vacuums of the change log: half the history it
 * keeps, at least 100, so the log's file holds about 1.5 times the history.
 */
export function changeLogVacuumInterval(historyLimit: number): number {
  return Math.max(100, Math.floor(historyLimit / 2));
}

/**
 * PostgreSQL through `pg`, shared by any number of kevents replicas. Writes are batches given
 * to the `kevents_write` function (one round trip, one transaction); reads are single
 * statements (one snapshot each). Bodies are stored in the compact form (compact-body.ts) and
 * expanded as they are read, so the store above sees JSON.
 */
export class PostgresBackend implements SqlBackend {
  readonly description: string;
  private readonly pool: pg.Pool;
  private readonly config: pg.PoolConfig;
  private closed = false;
  /** Writes this process sent since it last vacuumed the change log (refused ones too: an upper bound of the changes). */
  private writesSinceVacuum = 0;
  private vacuuming: Promise<void> | undefined;

  private constructor(pool: pg.Pool, config: pg.PoolConfig, url: string) {
    this.pool = pool;
    this.config = config;
    this.description = redactPostgresUrl(url);
    pool.on('error', () => undefined); // an idle client lost: the next query reconnects
  }

  /** Connects and migrates (waiting up to `waitMs` for the database to answer). */
  static async open(options: PostgresOptions, waitMs = 10_000): Promise<PostgresBackend> {
    const config = postgresConfig(options);
    const pool = new pg.Pool(config);
    const b = new PostgresBackend(pool, config, options.url);
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        await b.migrate();
        return b;
      } catch (err) {
        const e = toStorageError(err);
        if (!(e instanceof StorageError) || e.code !== 'Unavailable' || Date.now() > deadline) {
          await pool.end().catch(() => undefined);
          throw new Error(`postgres: cannot prepare ${b.description}: ${(err as Error).message}`, { cause: err });
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  private async migrate(): Promise<void> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query("SELECT pg_advisory_xact_lock(hashtext('kevents_schema'))");
      await c.query(
        'CREATE TABLE IF NOT EXISTS kevents_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)',
      );
      const r = await c.query<Row>('SELECT version FROM kevents_schema WHERE id = 1');
      const have = r.rows.length === 0 ? 0 : Number(r.rows[0]!['version']);
      if (have > schemaVersion)
        throw new Error(
          `the database has schema version ${have}, newer than this kevents knows (${schemaVersion}); run a newer kevents`,
        );
      for (let v = have + 1; v <= schemaVersion; v++) await c.query(postgresMigrations[v - 1]!);
      if (have === 0) await c.query('INSERT INTO kevents_schema (id, version) VALUES (1, $1)', [schemaVersion]);
      else if (have < schemaVersion)
        await c.query('UPDATE kevents_schema SET version = $1 WHERE id = 1', [schemaVersion]);
      await c.query(firstRevisionStatement);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  private async q(sql: string, params: unknown[] = []): Promise<Row[]> {
    if (this.closed) throw unavailableError('postgres: the store is closed');
    try {
      return (await this.pool.query<Row>(sql, params)).rows;
    } catch (err) {
      throw toStorageError(err);
    }
  }

  /** {@link q} with each row as an array of its columns. */
  private async qa(sql: string, params: unknown[]): Promise<unknown[][]> {
    if (this.closed) throw unavailableError('postgres: the store is closed');
    try {
      return (await this.pool.query<unknown[]>({ text: sql, values: params, rowMode: 'array' })).rows;
    } catch (err) {
      throw toStorageError(err);
    }
  }

  async write(ops: readonly WriteOp[], historyLimit: number): Promise<WriteResult[]> {
    const json = ops.map((o) => ({
      op: o.op,
      r: o.resource,
      n: o.namespace,
      k: o.key,
      b: compactBody(o.body),
      u: o.uid,
      e: o.expect,
      f: o.fields,
      ...(o.preUid === undefined ? {} : { pu: o.preUid }),
      ...(o.preRv === undefined ? {} : { pr: o.preRv }),
    }));
    const rows = await this.q('SELECT kevents_write($1::jsonb, $2::bigint) AS r', [JSON.stringify(json), historyLimit]);
    const out = rows[0]!['r'] as [WriteResult['status'], number | string, string?][];
    this.logged(out.length, historyLimit);
    return out.map(([status, rv, detail]) =>
      detail === undefined
        ? { status, rv: Number(rv) }
        : { status, rv: Number(rv), detail: status === 'ok' ? expandBody(detail) : detail },
    );
  }

  /**
   * Vacuums the change log after every {@link changeLogVacuumInterval} writes this process
   * sent, in the background (one at a time; `SKIP_LOCKED` when another replica's runs).
   * `kevents_write` deletes a change for every one it adds once the log holds `historyLimit`,
   * and autovacuum looks at a table at most once a minute (`autovacuum_naptime`): a load faster
   * than that grew the log's file to every row it ever held (90,010 dead rows beside 11,000 after
   * 100,000 creates in 13 s). Vacuumed, the space of trimmed changes is written again.
   */
  private logged(writes: number, historyLimit: number): void {
    this.writesSinceVacuum += writes;
    if (this.writesSinceVacuum < changeLogVacuumInterval(historyLimit) || this.vacuuming || this.closed) return;
    this.writesSinceVacuum = 0;
    this.vacuuming = this.pool
      .query('VACUUM (SKIP_LOCKED) kevents_changes')
      .then(
        () => undefined,
        () => undefined, // a vacuum that fails (no owner, connection lost) leaves it to autovacuum
      )
      .finally(() => (this.vacuuming = undefined));
  }

  async get(resource: string, key: string): Promise<StoredRow | undefined> {
    const rows = await this.q('SELECT key, rv, uid, body FROM kevents_objects WHERE resource = $1 AND key = $2', [
      resource,
      key,
    ]);
    return rows.length === 0 ? undefined : toStored(rows[0]!);
  }

  async bounds(): Promise<Bounds> {
    const rows = await this.q('SELECT rv, compacted FROM kevents_meta WHERE id = 1');
    return { rv: Number(rows[0]!['rv']), compacted: Number(rows[0]!['compacted']) };
  }

  async page(req: PageRequest): Promise<PageResult> {
    const lowerOp = req.lowerExclusive ? '>' : '>=';
    const endClause = req.end === undefined ? '' : ' AND key < $3';
    const range = `resource = $1 AND key ${lowerOp} $2${endClause}`;
    const params: unknown[] = [req.resource, req.lower];
    if (req.end !== undefined) params.push(req.end);
    const n = params.length;
    params.push(req.limit, req.at);
    const limitP = `$${n + 1}`;
    const atP = `$${n + 2}`;
    let match = '';
    if (req.match !== undefined) {
      params.push(req.match.value);
      match = ` AND ${matchColumn(req.match.column)} = $${params.length}`;
    }
    const count = req.count ? countSql(countPlan(req.lower, req.lowerExclusive, req.end), params) : 'NULL::bigint';
    // One statement, one snapshot: the bounds and count (kind m), the page (o) and, for a list
    // at an older resourceVersion, the first change after it of every key of the range (c).
    const sql = `
WITH m AS (SELECT rv, compacted FROM kevents_meta WHERE id = 1)
SELECT 'm' AS kind, NULL AS key, m.rv, m.compacted AS prev_rv, NULL AS uid, NULL AS body, NULL::"char" AS type, ${count} AS n, NULL::boolean AS now FROM m
UNION ALL
(SELECT 'o', key, rv, NULL, NULL, body, NULL, NULL, NULL FROM kevents_objects WHERE ${range}${match} ORDER BY key LIMIT ${limitP})
UNION ALL
(SELECT 'c', f.key, f.rv, f.prev_rv, NULL, f.prev, f.type, NULL,
   EXISTS (SELECT 1 FROM kevents_objects o WHERE o.resource = $1 AND o.key = f.key)
 FROM (SELECT DISTINCT ON (key) key, rv, type, prev_rv, CASE type WHEN 'M' THEN prev_body ELSE body END AS prev
       FROM kevents_changes WHERE ${atP}::bigint >= 0 AND rv > ${atP}::bigint
         AND ${atP}::bigint >= (SELECT compacted FROM m) AND ${range}
       ORDER BY key, rv) f)`;
    // Rows as arrays (kind, key, rv, prev_rv, uid, body, type, n, now): a page is hundreds of rows.
    const rows = await this.qa(sql, params);
    let rv = 0;
    let compacted = 0;
    let total: number | undefined;
    const items: StoredRow[] = [];
    const changes: FirstChange[] = [];
    for (const r of rows) {
      if (r[0] === 'm') {
        rv = Number(r[2]);
        compacted = Number(r[3]);
        total = r[7] === null || Number(r[7]) < 0 ? undefined : Number(r[7]);
      } else if (r[0] === 'o')
        items.push({ key: r[1] as string, rv: Number(r[2]), uid: '', body: expandBody(r[5] as string) });
      else
        changes.push({
          key: String(r[1]),
          type: String(r[6]) as FirstChange['type'],
          prevRv: Number(r[3]),
          prevBody: r[5] === null ? '' : expandBody(String(r[5])),
          now: r[8] === true,
        });
    }
    return { rv, compacted, rows: items, changes, count: total };
  }

  async changes(after: number, limit: number): Promise<SqlChange[]> {
    const rows = await this.q(
      'SELECT rv, type, resource, key, namespace, body, prev_body FROM kevents_changes WHERE rv > $1 ORDER BY rv LIMIT $2',
      [after, limit],
    );
    return rows.map((r) => changeFromRow(r, expandBody));
  }

  async compact(rv: number, batch: number): Promise<number> {
    const rows = await this.q(
      `WITH m AS (UPDATE kevents_meta SET compacted = greatest(compacted, least($1::bigint, rv)) WHERE id = 1 RETURNING compacted),
            d AS (DELETE FROM kevents_changes WHERE rv IN (
              SELECT c.rv FROM kevents_changes c, m WHERE c.rv <= m.compacted ORDER BY c.rv LIMIT $2) RETURNING rv)
       SELECT (SELECT compacted FROM m) AS compacted, (SELECT count(*) FROM d) AS deleted`,
      [rv, batch],
    );
    return Number(rows[0]!['deleted']) >= batch ? 1 : 0;
  }

  async rvBefore(ms: number): Promise<number> {
    const rows = await this.q(
      'SELECT (SELECT rv FROM kevents_changes WHERE ts >= $1 ORDER BY rv LIMIT 1) AS first, (SELECT rv FROM kevents_meta WHERE id = 1) AS rv',
      [ms],
    );
    const first = rows[0]!['first'];
    return first === null ? Number(rows[0]!['rv']) : Number(first) - 1;
  }

  async ping(): Promise<void> {
    await this.q('SELECT 1');
  }

  /**
   * LISTENs on its own connection; `fn` is called on every NOTIFY and after the connection is
   * made again (changes may have been missed meanwhile). Reconnects by itself.
   */
  listen(fn: (rv: number | undefined) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let client: pg.Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    const connect = async (): Promise<void> => {
      if (stopped) return;
      const c = new pg.Client({ ...this.config, query_timeout: undefined });
      client = c;
      const retry = (): void => {
        if (client !== c) return;
        client = undefined;
        c.end().catch(() => undefined);
        if (!stopped) {
          timer = setTimeout(() => void connect(), 500);
          timer.unref();
        }
      };
      c.on('error', retry);
      c.on('end', retry);
      c.on('notification', (n) =>
        fn(n.payload !== undefined && /^\d+$/.test(n.payload) ? Number(n.payload) : undefined),
      );
      try {
        await c.connect();
        if (stopped) {
          await c.end();
          return;
        }
        await c.query('LISTEN kevents_changes');
        fn(undefined);
      } catch {
        retry();
      }
    };
    void connect();
    return Promise.resolve(async () => {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.vacuuming;
    await this.pool.end().catch(() => undefined);
  }
}

/**
 * The SQL of a {@link CountPlan} (its values appended to `params`; `$1` is the resource): -1 when
 * the range count reached the cap.
 */
function countSql(plan: CountPlan, params: unknown[]): string {
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  if (plan.kind === 'namespace')
    return `coalesce((SELECT n FROM kevents_counts WHERE resource = $1 AND namespace = ${p(plan.namespace)}), 0)`;
  if (plan.kind === 'all') return '(SELECT coalesce(sum(n), 0)::bigint FROM kevents_counts WHERE resource = $1)';
  const own = `(SELECT count(*) FROM (SELECT 1 FROM kevents_objects WHERE resource = $1 AND key ${plan.lowerExclusive ? '>' : '>='} ${p(plan.lower)}${plan.end === undefined ? '' : ` AND key < ${p(plan.end)}`} LIMIT ${countCap}) c)`;
  const later =
    plan.laterThan === undefined
      ? '0'
      : `(SELECT coalesce(sum(n), 0)::bigint FROM kevents_counts WHERE resource = $1 AND namespace <> ${p(plan.exceptNamespace)} AND namespace || '/' > ${p(plan.laterThan)})`;
  return `(SELECT CASE WHEN o.n >= ${countCap} THEN -1 ELSE o.n + ${later} END FROM (SELECT ${own} AS n) o)`;
}

function toStored(r: Row): StoredRow {
  return { key: String(r['key']), rv: Number(r['rv']), uid: String(r['uid']), body: expandBody(String(r['body'])) };
}

/** SQLSTATE classes that mean "the database cannot serve now": connection, resources (disk full), shutdown, lock timeouts. */
const unavailableStates = /^(08|53|57|58|40P01|55P03|25006)/;

/** Maps a driver error to a StorageError: Unavailable when PostgreSQL is down, full or refusing, else Internal. */
export function toStorageError(err: unknown): unknown {
  if (err instanceof StorageError) return err;
  const e = err as { code?: string; message?: string };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = e.message ?? String(err);
  if (code === '53100') return unavailableError(`postgres: the disk is full: ${message}`, err);
  if (
    unavailableStates.test(code) ||
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN)$/.test(code) ||
    /Connection terminated|timeout|Client has encountered a connection error|not queryable|Cannot use a pool after calling end/i.test(
      message,
    )
  )
    return unavailableError(`postgres: ${message}`, err);
  return new StorageError('Internal', `postgres: ${message}`, { cause: err });
}
