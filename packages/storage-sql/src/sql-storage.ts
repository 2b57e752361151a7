import type { KubeObject } from '@kevents/api';
import {
  alreadyExistsError,
  conflictError,
  encodeListContinue,
  expiredContinueError,
  expiredListError,
  fromBody,
  isUnsetResourceVersion,
  keyAfter,
  listStart,
  notFoundError,
  openCursorWatch,
  remoteWatchStart,
  parseResourceVersion,
  SharedDecodes,
  readListRetrying,
  resourceVersionPreconditionError,
  StorageError,
  toBody,
  tooLargeResourceVersionError,
  uidConflictError,
  unavailableError,
  waitForResourceVersion,
  withResourceVersion,
} from '@kevents/storage';
import type { ListKind } from '@kevents/storage';
import type {
  GuaranteedUpdateOptions,
  KeyPrefix,
  ListOptions,
  ListResult,
  ObjectKey,
  Preconditions,
  Predicate,
  RevisionPage,
  RevisionReads,
  Storage,
  StoredRevision,
  UpdateFunction,
  Watcher,
  WatchOptions,
  WriteOptions,
} from '@kevents/storage';
import {
  batchChanges,
  indexable,
  indexedValues,
  type FirstChange,
  type SqlBackend,
  type StoredRow,
  type WriteOp,
  type WriteResult,
} from './backend.js';
import { ChangeFeed, sqlChangeSource } from './change-feed.js';
import { indexedFields } from './schema.js';

/** Settings of {@link SqlStorage} (the database's own are the backend's). */
export interface SqlStorageOptions {
  /** Changes kept for watches, continue tokens and exact lists (default 10,000). */
  readonly historyLimit?: number;
  /** Also compact changes older than this (default 600,000 ms; 0 turns age compaction off). */
  readonly historyMaxAgeMs?: number;
  /** How often the age compaction runs (default 5,000 ms). */
  readonly compactIntervalMs?: number;
  /** How often a watch with `allowBookmarks` gets a BOOKMARK (default 60,000 ms). */
  readonly bookmarkIntervalMs?: number;
  /** How long a read for a future resourceVersion waits before TooLargeResourceVersion (default 3,000 ms). */
  readonly tooLargeResourceVersionWaitMs?: number;
  /** The shortest time between two wake-ups of this process's watches (default 4 ms). */
  readonly watchBatchIntervalMs?: number;
  /**
   * How often the change log is read even without a notification (default 1,000 ms; the SQLite
   * store, which sees every write itself, sets 0).
   */
  readonly pollIntervalMs?: number;
  /** At most this many writes go to the database in one transaction (default 256). */
  readonly maxWriteBatch?: number;
  /**
   * How many write batches may be under way at once (default 1: the next batch gathers every
   * write that arrives while one commits). More than one made PostgreSQL creates slower: the
   * batches wait on each other's resourceVersion lock anyway, and each is smaller, so there are
   * more transactions and commits for the same writes (1,452–2,467 against 1,876–3,817 creates/s
   * with 4 and with 1, alternated in one run; docs/benchmarks.md).
   */
  readonly writeBatchesInFlight?: number;
}

export const sqlDefaults = {
  historyLimit: 10_000,
  historyMaxAgeMs: 600_000,
  compactIntervalMs: 5_000,
  bookmarkIntervalMs: 60_000,
  tooLargeResourceVersionWaitMs: 3_000,
  watchBatchIntervalMs: 4,
  pollIntervalMs: 1_000,
  maxWriteBatch: 256,
} as const;

/** Deletes of compacted changes go in batches of this many, so that no statement runs long. */
const compactBatch = 5_000;
/** How many recent changes a process keeps in memory for its watches. */
const feedWindow = 512;

interface Pending {
  readonly op: WriteOp;
  readonly resolve: (r: WriteResult) => void;
  readonly reject: (err: unknown) => void;
}

/** The storage key of an object: `<namespace>/<name>`, or `<name>` when cluster-scoped. */
const storageKey = (namespace: string, name: string): string => (namespace === '' ? name : `${namespace}/${name}`);

/**
 * The SQL store (SQLite, PostgreSQL): objects, a change log and one resourceVersion counter in
 * the database (see schema.ts). Writes are queued and go to the database in batches, one
 * transaction each (a group commit: one fsync for many writes). Lists read the current objects
 * and undo, from the change log, the changes newer than the list's resourceVersion, so pages stay
 * consistent for as long as the log keeps the history. Watches read the log through one
 * process-wide {@link ChangeFeed}. It offers {@link RevisionReads}: one counter in the database
 * gives every state its resourceVersion, never reused, so callers keep what they encoded for a
 * resourceVersion (the apiserver's pages and gets skip decoding and encoding again).
 */
export class SqlStorage implements Storage, RevisionReads {
  readonly description: string;
  readonly backend: SqlBackend;
  private readonly feed: ChangeFeed;
  private readonly watchers = new Set<Watcher>();
  private readonly decodes = new SharedDecodes();
  private readonly historyLimit: number;
  private readonly historyMaxAgeMs: number;
  private readonly bookmarkIntervalMs: number;
  private readonly waitMs: number;
  private readonly maxBatch: number;
  private readonly compactTimer: NodeJS.Timeout | undefined;
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxInFlight: number;
  private stopListening: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(backend: SqlBackend, options: SqlStorageOptions = {}) {
    this.backend = backend;
    this.description = backend.description;
    this.historyLimit = Math.max(1, options.historyLimit ?? sqlDefaults.historyLimit);
    this.historyMaxAgeMs = options.historyMaxAgeMs ?? sqlDefaults.historyMaxAgeMs;
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? sqlDefaults.bookmarkIntervalMs;
    this.waitMs = options.tooLargeResourceVersionWaitMs ?? sqlDefaults.tooLargeResourceVersionWaitMs;
    this.maxBatch = Math.max(1, options.maxWriteBatch ?? sqlDefaults.maxWriteBatch);
    this.maxInFlight = Math.max(1, options.writeBatchesInFlight ?? 1);
    this.feed = new ChangeFeed(
      backend,
      Math.min(this.historyLimit, feedWindow),
      options.watchBatchIntervalMs ?? sqlDefaults.watchBatchIntervalMs,
      options.pollIntervalMs ?? sqlDefaults.pollIntervalMs,
    );
    const interval = options.compactIntervalMs ?? sqlDefaults.compactIntervalMs;
    if (this.historyMaxAgeMs > 0 && interval > 0) {
      this.compactTimer = setInterval(() => void this.compactByAge().catch(() => undefined), interval);
      this.compactTimer.unref();
    }
  }

  /** Starts the change feed (and, on PostgreSQL, listening for the other replicas' writes). */
  async start(): Promise<void> {
    await this.feed.start();
    // A notification of a write this process has already read (its own, mostly) needs no read.
    this.stopListening = await this.backend.listen((rv) => {
      if (rv === undefined || rv > this.feed.head) void this.feed.poke();
    });
  }

  async get<T extends KubeObject>(key: ObjectKey, options: { resourceVersion?: string } = {}): Promise<T> {
    this.checkOpen();
    if (!isUnsetResourceVersion(options.resourceVersion))
      await this.waitFor(parseResourceVersion(options.resourceVersion!));
    const row = await this.backend.get(key.resource, storageKey(key.namespace, key.name));
    if (row === undefined) throw notFoundError(key);
    return fromBody<T>(row.body, row.rv);
  }

  async getRevision<T extends KubeObject>(
    key: ObjectKey,
    options: { resourceVersion?: string } = {},
  ): Promise<StoredRevision<T>> {
    this.checkOpen();
    if (!isUnsetResourceVersion(options.resourceVersion))
      await this.waitFor(parseResourceVersion(options.resourceVersion!));
    const row = await this.backend.get(key.resource, storageKey(key.namespace, key.name));
    if (row === undefined) throw notFoundError(key);
    return new SqlRevision<T>(row.body, row.rv);
  }

  async list<T extends KubeObject>(prefix: KeyPrefix, options: ListOptions<T> = {}): Promise<ListResult<T>> {
    const predicate = options.predicate;
    const read = (e: StoredRow): T | undefined => {
      const obj = fromBody<T>(e.body, e.rv);
      return predicate === undefined || predicate(obj) ? obj : undefined;
    };
    return this.listWith(prefix, options, read, predicate);
  }

  /** A page of initial events: as {@link list}, with objects decoded once for all watches ({@link SharedDecodes}). */
  private listInitial<T extends KubeObject>(prefix: KeyPrefix, options: ListOptions<T>): Promise<ListResult<T>> {
    return this.listWith(prefix, options, (e) => this.decodes.get<T>(e.body, e.rv, fromBody), undefined);
  }

  async listRevisions<T extends KubeObject>(
    prefix: KeyPrefix,
    options: Omit<ListOptions<T>, 'predicate'> = {},
  ): Promise<RevisionPage<T>> {
    return this.listWith(prefix, options, (e) => new SqlRevision<T>(e.body, e.rv), undefined);
  }

  private async listWith<I>(
    prefix: KeyPrefix,
    options: Omit<ListOptions, 'predicate'>,
    read: (e: StoredRow) => I | undefined,
    predicate: Predicate<never> | undefined,
  ): Promise<Omit<ListResult, 'items'> & { items: I[] }> {
    this.checkOpen();
    const { limit, start, at, kind, waitFor } = listStart(options, prefix);
    if (waitFor !== undefined) await this.waitFor(waitFor);
    return readListRetrying(kind, () => this.readList(prefix, at, kind, start, limit, read, predicate));
  }

  async create<T extends KubeObject>(key: ObjectKey, obj: T): Promise<T> {
    this.checkOpen();
    const r = await this.write(this.op('c', key, obj, undefined, ''));
    return withResourceVersion(obj, r.rv);
  }

  async update<T extends KubeObject>(key: ObjectKey, obj: T, options: WriteOptions = {}): Promise<T> {
    this.checkOpen();
    const r = await this.write(this.op('u', key, obj, options.preconditions, obj.metadata?.resourceVersion ?? ''));
    return withResourceVersion(obj, r.rv);
  }

  async guaranteedUpdate<T extends KubeObject>(
    key: ObjectKey,
    tryUpdate: UpdateFunction<T>,
    options: GuaranteedUpdateOptions = {},
  ): Promise<T> {
    this.checkOpen();
    for (;;) {
      const cur = await this.backend.get(key.resource, storageKey(key.namespace, key.name));
      if (cur === undefined && options.ignoreNotFound !== true) throw notFoundError(key);
      if (cur !== undefined) checkPreconditions(key, cur, options.preconditions);
      const next = await tryUpdate(cur === undefined ? undefined : fromBody<T>(cur.body, cur.rv));
      this.checkOpen();
      const r = await this.write(
        this.op('g', key, next, options.preconditions, cur === undefined ? '0' : String(cur.rv)),
        true,
      );
      if (r.status === 'conflict') continue;
      return withResourceVersion(next, r.rv);
    }
  }

  async delete<T extends KubeObject>(key: ObjectKey, options: WriteOptions = {}): Promise<T> {
    this.checkOpen();
    const r = await this.write(this.op('d', key, undefined, options.preconditions, ''));
    return fromBody<T>(r.detail!, r.rv);
  }

  async watch<T extends KubeObject>(prefix: KeyPrefix, options: WatchOptions<T> = {}): Promise<Watcher<T>> {
    this.checkOpen();
    const { from, initial } = await remoteWatchStart<T>(options, {
      waitFor: (rv) => this.waitFor(rv),
      bounds: () => this.backend.bounds(),
      listInitial: (o) => this.listInitial<T>(prefix, o),
    });
    return openCursorWatch<T>(
      sqlChangeSource(this.feed, this.backend),
      this.watchers,
      { prefix, from, initial, bookmarkIntervalMs: this.bookmarkIntervalMs },
      options,
    );
  }

  async currentResourceVersion(): Promise<string> {
    this.checkOpen();
    return String((await this.backend.bounds()).rv);
  }

  async compact(resourceVersion: string): Promise<void> {
    this.checkOpen();
    const rv = parseResourceVersion(resourceVersion);
    while ((await this.backend.compact(rv, compactBatch)) > 0) await new Promise((r) => setImmediate(r));
    this.feed.compactTo(rv);
  }

  /** Compacts changes older than `historyMaxAgeMs` (runs on a timer). */
  async compactByAge(): Promise<void> {
    if (this.closed || this.historyMaxAgeMs <= 0) return;
    const rv = await this.backend.rvBefore(Date.now() - this.historyMaxAgeMs);
    if (rv > 0) await this.compact(String(rv));
  }

  async ready(): Promise<void> {
    this.checkOpen();
    await this.backend.ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.compactTimer);
    for (const w of [...this.watchers]) w.stop();
    this.feed.close();
    await this.stopListening?.();
    for (const p of this.queue.splice(0)) p.reject(unavailableError('storage is closed'));
    await this.backend.close();
  }

  private checkOpen(): void {
    if (this.closed) throw unavailableError('storage is closed');
  }

  private op(
    op: WriteOp['op'],
    key: ObjectKey,
    obj: KubeObject | undefined,
    pre: Preconditions | undefined,
    expect: string,
  ): WriteOp {
    const body = obj === undefined ? '' : toBody(obj);
    const uid = obj?.metadata?.uid;
    return {
      op,
      resource: key.resource,
      namespace: key.namespace,
      key: storageKey(key.namespace, key.name),
      body,
      uid: uid ?? '',
      preUid: pre?.uid,
      preRv: pre?.resourceVersion,
      expect,
      fields: obj === undefined ? [] : indexedValues(obj),
    };
  }

  /** Queues a write for the next batch and maps its answer. */
  private async write(op: WriteOp, allowConflict = false): Promise<WriteResult> {
    const key: ObjectKey = {
      resource: op.resource,
      namespace: op.namespace,
      name: op.namespace === '' ? op.key : op.key.slice(op.namespace.length + 1),
    };
    const r = await new Promise<WriteResult>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.schedule();
    });
    switch (r.status) {
      case 'ok':
      case 'noop':
        return r;
      case 'exists':
        throw alreadyExistsError(key);
      case 'notfound':
        throw notFoundError(key);
      case 'uid':
        throw uidConflictError(key, op.preUid!, r.detail ?? '');
      case 'pre':
        throw resourceVersionPreconditionError(key, op.preRv!, r.detail ?? '');
      case 'conflict':
        if (allowConflict) return r;
        throw conflictError(key);
      default:
        throw new StorageError('Internal', `sql: unexpected write answer ${JSON.stringify(r)}`);
    }
  }

  /** Sends the queued writes at the end of this turn of the event loop, unless enough batches are under way. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.maxInFlight && this.queue.length > 0) void this.flush();
    });
  }

  /** Writes one batch (one transaction), answers its writes, lets the watches read them, and sends the next. */
  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    this.inFlight++;
    try {
      const ops = batch.map((p) => p.op);
      const results = await this.backend.write(ops, this.historyLimit);
      batch.forEach((p, i) => p.resolve(results[i]!));
      if (!this.feed.appendOwn(batchChanges(ops, results))) void this.feed.poke();
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }

  /** Resolves once the database has reached `rv`; else TooLargeResourceVersion after the wait. */
  private waitFor(rv: number): Promise<void> {
    return waitForResourceVersion(rv, {
      current: async () => (await this.backend.bounds()).rv,
      feed: this.feed,
      waitMs: this.waitMs,
      isClosed: () => this.closed,
      checkOpen: () => this.checkOpen(),
    });
  }

  /**
   * Reads one page at `at` (-1: the newest state) in chunks. A chunk reads, in one snapshot, the
   * objects from the cursor on and the first change after `at` of every key of the range; a key
   * changed after `at` takes the state that change replaced, so every page is exactly the state
   * at the list's resourceVersion whatever was written since.
   */
  private async readList<I>(
    prefix: KeyPrefix,
    at: number,
    kind: ListKind,
    start: string | undefined,
    limit: number,
    read: (e: StoredRow) => I | undefined,
    predicate: Predicate<never> | undefined,
  ): Promise<Omit<ListResult, 'items'> & { items: I[] }> {
    const ns = prefix.namespace ?? '';
    // A namespace's keys are `<ns>/<name>`: the range [`<ns>/`, `<ns>0`), as '0' follows '/'. A
    // continue key is clamped into it, so no token reads another namespace.
    const first = ns === '' ? '' : `${ns}/`;
    const end = ns === '' ? undefined : `${ns}0`;
    let lower = first;
    let lowerExclusive = false;
    if (start !== undefined && start > first) {
      // A token's start is `<key>\u0000`: the first key after <key> (PostgreSQL text holds no NUL).
      // No key holds a NUL, so the keys from `<x>\u0000<y>` are the keys after <x>, whatever <y> is.
      const nul = start.indexOf('\u0000');
      if (nul >= 0) {
        lower = start.slice(0, nul);
        lowerExclusive = true;
      } else lower = start;
    }
    const match = indexedMatch(predicate);
    const chunk = limit > 0 ? Math.min(Math.max(limit + 1, predicate === undefined ? 1 : 500), 5_000) : 2_000;
    const wantCount = limit > 0 && predicate === undefined;
    const items: I[] = [];
    let last: string | undefined;
    let more = false;
    let total: number | undefined;
    for (let firstChunk = true; ; firstChunk = false) {
      if (end !== undefined && (lower > end || (lower === end && !lowerExclusive))) break;
      const res = await this.backend.page({
        resource: prefix.resource,
        lower,
        lowerExclusive,
        end,
        limit: chunk,
        at,
        count: firstChunk && wantCount,
        ...(match === undefined ? {} : { match }),
      });
      if (at >= 0 && at < res.compacted) {
        if (kind === 'continue') throw expiredContinueError(encodeListContinue(prefix, start!, -1));
        if (kind === 'exact') throw expiredListError();
        throw new StorageError('Expired', 'list history compacted while reading');
      }
      if (at > res.rv) throw tooLargeResourceVersionError(at, res.rv);
      if (at < 0) at = res.rv;
      const exhausted = res.rows.length < chunk;
      const upper = exhausted ? undefined : res.rows[res.rows.length - 1]!.key;
      const inRange = (k: string): boolean =>
        (lowerExclusive ? k > lower : k >= lower) && (upper === undefined || k <= upper);
      const changed = new Map<string, FirstChange>();
      for (const c of res.changes) changed.set(c.key, c);
      const entries: StoredRow[] = [];
      for (const row of res.rows) if (!changed.has(row.key)) entries.push(row);
      for (const [k, c] of changed)
        if (c.type !== 'A' && inRange(k)) entries.push({ key: k, rv: c.prevRv, uid: '', body: c.prevBody });
      entries.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      if (res.count !== undefined) {
        total = res.count;
        for (const c of res.changes) total += (c.type !== 'A' ? 1 : 0) - (c.now ? 1 : 0);
      }
      let full = false;
      for (const e of entries) {
        if (limit > 0 && items.length === limit) {
          full = true;
          break;
        }
        const item = read(e);
        if (item === undefined) continue;
        items.push(item);
        last = e.key;
      }
      if (full) {
        more = true;
        break;
      }
      if (exhausted) break;
      lower = upper!;
      lowerExclusive = true;
    }
    const resourceVersion = String(at);
    if (!more || last === undefined) return { items, resourceVersion };
    const result = { items, resourceVersion, continue: encodeListContinue(prefix, keyAfter(last), at) };
    if (predicate !== undefined || total === undefined) return result;
    return { ...result, remainingItemCount: total - items.length };
  }
}

/**
 * The indexed column and value to read a predicate's list by: its first `=` requirement (with a
 * value: an absent field reads as '') on an {@link indexedFields} label, in the order they are
 * listed there, whose value the column can hold ({@link indexable}).
 */
function indexedMatch(predicate: Predicate<never> | undefined): { column: string; value: string } | undefined {
  const fields = predicate?.fields;
  if (fields === undefined) return undefined;
  for (const f of indexedFields) {
    const r = fields.find((x) => x.field === f.label && x.op === '=' && x.value !== '' && indexable(x.value));
    if (r !== undefined) return { column: f.column, value: r.value };
  }
  return undefined;
}

/** A stored state, decoded on demand: a resourceVersion names one state for good (one counter in the database). */
class SqlRevision<T extends KubeObject> implements StoredRevision<T> {
  readonly resourceVersion: number;
  private readonly body: string;

  constructor(body: string, rv: number) {
    this.body = body;
    this.resourceVersion = rv;
  }

  decode(): T {
    return fromBody<T>(this.body, this.resourceVersion);
  }
}

function checkPreconditions(key: ObjectKey, cur: StoredRow, p: Preconditions | undefined): void {
  if (p === undefined) return;
  if (p.uid !== undefined && p.uid !== cur.uid) throw uidConflictError(key, p.uid, cur.uid);
  if (p.resourceVersion !== undefined && p.resourceVersion !== String(cur.rv))
    throw resourceVersionPreconditionError(key, p.resourceVersion, String(cur.rv));
}
