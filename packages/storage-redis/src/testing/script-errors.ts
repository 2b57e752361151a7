import { Redis } from 'ioredis';
import type { Storage } from '@kevents/storage';
import { keyOf, testObject } from '@kevents/storage/testing';

/**
 * Empties the script cache and error counters of every Redis node at `nodeUrls`, opens a storage,
 * writes `writes` objects into namespace `ns` at once, and returns the nodes' `INFO errorstats`
 * texts with what the storage then lists there: a storage that loads its scripts when it
 * connects leaves no `NOSCRIPT` error behind. Tests only (it loads `@kevents/storage/testing`, which
 * needs Jest): not exported from this folder's index, which the benchmarks load.
 */
export async function firstWritesErrorStats(
  nodeUrls: readonly string[],
  open: () => Promise<Storage>,
  writes: number,
): Promise<{ errorStats: string[]; listed: number }> {
  const admins = nodeUrls.map((url) => new Redis(url));
  try {
    for (const a of admins) {
      await a.script('FLUSH');
      await a.config('RESETSTAT');
    }
    const s = await open();
    try {
      const names = Array.from({ length: writes }, (_, i) => `first-${i}`);
      await Promise.all(names.map((name) => s.create(keyOf('ns', name), testObject('ns', name))));
      const errorStats = await Promise.all(admins.map(async (a) => String(await a.info('errorstats'))));
      const listed = (await s.list({ resource: 'events', namespace: 'ns' })).items.length;
      return { errorStats, listed };
    } finally {
      await s.close();
    }
  } finally {
    for (const a of admins) a.disconnect();
  }
}
