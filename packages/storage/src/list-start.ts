import type { KubeObject } from '@kevents/api';
import { decodeListContinue } from './continue.js';
import { StorageError } from './errors.js';
import type { KeyPrefix, ListOptions } from './interface.js';
import { isUnsetResourceVersion, parseResourceVersion } from './resource-version.js';

/** What a list reads: the latest state, one resourceVersion exactly, or a continued page's. */
export type ListKind = 'latest' | 'exact' | 'continue';

/** Where a list starts, read once from its options (Kubernetes' resourceVersion and continue rules). */
export interface ListStart {
  /** The page size; 0 for no limit. */
  readonly limit: number;
  /** The first key of a continued page (a key of the resource: the list's prefix and the token's start). */
  readonly start: string | undefined;
  /** The resourceVersion read at; -1 for the latest state. */
  readonly at: number;
  readonly kind: ListKind;
  /** The resourceVersion the store must have reached before it reads (a "not older than"), if any. */
  readonly waitFor: number | undefined;
}

/**
 * A list's start point, for stores that read a consistent snapshot at a resourceVersion: a
 * continue token's resourceVersion (continue), an `Exact` match or a paged list at a given
 * resourceVersion (exact), else the latest state; any given resourceVersion must be waited for.
 * A continue token is read relative to the list's `prefix`, as kube reads it.
 */
export function listStart<T extends KubeObject>(options: ListOptions<T>, prefix: KeyPrefix): ListStart {
  const limit = options.limit !== undefined && options.limit > 0 ? options.limit : 0;
  if (options.continue !== undefined && options.continue !== '') {
    const token = decodeListContinue(prefix, options.continue);
    return token.resourceVersion >= 0
      ? { limit, start: token.start, at: token.resourceVersion, kind: 'continue', waitFor: token.resourceVersion }
      : { limit, start: token.start, at: -1, kind: 'latest', waitFor: undefined };
  }
  if (isUnsetResourceVersion(options.resourceVersion)) {
    return { limit, start: undefined, at: -1, kind: 'latest', waitFor: undefined };
  }
  const rv = parseResourceVersion(options.resourceVersion!);
  const match = options.resourceVersionMatch ?? '';
  const exact = match === 'Exact' || (match === '' && limit > 0);
  return { limit, start: undefined, at: exact ? rv : -1, kind: exact ? 'exact' : 'latest', waitFor: rv };
}

/**
 * Runs a list's read, again (up to three more times) when a latest list's own resourceVersion was
 * compacted while it read.
 */
export async function readListRetrying<R>(kind: ListKind, read: () => Promise<R>): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (kind !== 'latest' || attempt >= 3 || !(err instanceof StorageError) || err.code !== 'Expired') throw err;
    }
  }
}
