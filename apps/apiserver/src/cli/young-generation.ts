import { defaultSemiSpaceMiB } from '@kevents/cli';
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

/** The default semi-space size for a `--storage` value (the URL forms of @kevents/storage-sql's `isSqlUrl`). */
export function semiSpaceMiBForStorage(storage: string): number {
  return /^(sqlite|postgres|postgresql):\/\//.test(storage) ? diskStoreSemiSpaceMiB : defaultSemiSpaceMiB;
}

/**
 * The default semi-space size for the apiserver's command line, read before the restart with the
 * same parser the apiserver then uses: a command line it would refuse gets the general default
 * (the apiserver reports the error after the restart).
 */
export function semiSpaceMiBForArgs(argv: readonly string[]): number {
  try {
    return semiSpaceMiBForStorage(parseApiserverFlags(argv).options.storage);
  } catch {
    return defaultSemiSpaceMiB;
  }
}
