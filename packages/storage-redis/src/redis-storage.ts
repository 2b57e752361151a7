import type { KubeObject } from '@kevents/api';
import {
  alreadyExistsError,
  conflictError,
  encodeListContinue,
  expiredContinueError,
  expiredListError,
  isUnsetResourceVersion,
  keyAfter,
  listStart,
  notFoundError,
  openCursorWatch,
  remoteWatchStart,
  SharedDecodes,
  parseResourceVersion,
  readListRetrying,
  resourceVersionPreconditionError,
  StorageError,
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
  Storage,
  UpdateFunction,
  Watcher,
  WatchOptions,
  WriteOptions,
} from '@kevents/storage';
import { coalesceWrites } from './coalesce.js';
import { ChangeFeed } from './change-feed.js';
import { decodeEntry, fromBody, idToRv, parseValue, toBody, uidJson, type Change, type StoredValue } from './codec.js';
import { closeClient, connectionError, openClient, waitReady, type Client } from './connection.js';
import { Deadline, writeError } from './deadline.js';
import { Script } from './script.js';
import { parseRedisUrl, redisDefaults, type RedisStorageOptions, type RedisTarget } from './options.js';
import { boundsScript, compactScript, createBatchScript, listChunkScript, writeScript } from './scripts.js';
import { CreateBatches, type BatchedCreate } from './create-batch.js';
import { redisChangeSource } from './watcher.js';

const scripts = {
  write: new Script(writeScript),
  createBatch: new Script(createBatchScript),
  listChunk: new Script(listChunkScript),
  bounds: new Script(boundsScript),
  compact: new Script(compactScript),
};

/** The storage key of an object: `<namespace>/<name>`, or `<name>` when cluster-scoped. */
const storageKey = (namespace: string, name: string): string => (namespace === '' ? name : `${namespace}/${name}`);

/**
 * How many recent changes a process keeps parsed in memory for its watches. Older history stays
 * in the Stream (`historyLimit`), where a watch that falls further behind reads it; a small
 * window keeps the heap, and so garbage-collection pauses, small.
 */
const feedWindow = 512;

/** The Redis keys of one kevents instance; all share the hash tag `{prefix}`. */
export class RedisKeys {
  readonly rv: string;
  readonly stream: string;
  private readonly tag: string;
  /** Each resource's key names, made once: a name made again for every command is a new string to flatten. */
  private readonly byResource = new Map<string, { readonly objects: string; readonly index: string }>();

  constructor(prefix: string) {
    this.tag = `{${prefix}}`;
    this.rv = `${this.tag}:rv`;
    this.stream = `${this.tag}:changes`;
  }

  /** Hash of a resource's objects: field `<namespace>/<name>`, value `<rv>\n<uid JSON>\n<body>`. */
  objects(resource: string): string {
    return this.names(resource).objects;
  }

  /** Sorted set (all scores 0, so lexicographic) of a resource's keys, cluster-wide. */
  index(resource: string): string {
    return this.names(resource).index;
  }

  private names(resource: string): { readonly objects: string; readonly index: string } {
    let names = this.byResource.get(resource);
    if (names === undefined) {
      names = { objects: `${this.tag}:o:${resource}`, index: `${this.tag}:i:${resource}` };
      this.byResource.set(resource, names);
    }
    return names;
  }

  /**
   * The per-namespace sorted set that versions up to commit fd5f07d wrote beside {@link index} and
   * read for namespace lists. It is read no more (a namespace is a range of the one index) and
   * written only with `legacyNamespaceIndex` (docs/operations.md, "Upgrading").
   */
  legacyNamespaceIndex(resource: string, namespace: string): string {
    return `${this.tag}:i:${resource}:${namespace}`;
  }
}

type ChunkReply = [number, number, string, string[], (string | null)[], string[], number];

/**
 * The production store: objects, ordering indexes and a change Stream in Redis, shared by any
 * number of API server processes. Every write is one Lua script (see scripts.ts); the creates of
 * one turn of the event loop share one ({@link CreateBatches}). Lists read
 * the current objects and undo, from the Stream, the changes newer than the list's
 * resourceVersion, so pages stay consistent at one resourceVersion for as long as the Stream
 * keeps the history. Watches read one process-wide blocking Stream reader (ChangeFeed), which
 * reads only while the process has a watch open or a request waits for a resourceVersion.
 */
export class RedisStorage implements Storage {
  readonly description: string;
  readonly keys: RedisKeys;
  private readonly client: Client;
  private readonly feed: ChangeFeed;
  /** Creates waiting for the end of the turn, sent as one script per resource. */
  private readonly creates = new CreateBatches((resource, creates, turnEnded) =>
    this.sendCreates(resource, creates, turnEnded),
  );
  private readonly watchers = new Set<Watcher>();
  private readonly decodes = new SharedDecodes();
  private readonly historyLimit: number;
  private readonly historyMaxAgeMs: number;
  private readonly bookmarkIntervalMs: number;
  private readonly waitMs: number;
  private readonly legacyNamespaceIndex: boolean;
  private readonly commandTimeoutMs: number;
  private readonly compactTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** Prefer {@link createRedisStorage}, which waits for the first connection. */
  constructor(options: RedisStorageOptions) {
    const target: RedisTarget = parseRedisUrl(options.url);
    const num = (name: string, given: number | undefined, dflt: number): number => {
      const q = target.params.get(name);
      return given ?? (q !== null && /^\d+$/.test(q) ? Number(q) : dflt);
    };
    const prefix = options.prefix ?? target.params.get('prefix') ?? redisDefaults.prefix;
    if (!/^[A-Za-z0-9_.:-]+$/.test(prefix)) throw new Error(`invalid Redis key prefix ${JSON.stringify(prefix)}`);
    this.keys = new RedisKeys(prefix);
    this.historyLimit = Math.max(1, num('historyLimit', options.historyLimit, redisDefaults.historyLimit));
    this.historyMaxAgeMs = num('historyMaxAgeMs', options.historyMaxAgeMs, redisDefaults.historyMaxAgeMs);
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? redisDefaults.bookmarkIntervalMs;
    this.waitMs = options.tooLargeResourceVersionWaitMs ?? redisDefaults.tooLargeResourceVersionWaitMs;
    this.legacyNamespaceIndex = options.legacyNamespaceIndex ?? target.params.get('legacyNamespaceIndex') === 'true';
    this.description = `${target.description} (prefix ${prefix})`;
    this.commandTimeoutMs = Math.max(
      1,
      num('commandTimeoutMs', options.commandTimeoutMs, redisDefaults.commandTimeoutMs),
    );
    this.client = openClient(target, this.commandTimeoutMs, options.tls);
    this.client.on('error', () => undefined); // surfaced per request as Unavailable
    const report = options.onConnection;
    if (report !== undefined) {
      let lost: string | undefined;
      this.client.on('error', (err: Error) => {
        if (err.message !== lost && this.client.status !== 'ready')
          report({ state: 'lost', reason: (lost = err.message) });
      });
      this.client.on('ready', () => {
        if (lost !== undefined) report({ state: 'restored' });
        lost = undefined;
      });
    }
    const reader = openClient(target, undefined, options.tls);
    reader.on('error', () => undefined);
    const wakeMs = num('watchBatchIntervalMs', options.watchBatchIntervalMs, redisDefaults.watchBatchIntervalMs);
    this.feed = new ChangeFeed({
      client: reader,
      stream: this.keys.stream,
      limit: Math.min(this.historyLimit, feedWindow),
      readIntervalMs: wakeMs,
      currentRv: () => this.rv(this.deadline()),
      onError: () => this.endWatches(),
      watching: () => this.watchers.size > 0,
    });
    const interval = options.compactIntervalMs ?? redisDefaults.compactIntervalMs;
    if (this.historyMaxAgeMs > 0 && interval > 0) {
      this.compactTimer = setInterval(() => void this.compactByAge().catch(() => undefined), interval);
      this.compactTimer.unref();
    }
  }

  /**
   * Resolves once connected, the scripts loaded and the change feed running, or after `ms` (it
   * keeps trying).
   */
  async started(ms: number = redisDefaults.connectWaitMs): Promise<void> {
    await waitReady(this.client, ms);
    if (this.client.status === 'ready') await Promise.all(Object.values(scripts).map((s) => s.load(this.client)));
    this.feed.start();
    const deadline = Date.now() + ms;
    while (!this.feed.healthy && Date.now() < deadline && !this.closed) await sleep(10);
  }

  async get<T extends KubeObject>(key: ObjectKey, options: { resourceVersion?: string } = {}): Promise<T> {
    this.checkOpen();
    const deadline = this.deadline();
    if (!isUnsetResourceVersion(options.resourceVersion))
      await this.waitFor(parseResourceVersion(options.resourceVersion!), deadline);
    const v = await this.read(key, deadline);
    if (v === undefined) throw notFoundError(key);
    return fromBody<T>(v.body, v.rv);
  }

  async list<T extends KubeObject>(prefix: KeyPrefix, options: ListOptions<T> = {}): Promise<ListResult<T>> {
    return this.listPage(prefix, options, fromBody, this.deadline());
  }

  /** A page of initial events: as {@link list}, with objects decoded once for all watches ({@link SharedDecodes}). */
  private listInitial<T extends KubeObject>(
    prefix: KeyPrefix,
    options: ListOptions<T>,
    deadline: Deadline,
  ): Promise<ListResult<T>> {
    return this.listPage(
      prefix,
      options,
      (body: string, rv: number) => this.decodes.get<T>(body, rv, fromBody),
      deadline,
    );
  }

  private async listPage<T extends KubeObject>(
    prefix: KeyPrefix,
    options: ListOptions<T>,
    decode: (body: string, rv: number) => T,
    deadline: Deadline,
  ): Promise<ListResult<T>> {
    this.checkOpen();
    const { limit, start, at, kind, waitFor } = listStart(options, prefix);
    if (waitFor !== undefined) await this.waitFor(waitFor, deadline);
    return readListRetrying(kind, () =>
      this.readList(prefix, at, kind, start, limit, options.predicate, decode, deadline),
    );
  }

  async create<T extends KubeObject>(key: ObjectKey, obj: T): Promise<T> {
    this.checkOpen();
    const body = toBody(obj);
    if (this.legacyNamespaceIndex && key.namespace !== '') {
      const r = await this.write(this.deadline(), 'c', key, body, obj.metadata?.uid, undefined, '');
      return withResourceVersion(obj, r.rv);
    }
    let rv: number;
    try {
      rv = await this.creates.add(key.resource, {
        key: storageKey(key.namespace, key.name),
        body,
        uidJson: uidJson(obj.metadata?.uid),
        namespace: key.namespace,
      });
    } catch (err) {
      // Sent and not answered: the batch may have run (the caller gets 503 all the same).
      throw writeError(err);
    }
    if (rv === 0) throw alreadyExistsError(key);
    return withResourceVersion(obj, rv);
  }

  /**
   * One batch of creates of a resource ({@link CreateBatches}), within one commandTimeoutMs; sent
   * at once when the turn has ended, else with the turn's other commands.
   */
  private sendCreates(
    resource: string,
    creates: readonly BatchedCreate[],
    turnEnded: boolean,
  ): Promise<readonly unknown[]> {
    const keys = [this.keys.rv, this.keys.objects(resource), this.keys.index(resource), this.keys.stream];
    const args: string[] = [String(this.historyLimit), resource];
    for (const c of creates) args.push(c.key, c.body, c.uidJson, c.namespace);
    const sent = scripts.createBatch.run(this.client, keys, args, this.deadline(), !turnEnded) as Promise<
      readonly unknown[]
    >;
    return sent.then((reply) => {
      if (this.feed.following) this.feed.own(createdChanges(resource, creates, reply));
      return reply;
    });
  }

  async update<T extends KubeObject>(key: ObjectKey, obj: T, options: WriteOptions = {}): Promise<T> {
    this.checkOpen();
    const body = toBody(obj);
    const r = await this.write(
      this.deadline(),
      'u',
      key,
      body,
      obj.metadata?.uid,
      options.preconditions,
      obj.metadata?.resourceVersion ?? '',
    );
    return withResourceVersion(obj, r.rv);
  }

  async guaranteedUpdate<T extends KubeObject>(
    key: ObjectKey,
    tryUpdate: UpdateFunction<T>,
    options: GuaranteedUpdateOptions = {},
  ): Promise<T> {
    this.checkOpen();
    // One deadline for every read and write of the request, conflicts included.
    const deadline = this.deadline();
    for (;;) {
      const cur = await this.read(key, deadline);
      if (cur === undefined && options.ignoreNotFound !== true) throw notFoundError(key);
      if (cur !== undefined) checkPreconditions(key, cur, options.preconditions);
      const next = await tryUpdate(cur === undefined ? undefined : fromBody<T>(cur.body, cur.rv));
      this.checkOpen();
      const body = toBody(next);
      const r = await this.write(
        deadline,
        'g',
        key,
        body,
        next.metadata?.uid,
        options.preconditions,
        cur === undefined ? '0' : String(cur.rv),
        true,
      );
      if (r.status === 'conflict') continue;
      return withResourceVersion(next, r.rv);
    }
  }

  async delete<T extends KubeObject>(key: ObjectKey, options: WriteOptions = {}): Promise<T> {
    this.checkOpen();
    const r = await this.write(this.deadline(), 'd', key, '', undefined, options.preconditions, '');
    return fromBody<T>(r.prevBody!, r.rv);
  }

  async watch<T extends KubeObject>(prefix: KeyPrefix, options: WatchOptions<T> = {}): Promise<Watcher<T>> {
    this.checkOpen();
    if (!this.feed.healthy) throw this.feedDown();
    // The start (and the first page of initial events) shares one deadline; each later page of
    // initial events, read as the watch is consumed, has its own.
    let startDeadline: Deadline | undefined = this.deadline();
    const { from, initial } = await remoteWatchStart<T>(options, {
      waitFor: (rv) => this.waitFor(rv, startDeadline ?? this.deadline()),
      bounds: () => this.bounds(startDeadline ?? this.deadline()),
      listInitial: (o) => this.listInitial<T>(prefix, o, startDeadline ?? this.deadline()),
    });
    startDeadline = undefined;
    const source = redisChangeSource(this.feed, (after, count) => this.history(after, count));
    const watcher = openCursorWatch<T>(
      source,
      this.watchers,
      { prefix, from, initial, bookmarkIntervalMs: this.bookmarkIntervalMs },
      options,
    );
    this.feed.wake();
    return watcher;
  }

  async currentResourceVersion(): Promise<string> {
    this.checkOpen();
    return String(await this.rv(this.deadline()));
  }

  async compact(resourceVersion: string): Promise<void> {
    this.checkOpen();
    const rv = parseResourceVersion(resourceVersion);
    await scripts.compact.run(this.client, [this.keys.rv, this.keys.stream], ['rv', rv, 0], this.deadline());
    this.feed.compactTo(rv);
  }

  /** Drops changes older than `historyMaxAgeMs` (runs on a timer; bounded work per call). */
  async compactByAge(): Promise<number> {
    if (this.closed || this.historyMaxAgeMs <= 0) return 0;
    return Number(
      await scripts.compact.run(
        this.client,
        [this.keys.rv, this.keys.stream],
        ['age', this.historyMaxAgeMs, 10_000],
        this.deadline(),
      ),
    );
  }

  async ready(): Promise<void> {
    this.checkOpen();
    const deadline = this.deadline();
    await deadline.run(this.client, () => this.client.ping());
    if (!this.feed.healthy) throw this.feedDown();
    // An idle feed's connection is free (no blocking read holds it): it must answer as well.
    if (this.feed.idle) await deadline.run(this.feed.client, () => this.feed.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.compactTimer);
    for (const w of [...this.watchers]) w.stop();
    await this.feed.close();
    closeClient(this.client);
  }

  private checkOpen(): void {
    if (this.closed) throw unavailableError('storage is closed');
  }

  private feedDown(): StorageError {
    const why = connectionError(this.feed.client);
    return unavailableError(
      `redis unavailable: the change feed is not connected${why === undefined ? '' : `: ${why}`}`,
    );
  }

  /** The feed lost its connection: watches end with Unavailable (they see the new epoch). */
  private endWatches(): void {
    // A watch's change source checks the feed's epoch whenever it wakes; the feed wakes every waiter.
  }

  /** A request's time to wait for Redis ({@link Deadline}): `commandTimeoutMs`. */
  private deadline(): Deadline {
    return new Deadline(this.commandTimeoutMs);
  }

  private async rv(deadline: Deadline): Promise<number> {
    const v = await deadline.run(this.client, () => {
      coalesceWrites(this.client);
      return this.client.get(this.keys.rv);
    });
    return Number(v ?? '1');
  }

  private async read(key: ObjectKey, deadline: Deadline): Promise<StoredValue | undefined> {
    const v = await deadline.run(this.client, () => {
      coalesceWrites(this.client);
      return this.client.hget(this.keys.objects(key.resource), storageKey(key.namespace, key.name));
    });
    return v === null ? undefined : parseValue(v);
  }

  /** The newest resourceVersion and the compacted one (every change at or below it is gone). */
  private async bounds(deadline: Deadline): Promise<{ rv: number; compacted: number }> {
    const [rv, first] = (await scripts.bounds.run(this.client, [this.keys.rv, this.keys.stream], [], deadline)) as [
      string,
      string,
    ];
    const current = Number(rv);
    return { rv: current, compacted: first === '' ? current : idToRv(first) - 1 };
  }

  /** Changes after `after`, read straight from the Stream, for a watch behind the feed. */
  private async history(after: number, count: number): Promise<{ changes: Change[]; compacted: number }> {
    const deadline = this.deadline();
    const entries = (await deadline.run(this.client, () =>
      this.client.xrangeBuffer(this.keys.stream, `${after + 1}-0`, '+', 'COUNT', count),
    )) as [Buffer, Buffer[]][];
    const changes = entries.map(([id, fields]) => decodeEntry(id, fields));
    if (changes.length > 0 && changes[0].rv === after + 1) return { changes, compacted: after };
    return { changes, compacted: (await this.bounds(deadline)).compacted };
  }

  /**
   * Resolves once Redis has reached `rv`; else TooLargeResourceVersion after the wait. The reads
   * of the counter count against the request's `deadline`; the waits between them do not.
   */
  private waitFor(rv: number, deadline: Deadline): Promise<void> {
    return waitForResourceVersion(rv, {
      current: () => this.rv(deadline),
      feed: this.feed,
      waitMs: this.waitMs,
      isClosed: () => this.closed,
      checkOpen: () => this.checkOpen(),
    });
  }

  private async write(
    deadline: Deadline,
    op: 'c' | 'u' | 'd' | 'g',
    key: ObjectKey,
    body: string,
    uid: string | undefined,
    pre: Preconditions | undefined,
    expect: string,
    allowConflict = false,
  ): Promise<{ status: string; rv: number; prevBody: string | undefined }> {
    const ns = key.namespace;
    const legacy = this.legacyNamespaceIndex && ns !== '';
    const keys = [this.keys.rv, this.keys.objects(key.resource), this.keys.index(key.resource), this.keys.stream];
    if (legacy) keys.push(this.keys.legacyNamespaceIndex(key.resource, ns));
    const args = [
      op,
      storageKey(ns, key.name),
      body,
      uidJson(uid),
      pre?.uid === undefined ? '' : uidJson(pre.uid),
      pre?.resourceVersion ?? '',
      expect,
      this.historyLimit,
      key.resource,
      ns,
      legacy ? '1' : '0',
    ];
    let reply: [string, (number | string)?, string?];
    try {
      reply = (await scripts.write.run(this.client, keys, args, deadline)) as typeof reply;
    } catch (err) {
      // Sent and not answered: the script may have run (the caller gets 503 all the same).
      throw writeError(err);
    }
    const [status, a, b] = reply;
    switch (status) {
      case 'ok':
      case 'noop':
        return { status, rv: Number(a), prevBody: b };
      case 'exists':
        throw alreadyExistsError(key);
      case 'notfound':
        throw notFoundError(key);
      case 'uid':
        throw uidConflictError(key, pre!.uid!, JSON.parse(String(a)) as string);
      case 'pre':
        throw resourceVersionPreconditionError(key, pre!.resourceVersion!, String(a));
      case 'conflict':
        if (allowConflict) return { status, rv: 0, prevBody: undefined };
        throw conflictError(key);
      default:
        throw new StorageError('Internal', `redis: unexpected write reply ${JSON.stringify(reply)}`);
    }
  }

  /**
   * Reads one page at `at` (-1: the newest state) in chunks. Each chunk is one script: the
   * index from the cursor, the objects' current values, and the first change after `at` of every
   * key of the prefix, all at one moment R; a key changed after `at` takes the state that change
   * replaced, so the page is exactly the state at `at` whatever happened since.
   */
  private async readList<T extends KubeObject>(
    prefix: KeyPrefix,
    at: number,
    kind: ListKind,
    start: string | undefined,
    limit: number,
    predicate: Predicate<T> | undefined,
    decode: (body: string, rv: number) => T,
    deadline: Deadline,
  ): Promise<ListResult<T>> {
    const ns = prefix.namespace ?? '';
    const keys = [this.keys.rv, this.keys.objects(prefix.resource), this.keys.index(prefix.resource), this.keys.stream];
    // A namespace's keys are `<ns>/<name>`: the range [`<ns>/`, `<ns>0`) of the index, as '0'
    // follows '/'. A continue key is read relative to the namespace (`<ns>/` in front), so it
    // falls in the range; the clamp (in Redis's byte order) keeps any start inside it.
    const range = namespaceRange(ns);
    const from =
      range !== undefined && (start === undefined || Buffer.compare(Buffer.from(start), Buffer.from(range.first)) < 0)
        ? range.first
        : start;
    const end = range === undefined ? '+' : `(${range.after}`;
    const chunk = limit > 0 ? Math.min(Math.max(limit + 1, predicate === undefined ? 1 : 500), 5_000) : 2_000;
    const wantCount = limit > 0 && predicate === undefined;
    const items: T[] = [];
    let last: string | undefined;
    let more = false;
    let total: number | undefined;
    let lower = from ?? '';
    let lowerInclusive = true;
    let cursor = from === undefined ? '-' : `[${from}`;
    for (let first = true; ; first = false) {
      const [R, atR, status, members, values, changes, count] = (await scripts.listChunk.run(
        this.client,
        keys,
        [at, cursor, end, chunk, prefix.resource, ns, first && wantCount ? '1' : '0'],
        deadline,
      )) as ChunkReply;
      if (status === 'expired') {
        if (kind === 'continue') throw expiredContinueError(encodeListContinue(prefix, start!, -1));
        if (kind === 'exact') throw expiredListError();
        throw new StorageError('Expired', 'list history compacted while reading');
      }
      if (status === 'toolarge') throw tooLargeResourceVersionError(at, R);
      at = Number(atR);
      const exhausted = members.length < chunk;
      const upper = exhausted ? undefined : members[members.length - 1];
      const inRange = (k: string): boolean =>
        (lowerInclusive ? k >= lower : k > lower) && (upper === undefined || k <= upper);
      const changed = new Map<string, { type: string; prev: string; now: boolean }>();
      for (let i = 0; i + 3 < changes.length; i += 4)
        changed.set(changes[i], { type: changes[i + 1], prev: changes[i + 2], now: changes[i + 3] === '1' });
      const entries: { key: string; value: string }[] = [];
      for (let i = 0; i < members.length; i++)
        if (!changed.has(members[i]) && values[i] !== null) entries.push({ key: members[i], value: values[i]! });
      for (const [k, c] of changed) if (c.type !== 'A' && inRange(k)) entries.push({ key: k, value: c.prev });
      entries.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      if (first && wantCount) {
        total = Number(count);
        for (const [k, c] of changed) if (k >= lower) total += (c.type !== 'A' ? 1 : 0) - (c.now ? 1 : 0);
      }
      let full = false;
      for (const e of entries) {
        if (limit > 0 && items.length === limit) {
          full = true;
          break;
        }
        const v = parseValue(e.value);
        const obj = decode(v.body, v.rv);
        if (predicate !== undefined && !predicate(obj)) continue;
        items.push(obj);
        last = e.key;
      }
      if (full) {
        more = true;
        break;
      }
      if (exhausted) break;
      lower = upper!;
      lowerInclusive = false;
      cursor = `(${upper!}`;
    }
    const resourceVersion = String(at);
    if (!more || last === undefined) return { items, resourceVersion };
    const result: ListResult<T> = { items, resourceVersion, continue: encodeListContinue(prefix, keyAfter(last), at) };
    if (predicate !== undefined || total === undefined) return result;
    return { ...result, remainingItemCount: total - items.length };
  }
}

/** The first key of a namespace and the first one after all its keys (none for a cluster-wide list). */
function namespaceRange(ns: string): { first: string; after: string } | undefined {
  return ns === '' ? undefined : { first: `${ns}/`, after: `${ns}0` };
}

function checkPreconditions(key: ObjectKey, cur: StoredValue, p: Preconditions | undefined): void {
  if (p === undefined) return;
  const uid = JSON.parse(cur.uidJson) as string;
  if (p.uid !== undefined && p.uid !== uid) throw uidConflictError(key, p.uid, uid);
  if (p.resourceVersion !== undefined && p.resourceVersion !== String(cur.rv)) {
    throw resourceVersionPreconditionError(key, p.resourceVersion, String(cur.rv));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a Redis store and waits (up to `connectWaitMs`) for its first connection. */
export async function createRedisStorage(options: RedisStorageOptions): Promise<RedisStorage> {
  const s = new RedisStorage(options);
  await s.started(options.connectWaitMs ?? redisDefaults.connectWaitMs);
  return s;
}

/** The changes a create batch made, in order, as the Stream holds them ({@link ChangeFeed.own}); none for a reply of another shape. */
function createdChanges(resource: string, creates: readonly BatchedCreate[], reply: readonly unknown[]): Change[] {
  const out: Change[] = [];
  if (!Array.isArray(reply) || reply.length !== creates.length) return out;
  for (let i = 0; i < creates.length; i++) {
    const rv = Number(reply[i]);
    if (!(rv > 0)) continue;
    const c = creates[i]!;
    out.push({ rv, type: 'ADDED', resource, namespace: c.namespace, key: c.key, body: c.body, prev: undefined });
  }
  return out;
}
