import type { KubeObject } from '@kevents/api';
import type { ListOptions, ListResult } from './interface.js';

/** How many objects a page of initial events read from a store holds. */
export const initialPageSize = 256;

/**
 * The initial events of a watch read from a store a page at a time, as a paged list at one
 * resourceVersion: the state the watch starts from, without holding all of it at once.
 */
export interface InitialPages<T extends KubeObject> {
  /** The next page (in key order), or undefined after the last. Rejects with the list's StorageError. */
  next(): Promise<readonly T[] | undefined>;
}

/**
 * Reads the first page of `list` (the store's list of the watched prefix, without a predicate) and
 * returns the resourceVersion it is consistent at, where the watch's changes start, and the pages:
 * the first, then the rest through continue tokens at that resourceVersion. A client slower than
 * the store's history to take them ends its watch with the list's Expired, as a paged list would.
 */
export async function openInitialPages<T extends KubeObject>(
  list: (options: ListOptions<T>) => Promise<ListResult<T>>,
  pageSize = initialPageSize,
): Promise<{ resourceVersion: number; pages: InitialPages<T> }> {
  const first = await list({ limit: pageSize });
  let pending: readonly T[] | undefined = first.items;
  let token = first.continue;
  const pages: InitialPages<T> = {
    async next() {
      if (pending !== undefined) {
        const page = pending;
        pending = undefined;
        return page;
      }
      if (token === undefined) return undefined;
      const page = await list({ limit: pageSize, continue: token });
      token = page.continue;
      return page.items;
    },
  };
  return { resourceVersion: Number(first.resourceVersion), pages };
}
