import { Worker } from 'node:worker_threads';
import { unavailableError } from '@kevents/storage';
import type {
  Bounds,
  PageRequest,
  PageResult,
  SqlBackend,
  SqlChange,
  StoredRow,
  WriteOp,
  WriteResult,
} from './backend.js';
import type { SqliteOptions } from './sqlite.js';
import { decodeThreadError, type ThreadMethod, type ThreadReply } from './sqlite-thread-protocol.js';

/**
 * The writer thread's script: beside this module once built; from the sources (the tests run
 * them untranspiled by Node) the built one, as a worker runs plain JavaScript.
 */
const workerScript = import.meta.url.endsWith('.ts')
  ? new URL('../dist/sqlite-worker.js', import.meta.url)
  : new URL('./sqlite-worker.js', import.meta.url);

interface Waiting {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * SQLite on a thread of its own: a {@link SqliteBackend} in a worker thread that owns the
 * database, and this proxy that sends it each call. SQLite's calls are synchronous, and a commit
 * (its page writes and, with `synchronous=full`, the fsync) took more than half of a create's
 * time on the event loop; on the thread they run beside the event loop, which meanwhile reads
 * the next requests, so the next batch grows while one commits. Calls run in the order they are
 * made, each one snapshot, as on the event loop. The worker holds the event loop open only while
 * a call is under way.
 */
export class SqliteThreadBackend implements SqlBackend {
  readonly description: string;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;
  private failure: Error | undefined;

  private constructor(worker: Worker, path: string) {
    this.worker = worker;
    this.description = `sqlite://${path}`;
    worker.on('message', (m: ThreadReply) => this.answer(m));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the SQLite thread exited (code ${code})`)));
    worker.unref();
  }

  /** Starts the thread, which opens (creating it and its folder when absent) and migrates the database. */
  static async open(options: SqliteOptions): Promise<SqliteThreadBackend> {
    const worker = new Worker(workerScript, { workerData: options });
    try {
      await new Promise<void>((resolve, reject) => {
        const onMessage = (m: { ready?: boolean; openError?: string }): void => {
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (m.ready === true) resolve();
          else reject(new Error(m.openError ?? 'the SQLite thread did not start'));
        };
        const onError = (err: Error): void => reject(err);
        const onExit = (code: number): void => reject(new Error(`the SQLite thread exited (code ${code})`));
        worker.once('message', onMessage);
        worker.once('error', onError);
        worker.once('exit', onExit);
      });
    } catch (err) {
      worker.on('error', () => undefined); // the thread's own report of the failure answered above
      await worker.terminate();
      throw err;
    }
    return new SqliteThreadBackend(worker, options.path);
  }

  private call<T>(method: ThreadMethod, ...args: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(unavailableError('sqlite: the database is closed'));
    if (this.failure !== undefined)
      return Promise.reject(unavailableError(`sqlite: ${this.failure.message}`, this.failure));
    const id = this.nextId++;
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, args });
    });
  }

  private answer(m: ThreadReply): void {
    const w = this.waiting.get(m.id);
    if (w === undefined) return;
    this.waiting.delete(m.id);
    if (this.waiting.size === 0) this.worker.unref();
    if ('error' in m) w.reject(decodeThreadError(m.error));
    else w.resolve(m.value);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(unavailableError(`sqlite: ${err.message}`, err));
    this.waiting.clear();
  }

  write(ops: readonly WriteOp[], historyLimit: number): Promise<WriteResult[]> {
    return this.call('write', ops, historyLimit);
  }

  get(resource: string, key: string): Promise<StoredRow | undefined> {
    return this.call('get', resource, key);
  }

  bounds(): Promise<Bounds> {
    return this.call('bounds');
  }

  page(req: PageRequest): Promise<PageResult> {
    return this.call('page', req);
  }

  changes(after: number, limit: number): Promise<SqlChange[]> {
    return this.call('changes', after, limit);
  }

  compact(rv: number, batch: number): Promise<number> {
    return this.call('compact', rv, batch);
  }

  rvBefore(ms: number): Promise<number> {
    return this.call('rvBefore', ms);
  }

  ping(): Promise<void> {
    return this.call('ping');
  }

  /** Runs one statement on the database's connection and returns its rows (see {@link SqliteBackend.maintenance}). */
  maintenance(sql: string): Promise<Record<string, unknown>[]> {
    return this.call('maintenance', sql);
  }

  listen(): Promise<() => Promise<void>> {
    // One process owns the file: the store sees every write itself.
    return Promise.resolve(() => Promise.resolve());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.failure === undefined) await this.call('close');
    } catch {
      // closing anyway
    }
    this.closed = true;
    await this.worker.terminate();
  }
}
