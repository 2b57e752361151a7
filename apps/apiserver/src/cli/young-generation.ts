import { defaultSemiSpaceMiB, type YoungGenerationOptions } from '@kevents/cli';
import { parseApiserverFlags } from './flags.js';

/**
 * The semi-space size (MiB) the apiserver restarts with for stores that keep events on disk
 * (SQLite, PostgreSQL): the process then holds no event, only requests' garbage, and 16 MiB
 * semi-spaces keep it under 250 MB at 1,000,000 stored events (224 against 252 MB measured on
 * PostgreSQL with 32; docs/benchmarks.md, "SQL stores"). The memory and Redis stores keep
 * {@link defaultSemiSpaceMiB}: with the events in the heap, 16 promoted a walk's page garbage
 * early (docs/operations.md, "Memory of the apiserver").
 */
export const diskStoreSemiSpaceMiB = 16;

/**
 * V8's `--heap-growing-percent` for the apiserver on SQLite or PostgreSQL: its live heap is small
 * (~35 MB), so full collections are cheap, and V8's own factor (up to 4×) let 100,000 deletes
 * through the API fill the old space with ~100 MB of garbage (a peak of 310 against 218 MB of RSS
 * with 50; docs/benchmarks.md, "SQL stores"). The memory store's heap holds the events, where a
 * lower factor would make its larger full collections more frequent; it keeps V8's.
 */
export const diskStoreHeapGrowingPercent = 50;

const isDiskStore = (storage: string): boolean => /^(sqlite|postgres|postgresql):\/\//.test(storage);

/** The heap settings the apiserver restarts with for a `--storage` value (SQL stores: the URL forms of @kevents/storage-sql's `isSqlUrl`). */
export function heapSettingsForStorage(storage: string): YoungGenerationOptions {
  return isDiskStore(storage)
    ? { semiSpaceMiB: diskStoreSemiSpaceMiB, heapGrowingPercent: diskStoreHeapGrowingPercent }
    : { semiSpaceMiB: defaultSemiSpaceMiB };
}

/**
 * The heap settings for the apiserver's command line, read before the restart with the same
 * parser the apiserver then uses: a command line it would refuse gets the general defaults (the
 * apiserver reports the error after the restart).
 */
export function heapSettingsForArgs(argv: readonly string[]): YoungGenerationOptions {
  try {
    return heapSettingsForStorage(parseApiserverFlags(argv).options.storage);
  } catch {
    return { semiSpaceMiB: defaultSemiSpaceMiB };
  }
}
