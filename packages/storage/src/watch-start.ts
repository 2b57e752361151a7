import type { KubeObject } from '@kevents/api';
import { tooLargeResourceVersionError, tooOldResourceVersionError } from './errors.js';
import { openInitialPages } from './initial-pages.js';
import type { InitialPages } from './initial-pages.js';
import type { ListOptions, ListResult, WatchOptions } from './interface.js';
import { isUnsetResourceVersion, parseResourceVersion } from './resource-version.js';

/** What a store whose state lives outside the process (Redis, SQL) reads to start a watch. */
export interface RemoteWatchReads<T extends KubeObject> {
  /** Resolves once the store has reached `rv` (see {@link waitForResourceVersion}). */
  waitFor(rv: number): Promise<void>;
  /** The newest resourceVersion and the newest one compacted away. */
  bounds(): Promise<{ rv: number; compacted: number }>;
  /** A page of the watched prefix, for initial events (a list without predicate). */
  listInitial(options: ListOptions<T>): Promise<ListResult<T>>;
}

/**
 * Where a watch of such a store starts and what it sends first (Kubernetes' rules): with
 * `sendInitialEvents`, the prefix's state as pages of a list at one resourceVersion and the
 * changes after it; with a resourceVersion, the changes after it (Expired below the compacted
 * one); else the changes from now.
 */
export async function remoteWatchStart<T extends KubeObject>(
  options: WatchOptions<T>,
  reads: RemoteWatchReads<T>,
): Promise<{ from: number; initial: T[] | InitialPages<T> }> {
  if (!isUnsetResourceVersion(options.resourceVersion)) {
    const rv = parseResourceVersion(options.resourceVersion!);
    await reads.waitFor(rv);
    if (options.sendInitialEvents !== true) {
      const { compacted } = await reads.bounds();
      if (rv < compacted) throw tooOldResourceVersionError(String(rv), String(compacted));
      return { from: rv, initial: [] };
    }
  }
  if (options.sendInitialEvents === true) {
    const start = await openInitialPages<T>((o) => reads.listInitial(o));
    return { from: start.resourceVersion, initial: start.pages };
  }
  return { from: (await reads.bounds()).rv, initial: [] };
}

/** A change feed's wake-ups: `onNext` calls `wake` once after the next change; `cancel` withdraws it. */
export interface FeedWakeups {
  onNext(wake: () => void): void;
  cancel(wake: () => void): void;
}

/**
 * Resolves once `current()` reaches `rv`, checking after each change the feed reports (and at
 * least every 25 ms); else fails with TooLargeResourceVersion after `waitMs`, as kube-apiserver
 * answers a resourceVersion the store has not seen yet. `checkOpen` throws once the store closed.
 */
export async function waitForResourceVersion(
  rv: number,
  store: { current(): Promise<number>; feed: FeedWakeups; waitMs: number; isClosed(): boolean; checkOpen(): void },
): Promise<void> {
  const deadline = Date.now() + store.waitMs;
  for (;;) {
    const current = await store.current();
    if (current >= rv) return;
    if (Date.now() >= deadline || store.isClosed()) throw tooLargeResourceVersionError(rv, current);
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        store.feed.cancel(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(25, Math.max(1, deadline - Date.now())));
      store.feed.onNext(done);
    });
    store.checkOpen();
  }
}
