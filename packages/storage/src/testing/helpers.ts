import type { KubeObject } from '@kevents/api';
import { isStorageError, type StorageError, type StorageErrorCode } from '../errors.js';
import type { ObjectKey, StorageWatchEvent, Watcher } from '../interface.js';

/** The object the conformance suite stores: an Event-shaped KubeObject. */
export interface TestObject extends KubeObject {
  note?: string;
  reason?: string;
  count?: number;
  nested?: { list: number[]; map: Record<string, string> };
}

/** A test object in `namespace` named `name`, with a uid derived from both. */
export const testObject = (namespace: string, name: string, extra: Partial<TestObject> = {}): TestObject => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { namespace, name, uid: `uid-${namespace}-${name}` },
  note: 'hello',
  ...extra,
});

/** The key of an object of `resource` (default `events`). */
export const keyOf = (namespace: string, name: string, resource = 'events'): ObjectKey => ({
  resource,
  namespace,
  name,
});

/** Awaits a rejection with a StorageError of `code` and returns it. */
export async function expectStorageError(p: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  let result: unknown;
  try {
    result = await p;
  } catch (err) {
    if (isStorageError(err, code)) return err;
    throw new Error(
      `expected StorageError ${code}, got ${String(err)} (${(err as { code?: string }).code ?? 'no code'})`,
      {
        cause: err,
      },
    );
  }
  throw new Error(`expected StorageError ${code}, got a result: ${JSON.stringify(result)}`);
}

/** Decimal resourceVersion to number, failing the test on anything else. */
export function rvOf(obj: KubeObject | string | undefined): number {
  const s = typeof obj === 'string' ? obj : obj?.metadata.resourceVersion;
  if (s === undefined || !/^[0-9]+$/.test(s)) throw new Error(`not a resourceVersion: ${String(s)}`);
  return Number(s);
}

/** The resourceVersion of an object, failing the test when it has none. */
export const rvs = (obj: KubeObject): string => String(rvOf(obj));

/** The uid of an object, failing the test when it has none. */
export function uidOf(obj: KubeObject): string {
  if (obj.metadata.uid === undefined) throw new Error('object has no uid');
  return obj.metadata.uid;
}

/**
 * Reads a watch with timeouts. A timed-out read stays pending and is picked up by the next
 * call, so no event is ever lost between calls.
 */
export class WatchReader<T extends KubeObject = KubeObject> {
  private readonly it: AsyncIterator<StorageWatchEvent<T>>;
  private pending: Promise<IteratorResult<StorageWatchEvent<T>>> | undefined;

  constructor(watcher: Watcher<T>) {
    this.it = watcher[Symbol.asyncIterator]();
  }

  /** The next event, `'timeout'` after `ms`, or `'done'` when the watch ended. Rethrows watch errors. */
  async next(ms: number): Promise<StorageWatchEvent<T> | 'timeout' | 'done'> {
    this.pending ??= this.it.next();
    const p = this.pending;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
    try {
      const r = await Promise.race([p, timeout]);
      if (r === 'timeout') return r;
      this.pending = undefined;
      return r.done === true ? 'done' : r.value;
    } catch (err) {
      this.pending = undefined;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The next `n` events other than BOOKMARKs (unless `bookmarks`); fails on timeout or end. */
  async take(n: number, ms: number, bookmarks = false): Promise<StorageWatchEvent<T>[]> {
    const out: StorageWatchEvent<T>[] = [];
    const deadline = Date.now() + ms;
    while (out.length < n) {
      const e = await this.next(Math.max(1, deadline - Date.now()));
      if (e === 'timeout' || e === 'done') {
        throw new Error(`watch gave ${out.length} of ${n} events, then ${e}: ${JSON.stringify(out.map(brief))}`);
      }
      if (bookmarks || e.type !== 'BOOKMARK') out.push(e);
    }
    return out;
  }

  /** Fails if a non-BOOKMARK event arrives within `ms`. */
  async expectQuiet(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      const e = await this.next(left);
      if (e === 'timeout') return;
      if (e === 'done') throw new Error('watch ended');
      if (e.type !== 'BOOKMARK') throw new Error(`unexpected event ${JSON.stringify(brief(e))}`);
    }
  }
}

/** `TYPE ns/name@rv` for messages and compact assertions. */
export function brief(e: StorageWatchEvent): string {
  if (e.type === 'BOOKMARK') return `BOOKMARK@${e.resourceVersion}${e.initialEventsEnd === true ? ' end' : ''}`;
  return `${e.type} ${e.object.metadata.namespace ?? ''}/${e.object.metadata.name ?? ''}@${e.resourceVersion}`;
}

/** The object of an ADDED, MODIFIED or DELETED event. @throws Error for a BOOKMARK */
export function objectOf<T extends KubeObject>(e: StorageWatchEvent<T>): T {
  if (e.type === 'BOOKMARK') throw new Error(`expected an object, got ${brief(e)}`);
  return e.object;
}

/** Lets timers and other tasks run. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
