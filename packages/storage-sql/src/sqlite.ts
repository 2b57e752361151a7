import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { StorageError, unavailableError } from '@kevents/storage';
import {
  changeFromRow,
  countCap,
  countPlan,
  decide,
  matchColumn,
  type CountPlan,
  type Bounds,
  type FirstChange,
  type PageRequest,
  type PageResult,
  type SqlBackend,
  type SqlChange,
  type StoredRow,
  type WriteOp,
  type WriteResult,
} from './backend.js';
import { firstRevisionStatement, sqliteMigrations, schemaVersion } from './schema.js';

/** Settings of a SQLite database. */
export interface SqliteOptions {
  /** The database file (its folder is created). */
  readonly path: string;
  /** `full` (default: a committed write survives a power loss) or `normal` (it survives a crash of kevents). */
  readonly synchronous?: 'full' | 'normal';
}

type Row = Record<string, unknown>;

/**
 * SQLite through Node's built-in `node:sqlite` (no native build). One process owns the file
 * (exclusive locking in WAL mode: a second kevents on the same file fails at start). Calls are
 * synchronous, so every method is one consistent snapshot and writes never interleave.
 */
export class SqliteBackend implements SqlBackend {
  readonly description: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private closed = false;

  private constructor(db: DatabaseSync, path: string) {
    this.db = db;
    this.description = `sqlite://${path}`;
  }

  /** Opens (creating it and its folder when absent) and migrates the database. */
  static async open(options: SqliteOptions): Promise<SqliteBackend> {
    // Loaded on demand: an older Node without node:sqlite still starts with the other stores.
    const { DatabaseSync } = await import('node:sqlite');
    try {
      mkdirSync(dirname(options.path), { recursive: true });
    } catch (err) {
      throw new Error(`sqlite: cannot create the folder of ${options.path}: ${(err as Error).message}`, { cause: err });
    }
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(options.path, { timeout: 1_000 });
    } catch (err) {
      throw new Error(`sqlite: cannot open ${options.path}: ${(err as Error).message}`, { cause: err });
    }
    try {
      db.exec('PRAGMA page_size = 8192');
      const mode = db.prepare('PRAGMA journal_mode = WAL').get() as Row;
      if (String(mode['journal_mode']).toLowerCase() !== 'wal')
        throw new Error(`WAL mode refused (${String(mode['journal_mode'])})`);
      db.exec(`PRAGMA synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('PRAGMA foreign_keys = OFF');
      // A 16 MB page cache (SQLite's default is 2 MB: pages read again from the file on every
      // write to a large table).
      db.exec('PRAGMA cache_size = -16384');
      migrate(db);
    } catch (err) {
      db.close();
      const busy = (err as { errcode?: number }).errcode === 5;
      throw new Error(
        busy
          ? `sqlite: ${options.path} is in use by another process (one kevents per SQLite file)`
          : `sqlite: cannot prepare ${options.path}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    return new SqliteBackend(db, options.path);
  }

  private stmt(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private run<T>(fn: () => T): Promise<T> {
    if (this.closed) return Promise.reject(unavailableError('sqlite: the database is closed'));
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(toStorageError(err));
    }
  }

  write(ops: readonly WriteOp[], historyLimit: number): Promise<WriteResult[]> {
    return this.run(() => {
      const db = this.db;
      db.exec('BEGIN IMMEDIATE');
      try {
        const meta = this.stmt('SELECT rv, compacted FROM kevents_meta WHERE id = 1').get() as Row;
        let rv = Number(meta['rv']);
        const compacted = Number(meta['compacted']);
        const now = Date.now();
        const results: WriteResult[] = [];
        const read = this.stmt('SELECT key, rv, uid, body FROM kevents_objects WHERE resource = ? AND key = ?');
        const log = this.stmt(
          'INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        );
        for (const op of ops) {
          const cur = toStored(read.get(op.resource, op.key) as Row | undefined);
          const d = decide(op, cur);
          if (d.kind === 'refuse') {
            results.push(d.result);
            continue;
          }
          rv++;
          if (d.kind === 'insert') {
            // uid, f_uid and f_name are read from the body (virtual columns; schema.ts).
            this.stmt('INSERT INTO kevents_objects (resource, key, rv, body) VALUES (?, ?, ?, ?)').run(
              op.resource,
              op.key,
              rv,
              op.body,
            );
            log.run(rv, 'A', op.resource, op.key, op.namespace, op.body, 0, null, now);
            this.stmt(
              'INSERT INTO kevents_counts (resource, namespace, n) VALUES (?, ?, 1) ON CONFLICT (resource, namespace) DO UPDATE SET n = n + 1',
            ).run(op.resource, op.namespace);
            results.push({ status: 'ok', rv });
          } else if (d.kind === 'update') {
            this.stmt('UPDATE kevents_objects SET rv = ?, body = ? WHERE resource = ? AND key = ?').run(
              rv,
              op.body,
              op.resource,
              op.key,
            );
            log.run(rv, 'M', op.resource, op.key, op.namespace, op.body, cur!.rv, cur!.body, now);
            results.push({ status: 'ok', rv, detail: cur!.body });
          } else {
            this.stmt('DELETE FROM kevents_objects WHERE resource = ? AND key = ?').run(op.resource, op.key);
            this.stmt('UPDATE kevents_counts SET n = n - 1 WHERE resource = ? AND namespace = ?').run(
              op.resource,
              op.namespace,
            );
            log.run(rv, 'D', op.resource, op.key, op.namespace, cur!.body, cur!.rv, null, now);
            results.push({ status: 'ok', rv, detail: cur!.body });
          }
        }
        const trimmed = Math.max(compacted, rv - historyLimit);
        if (trimmed > compacted)
          this.stmt('DELETE FROM kevents_changes WHERE rv > ? AND rv <= ?').run(compacted, trimmed);
        this.stmt('UPDATE kevents_meta SET rv = ?, compacted = ? WHERE id = 1').run(rv, trimmed);
        db.exec('COMMIT');
        return results;
      } catch (err) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  get(resource: string, key: string): Promise<StoredRow | undefined> {
    return this.run(() =>
      toStored(
        this.stmt('SELECT key, rv, uid, body FROM kevents_objects WHERE resource = ? AND key = ?').get(
          resource,
          key,
        ) as Row | undefined,
      ),
    );
  }

  bounds(): Promise<Bounds> {
    return this.run(() => this.boundsNow());
  }

  private boundsNow(): Bounds {
    const m = this.stmt('SELECT rv, compacted FROM kevents_meta WHERE id = 1').get() as Row;
    return { rv: Number(m['rv']), compacted: Number(m['compacted']) };
  }

  page(req: PageRequest): Promise<PageResult> {
    return this.run(() => {
      const { rv, compacted } = this.boundsNow();
      const lowerOp = req.lowerExclusive ? '>' : '>=';
      const endClause = req.end === undefined ? '' : ' AND key < ?';
      const args: (string | number)[] = [req.resource, req.lower];
      if (req.end !== undefined) args.push(req.end);
      const rows = (
        this.stmt(pageSql(req.lowerExclusive, req.end !== undefined, req.match?.column)).all(
          ...args,
          ...(req.match === undefined ? [] : [req.match.value]),
          req.limit,
        ) as Row[]
      ).map((r) => toStored(r)!);
      const count = req.count
        ? this.countNow(req.resource, countPlan(req.lower, req.lowerExclusive, req.end))
        : undefined;
      let changes: FirstChange[] = [];
      if (req.at >= 0 && req.at >= compacted && req.at < rv) {
        changes = (
          this.stmt(
            `SELECT f.key AS key, f.type AS type, f.prev_rv AS prev_rv, f.prev AS prev,
               EXISTS (SELECT 1 FROM kevents_objects o WHERE o.resource = ? AND o.key = f.key) AS now
             FROM (SELECT key, type, prev_rv, CASE type WHEN 'M' THEN prev_body ELSE body END AS prev, MIN(rv) AS first
                   FROM kevents_changes WHERE rv > ? AND resource = ? AND key ${lowerOp} ?${endClause} GROUP BY key) f`,
          ).all(req.resource, req.at, ...args) as Row[]
        ).map(toFirstChange);
      }
      return { rv, compacted, rows, changes, count };
    });
  }

  private countNow(resource: string, plan: CountPlan): number | undefined {
    if (plan.kind === 'namespace') {
      const r = this.stmt('SELECT n FROM kevents_counts WHERE resource = ? AND namespace = ?').get(
        resource,
        plan.namespace,
      ) as Row | undefined;
      return r === undefined ? 0 : Number(r['n']);
    }
    if (plan.kind === 'all')
      return Number(
        (this.stmt('SELECT coalesce(sum(n), 0) AS n FROM kevents_counts WHERE resource = ?').get(resource) as Row)['n'],
      );
    const endClause = plan.end === undefined ? '' : ' AND key < ?';
    const own = Number(
      (
        this.stmt(
          `SELECT count(*) AS n FROM (SELECT 1 FROM kevents_objects WHERE resource = ? AND key ${plan.lowerExclusive ? '>' : '>='} ?${endClause} LIMIT ${countCap})`,
        ).get(resource, plan.lower, ...(plan.end === undefined ? [] : [plan.end])) as Row
      )['n'],
    );
    if (own >= countCap) return undefined;
    if (plan.laterThan === undefined) return own;
    const later = this.stmt(
      "SELECT coalesce(sum(n), 0) AS n FROM kevents_counts WHERE resource = ? AND namespace <> ? AND namespace || '/' > ?",
    ).get(resource, plan.exceptNamespace, plan.laterThan) as Row;
    return own + Number(later['n']);
  }

  changes(after: number, limit: number): Promise<SqlChange[]> {
    return this.run(() =>
      (
        this.stmt(
          'SELECT rv, type, resource, key, namespace, body, prev_body FROM kevents_changes WHERE rv > ? ORDER BY rv LIMIT ?',
        ).all(after, limit) as Row[]
      ).map((r) => changeFromRow(r)),
    );
  }

  compact(rv: number, batch: number): Promise<number> {
    return this.run(() => {
      const b = this.boundsNow();
      const to = Math.min(rv, b.rv);
      if (to > b.compacted) this.stmt('UPDATE kevents_meta SET compacted = ? WHERE id = 1').run(to);
      const target = Math.max(to, b.compacted);
      const oldest = this.stmt('SELECT MIN(rv) AS m FROM kevents_changes').get() as Row;
      if (oldest['m'] === null || Number(oldest['m']) > target) return 0;
      const upTo = Math.min(target, Number(oldest['m']) + batch - 1);
      this.stmt('DELETE FROM kevents_changes WHERE rv <= ?').run(upTo);
      return target - upTo;
    });
  }

  rvBefore(ms: number): Promise<number> {
    return this.run(() => {
      const first = this.stmt('SELECT rv FROM kevents_changes WHERE ts >= ? ORDER BY rv LIMIT 1').get(ms) as
        Row | undefined;
      if (first !== undefined) return Number(first['rv']) - 1;
      return this.boundsNow().rv;
    });
  }

  ping(): Promise<void> {
    return this.run(() => {
      this.stmt('SELECT 1').get();
    });
  }

  /**
   * Runs one statement (maintenance: `PRAGMA`, `ANALYZE`, `VACUUM`, `PRAGMA wal_checkpoint`) and
   * returns its rows. Not for the store's own tables: writes made here bypass the change log.
   */
  maintenance(sql: string): Promise<Row[]> {
    return this.run(() => this.db.prepare(sql).all() as Row[]);
  }

  listen(): Promise<() => Promise<void>> {
    // One process owns the file: the store sees every write itself.
    return Promise.resolve(() => Promise.resolve());
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.statements.clear();
    this.db.close();
    return Promise.resolve();
  }
}

/**
 * The SELECT of a page of objects (without their uid, which pages do not need and SQLite would
 * read from each body): parameters resource, lower key, end key (when `hasEnd`), the indexed
 * field's value (when `column`), limit. It reads the key index, or with a field that field's
 * index (named: without statistics SQLite's planner would walk the key range instead).
 */
export function pageSql(lowerExclusive: boolean, hasEnd: boolean, column: string | undefined): string {
  const index = column === undefined ? 'key' : matchColumn(column).slice(2);
  const from = `kevents_objects INDEXED BY kevents_objects_${index}`;
  return `SELECT key, rv, '' AS uid, body FROM ${from} WHERE resource = ? AND key ${lowerExclusive ? '>' : '>='} ?${hasEnd ? ' AND key < ?' : ''}${column === undefined ? '' : ` AND ${column} = ?`} ORDER BY key LIMIT ?`;
}

function migrate(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(
      'CREATE TABLE IF NOT EXISTS kevents_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)',
    );
    const row = db.prepare('SELECT version FROM kevents_schema WHERE id = 1').get() as Row | undefined;
    const have = row === undefined ? 0 : Number(row['version']);
    if (have > schemaVersion)
      throw new Error(
        `the database has schema version ${have}, newer than this kevents knows (${schemaVersion}); run a newer kevents`,
      );
    for (let v = have + 1; v <= schemaVersion; v++) db.exec(sqliteMigrations[v - 1]!);
    if (have === 0) db.prepare('INSERT INTO kevents_schema (id, version) VALUES (1, ?)').run(schemaVersion);
    else if (have < schemaVersion) db.prepare('UPDATE kevents_schema SET version = ? WHERE id = 1').run(schemaVersion);
    db.exec(firstRevisionStatement);
    db.exec('COMMIT');
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

function toStored(r: Row | undefined): StoredRow | undefined {
  if (r === undefined) return undefined;
  return { key: String(r['key']), rv: Number(r['rv']), uid: String(r['uid']), body: String(r['body']) };
}

function toFirstChange(r: Row): FirstChange {
  return {
    key: String(r['key']),
    type: String(r['type']) as FirstChange['type'],
    prevRv: Number(r['prev_rv']),
    prevBody: r['prev'] === null ? '' : String(r['prev']),
    now: Number(r['now']) === 1,
  };
}

/** SQLite result codes that mean "cannot write now" rather than a bug: busy, locked, I/O, full, read-only, can't open. */
const unavailableCodes = new Set([5, 6, 8, 10, 13, 14]);

function toStorageError(err: unknown): unknown {
  if (err instanceof StorageError) return err;
  const code = (err as { errcode?: number }).errcode;
  if (typeof code === 'number' && unavailableCodes.has(code & 0xff)) {
    const text = (err as Error).message;
    return code === 13
      ? unavailableError(`sqlite: the disk is full: ${text}`, err)
      : unavailableError(`sqlite: ${text}`, err);
  }
  return new StorageError('Internal', `sqlite: ${(err as Error).message}`, { cause: err });
}
