import { parseJson, type KubeObject, type StoredTextPlan } from '@kevents/api';
import { decodeListContinue, encodeListContinue, keyAfter } from '../continue.js';
import {
  alreadyExistsError,
  conflictError,
  expiredContinueError,
  expiredListError,
  notFoundError,
  resourceVersionPreconditionError,
  tooLargeResourceVersionError,
  tooOldResourceVersionError,
  uidConflictError,
  unavailableError,
} from '../errors.js';
import type {
  GuaranteedUpdateOptions,
  KeyPrefix,
  ListOptions,
  ListResult,
  ObjectKey,
  Preconditions,
  RevisionPage,
  RevisionReads,
  Storage,
  StoredRevision,
  UpdateFunction,
  Watcher,
  WatchOptions,
  WriteOptions,
} from '../interface.js';
import { isUnsetResourceVersion, parseResourceVersion } from '../resource-version.js';
import { fromBody, withResourceVersion } from '../body.js';
import { ChangeLog } from './change-log.js';
import { unpackBody } from './packed-body.js';
import { plannedText } from './planned-text.js';
import { decodeMetadataSharing, decodeSharing } from './sharing-decode.js';
import { packObject } from './packed-object.js';
import { SharedDecodes } from '../shared-decodes.js';
import { memoryDefaults, type MemoryStorageOptions } from './options.js';
import {
  forgetBefore,
  isDeleted,
  type KeyEntry,
  live,
  liveAt,
  type LiveVersion,
  ResourceTable,
  storageKey,
} from './resource-table.js';
import { memoryChangeSource } from './change-source.js';
import { openCursorWatch, type ChangeSource } from '../cursor-watcher.js';

/**
 * The in-process store: multi-version (every retained revision of every key), so lists at an
 * older resourceVersion (continue tokens, `resourceVersionMatch=Exact`) read exactly that state
 * while writes go on; one change log feeds every watch. History is compacted by count
 * (`historyLimit`), by age (`historyMaxAgeMs`) and on {@link compact}. A write costs O(1) plus
 * serialising the object; ordering for lists is paid lazily by the next list.
 */
export class MemoryStorage implements Storage, RevisionReads {
  readonly description = 'memory';
  private readonly log: ChangeLog;
  private readonly source: ChangeSource;
  private readonly tables = new Map<string, ResourceTable>();
  private readonly watchers = new Set<Watcher>();
  private readonly decodes = new SharedDecodes();
  private readonly historyLimit: number;
  private readonly historyMaxAgeMs: number | undefined;
  private readonly bookmarkIntervalMs: number;
  private readonly waitMs: number;
  private readonly clock: () => number;
  private closed = false;
  /** The resourceVersions of lists in progress that yielded to the event loop (with counts). */
  private readonly pins = new Map<number, number>();

  constructor(options: MemoryStorageOptions = {}) {
    this.log = new ChangeLog(
      options.watchBatchIntervalMs ?? memoryDefaults.watchBatchIntervalMs,
      options.historyMaxAgeMs !== undefined,
    );
    this.source = memoryChangeSource(this.log);
    this.historyLimit = Math.max(1, options.historyLimit ?? memoryDefaults.historyLimit);
    this.historyMaxAgeMs = options.historyMaxAgeMs;
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? memoryDefaults.bookmarkIntervalMs;
    this.waitMs = options.tooLargeResourceVersionWaitMs ?? memoryDefaults.tooLargeResourceVersionWaitMs;
    this.clock = options.clock ?? Date.now;
  }

  async get<T extends KubeObject>(key: ObjectKey, options: { resourceVersion?: string } = {}): Promise<T> {
    this.checkOpen();
    if (!isUnsetResourceVersion(options.resourceVersion))
      await this.waitFor(parseResourceVersion(options.resourceVersion));
    const v = live(this.tables.get(key.resource)?.get(storageKey(key.namespace, key.name)));
    if (v === undefined) throw notFoundError(key);
    return fromBody<T>(unpackBody(v.body), v.rv);
  }

  async getRevision<T extends KubeObject>(
    key: ObjectKey,
    options: { resourceVersion?: string } = {},
  ): Promise<StoredRevision<T>> {
    this.checkOpen();
    if (!isUnsetResourceVersion(options.resourceVersion))
      await this.waitFor(parseResourceVersion(options.resourceVersion));
    const v = live(this.tables.get(key.resource)?.get(storageKey(key.namespace, key.name)));
    if (v === undefined) throw notFoundError(key);
    return new PackedRevision<T>(v.body, v.rv);
  }

  async list<T extends KubeObject>(prefix: KeyPrefix, options: ListOptions<T> = {}): Promise<ListResult<T>> {
    const predicate = options.predicate;
    const read = (v: LiveVersion): T | undefined => {
      const obj = fromBody<T>(unpackBody(v.body), v.rv);
      return predicate === undefined || predicate(obj) ? obj : undefined;
    };
    return this.listWith(prefix, options, read, predicate !== undefined);
  }

  async listRevisions<T extends KubeObject>(
    prefix: KeyPrefix,
    options: Omit<ListOptions<T>, 'predicate'> = {},
  ): Promise<RevisionPage<T>> {
    return this.listWith(prefix, options, (v) => new PackedRevision<T>(v.body, v.rv), false);
  }

  private async listWith<I>(
    prefix: KeyPrefix,
    options: Omit<ListOptions, 'predicate'>,
    read: (v: LiveVersion) => I | undefined,
    filtered: boolean,
  ): Promise<Omit<ListResult, 'items'> & { items: I[] }> {
    this.checkOpen();
    this.trimByAge();
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : 0;
    let start: string | undefined;
    let at: number;
    if (options.continue !== undefined && options.continue !== '') {
      const token = decodeListContinue(prefix, options.continue);
      start = token.start;
      if (token.resourceVersion < 0) {
        at = this.log.rv;
      } else {
        await this.waitFor(token.resourceVersion);
        if (token.resourceVersion < this.log.compacted)
          throw expiredContinueError(encodeListContinue(prefix, start, -1));
        at = token.resourceVersion;
      }
    } else if (isUnsetResourceVersion(options.resourceVersion)) {
      at = this.log.rv;
    } else {
      const rv = parseResourceVersion(options.resourceVersion);
      const match = options.resourceVersionMatch ?? '';
      await this.waitFor(rv);
      const exact = match === 'Exact' || (match === '' && limit > 0);
      if (exact && rv < this.log.compacted) throw expiredListError();
      at = exact ? rv : this.log.rv;
    }
    return this.readPage(prefix, at, start, limit, read, filtered);
  }

  async create<T extends KubeObject>(key: ObjectKey, obj: T): Promise<T> {
    this.checkOpen();
    const table = this.table(key.resource);
    const k = storageKey(key.namespace, key.name);
    const slot = table.locate(k);
    const found = table.at(slot, k);
    if (live(found) !== undefined) throw alreadyExistsError(key);
    const body = packObject(obj);
    const entry = found ?? table.add(slot, key.resource, key.namespace, k);
    return this.commit<T>(entry, body, undefined, obj);
  }

  async update<T extends KubeObject>(key: ObjectKey, obj: T, options: WriteOptions = {}): Promise<T> {
    this.checkOpen();
    const entry = this.tables.get(key.resource)?.get(storageKey(key.namespace, key.name));
    const cur = live(entry);
    if (entry === undefined || cur === undefined) throw notFoundError(key);
    checkPreconditions(key, cur, options.preconditions);
    const rv = obj.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== String(cur.rv)) throw conflictError(key);
    return this.replace<T>(entry, cur, packObject(obj), obj);
  }

  async guaranteedUpdate<T extends KubeObject>(
    key: ObjectKey,
    tryUpdate: UpdateFunction<T>,
    options: GuaranteedUpdateOptions = {},
  ): Promise<T> {
    this.checkOpen();
    const table = this.table(key.resource);
    const k = storageKey(key.namespace, key.name);
    for (;;) {
      const cur = live(table.get(k));
      const curRv = cur?.rv;
      if (cur === undefined && options.ignoreNotFound !== true) throw notFoundError(key);
      if (cur !== undefined) checkPreconditions(key, cur, options.preconditions);
      const next = await tryUpdate(cur === undefined ? undefined : fromBody<T>(unpackBody(cur.body), cur.rv));
      this.checkOpen();
      if (live(table.get(k))?.rv !== curRv) continue;
      const body = packObject(next);
      if (cur === undefined) return this.commit<T>(table.entry(key.resource, key.namespace, k), body, undefined, next);
      return this.replace<T>(table.entry(key.resource, key.namespace, k), cur, body, next);
    }
  }

  async delete<T extends KubeObject>(key: ObjectKey, options: WriteOptions = {}): Promise<T> {
    this.checkOpen();
    const entry = this.tables.get(key.resource)?.get(storageKey(key.namespace, key.name));
    const cur = live(entry);
    if (entry === undefined || cur === undefined) throw notFoundError(key);
    checkPreconditions(key, cur, options.preconditions);
    return this.commit<T>(entry, undefined, cur.body);
  }

  async watch<T extends KubeObject>(prefix: KeyPrefix, options: WatchOptions<T> = {}): Promise<Watcher<T>> {
    this.checkOpen();
    let from = this.log.rv;
    if (!isUnsetResourceVersion(options.resourceVersion)) {
      const rv = parseResourceVersion(options.resourceVersion);
      await this.waitFor(rv);
      this.trimByAge();
      if (options.sendInitialEvents === true) from = this.log.rv;
      else if (rv < this.log.compacted) throw tooOldResourceVersionError(String(rv), String(this.log.compacted));
      else from = rv;
    }
    const initial = options.sendInitialEvents === true ? this.initialEvents<T>(this.snapshot(prefix, from)) : [];
    return openCursorWatch<T>(
      this.source,
      this.watchers,
      { prefix, from, initial, bookmarkIntervalMs: this.bookmarkIntervalMs },
      options,
    );
  }

  async currentResourceVersion(): Promise<string> {
    this.checkOpen();
    return String(this.log.rv);
  }

  async compact(resourceVersion: string): Promise<void> {
    this.checkOpen();
    const rv = parseResourceVersion(resourceVersion);
    while ((this.log.oldestRv() ?? Infinity) <= rv && this.mayDropOldest()) this.dropOldest();
    this.log.compactTo(rv);
  }

  async ready(): Promise<void> {
    this.checkOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of [...this.watchers]) w.stop();
    this.log.wakeAll();
  }

  private checkOpen(): void {
    if (this.closed) throw unavailableError('storage is closed');
  }

  private table(resource: string): ResourceTable {
    let t = this.tables.get(resource);
    if (t === undefined) this.tables.set(resource, (t = new ResourceTable()));
    return t;
  }

  /** Stores `body` unless it equals the current one (a no-op update keeps its resourceVersion). */
  private replace<T extends KubeObject>(entry: KeyEntry, cur: LiveVersion, body: string, obj: T): T {
    if (body === cur.body) return fromBody<T>(unpackBody(body), cur.rv);
    return this.commit<T>(entry, body, cur.body, obj);
  }

  /**
   * Takes the next resourceVersion for one write, logs it, wakes watchers and trims history. Its
   * type follows from the key's revisions: a body after none or a tombstone is ADDED, after a
   * body MODIFIED, and no body (a tombstone) DELETED.
   */
  private commit<T extends KubeObject>(
    entry: KeyEntry,
    body: string | undefined,
    prev: string | undefined,
    written?: T,
  ): T {
    const rv = this.log.rv + 1;
    const state = body ?? prev ?? '{}';
    this.table(entry.scope.resource).push(entry, { rv, body });
    // The log reads the change back from the entry's revisions (see ChangeLog.at).
    this.log.append(entry, this.historyMaxAgeMs === undefined ? 0 : this.clock());
    while (this.log.size > this.historyLimit && this.mayDropOldest()) this.dropOldest();
    this.trimByAge();
    this.log.notify();
    return written === undefined ? fromBody<T>(unpackBody(state), rv) : withResourceVersion(written, rv);
  }

  private trimByAge(): void {
    if (this.historyMaxAgeMs === undefined) return;
    const cutoff = this.clock() - this.historyMaxAgeMs;
    while ((this.log.oldestTime() ?? Infinity) < cutoff && this.mayDropOldest()) this.dropOldest();
  }

  /**
   * Whether compacting the oldest change keeps every pinned read exact: a list that yields to
   * the event loop pins its resourceVersion A, and a change at or below A only drops revisions
   * that a read at A does not see.
   */
  private mayDropOldest(): boolean {
    if (this.pins.size === 0) return true;
    const oldest = this.log.oldestRv();
    if (oldest === undefined) return false;
    for (const at of this.pins.keys()) if (oldest > at) return false;
    return true;
  }

  private pin(at: number): void {
    this.pins.set(at, (this.pins.get(at) ?? 0) + 1);
  }

  private unpin(at: number): void {
    const n = this.pins.get(at) ?? 0;
    if (n <= 1) this.pins.delete(at);
    else this.pins.set(at, n - 1);
  }

  /** Compacts the oldest change: its key keeps only the revisions a read at or after it can see. */
  private dropOldest(): void {
    const e = this.log.shift();
    if (e === undefined) return;
    if (forgetBefore(e, this.log.compacted)) this.table(e.scope.resource).drop(e);
  }

  /** Resolves once the store has reached `rv`; else TooLargeResourceVersion after the wait. */
  private async waitFor(rv: number): Promise<void> {
    if (rv <= this.log.rv) return;
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (this.log.rv >= rv || this.closed) done();
        else this.log.onNext(check);
      };
      const timer = setTimeout(() => done(), this.waitMs);
      const done = (): void => {
        clearTimeout(timer);
        this.log.cancel(check);
        resolve();
      };
      this.log.onNext(check);
    });
    this.checkOpen();
    if (rv > this.log.rv) throw tooLargeResourceVersionError(rv, this.log.rv);
  }

  /** The keys under a prefix: `[begin, end)` (`end` undefined: to the end of the table). */
  private bounds(prefix: KeyPrefix): { begin: string; end: string | undefined } {
    if (prefix.namespace === undefined || prefix.namespace === '') return { begin: '', end: undefined };
    return { begin: `${prefix.namespace}/`, end: `${prefix.namespace}0` };
  }

  /**
   * One page at `at`: reads the index from the page's first key, so it costs what it returns
   * (plus what the predicate skips). A long list reads {@link listSliceItems} keys per turn of
   * the event loop, each slice resuming from the next key, with `at` pinned meanwhile so that
   * compaction keeps what it reads.
   */
  private async readPage<I>(
    prefix: KeyPrefix,
    at: number,
    start: string | undefined,
    limit: number,
    read: (v: LiveVersion) => I | undefined,
    filtered: boolean,
  ): Promise<Omit<ListResult, 'items'> & { items: I[] }> {
    const resourceVersion = String(at);
    const table = this.tables.get(prefix.resource);
    if (table === undefined) return { items: [], resourceVersion };
    const { begin, end } = this.bounds(prefix);
    const items: I[] = [];
    let from = start === undefined || start < begin ? begin : start;
    let last: string | undefined;
    let next: string | undefined;
    let pinned = false;
    try {
      for (;;) {
        let count = 0;
        let resume: string | undefined;
        for (const e of table.index.range(from, end)) {
          if (count === listSliceItems) {
            resume = e.key;
            break;
          }
          const v = liveAt(e, at);
          if (v === undefined) continue;
          if (limit > 0 && items.length === limit) {
            next = e.key;
            break;
          }
          count++;
          const item = read(v);
          if (item === undefined) continue;
          items.push(item);
          last = e.key;
        }
        if (resume === undefined) break;
        if (!pinned) this.pin(at);
        pinned = true;
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.checkOpen();
        from = resume;
      }
    } finally {
      if (pinned) this.unpin(at);
    }
    if (next === undefined || last === undefined) return { items, resourceVersion };
    const result = { items, resourceVersion, continue: encodeListContinue(prefix, keyAfter(last), at) };
    if (filtered) return result;
    return { ...result, remainingItemCount: this.countLive(table, next, end, at) };
  }

  /**
   * How many keys of the table in `[first, end)` are live at `at`: the keys there, minus those
   * whose newest revision is a tombstone (both counted by rank in their index), corrected for
   * the keys changed after `at` (their state at `at` is read from their revisions). A key not
   * changed after `at` is live at `at` exactly when it is live now, so the cost is two binary
   * searches plus the writes since `at`, not the size of the range.
   */
  private countLive(table: ResourceTable, first: string, end: string | undefined, at: number): number {
    const inRange = (index: ResourceTable['index']): number =>
      (end === undefined ? index.size : index.rank(end)) - index.rank(first);
    let notLive = inRange(table.deleted);
    const seen = new Set<KeyEntry>();
    for (let rv = at + 1; rv <= this.log.rv; rv++) {
      const e = this.log.entryAt(rv)!;
      if (table.get(e.key) !== e || e.key < first || (end !== undefined && e.key >= end) || seen.has(e)) continue;
      seen.add(e);
      if (isDeleted(e)) notLive--;
      if (liveAt(e, at) === undefined) notLive++;
    }
    return inRange(table.index) - notLive;
  }

  /** The objects of a {@link snapshot}, decoded one at a time as a watch sends them (shared with other watches). */
  private *initialEvents<T extends KubeObject>({ bodies, rvs }: { bodies: string[]; rvs: number[] }): Generator<T> {
    for (let i = 0; i < bodies.length; i++) yield this.decodes.get<T>(bodies[i]!, rvs[i]!, decodePacked);
  }

  /**
   * The objects under a prefix at resourceVersion `at`, for synthetic ADDED events: their stored
   * bodies (shared with the store, not copied) and resourceVersions, in two arrays rather than an
   * object per item, so that many watches opened at once do not each leave thousands of small
   * objects for the collector to promote.
   */
  private snapshot(prefix: KeyPrefix, at: number): { bodies: string[]; rvs: number[] } {
    const bodies: string[] = [];
    const rvs: number[] = [];
    const table = this.tables.get(prefix.resource);
    if (table === undefined) return { bodies, rvs };
    const { begin, end } = this.bounds(prefix);
    for (const e of table.index.range(begin, end)) {
      const v = liveAt(e, at);
      if (v === undefined) continue;
      bodies.push(v.body);
      rvs.push(v.rv);
    }
    return { bodies, rvs };
  }
}

/** A packed stored body as its object. */
const decodePacked = <T extends KubeObject>(body: string, rv: number): T => fromBody<T>(unpackBody(body), rv);

/** How many keys a list reads per turn of the event loop. */
const listSliceItems = 1024;

/**
 * The object a write returns: the caller's object with the new resourceVersion, as a copy of its
 * top level and metadata (the store keeps only its serialized body, so nothing the caller does
 * with either object reaches stored state).
 */
function checkPreconditions(key: ObjectKey, cur: LiveVersion, p: Preconditions | undefined): void {
  if (p === undefined) return;
  if (p.uid !== undefined) {
    // The uid is read from the body: keeping it beside every revision would cost ~60 bytes each.
    const uid = (parseJson(unpackBody(cur.body)) as KubeObject).metadata?.uid ?? '';
    if (p.uid !== uid) throw uidConflictError(key, p.uid, uid);
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== String(cur.rv)) {
    throw resourceVersionPreconditionError(key, p.resourceVersion, String(cur.rv));
  }
}

/** A revision of the memory store: its packed body, decoded on demand. */
class PackedRevision<T extends KubeObject> implements StoredRevision<T> {
  readonly #body: string;
  readonly resourceVersion: number;

  constructor(body: string, rv: number) {
    this.#body = body;
    this.resourceVersion = rv;
  }

  decode(): T {
    return fromBody<T>(unpackBody(this.#body), this.resourceVersion);
  }

  decodeShared(): T {
    return decodeSharing<T>(this.#body, this.resourceVersion);
  }

  decodeMetadata(): Pick<T, 'metadata'> {
    return decodeMetadataSharing<T>(this.#body, this.resourceVersion);
  }

  encodeText(plan: StoredTextPlan): string | undefined {
    return plannedText(this.#body, this.resourceVersion, plan);
  }
}
