import { MemoryStorage } from '@kevents/storage';
import type { Storage } from '@kevents/storage';
import { createRedisStorage } from '@kevents/storage-redis';

/** Options the `--storage` flag and its companions give a store. */
export interface StorageFlags {
  readonly storage: string;
  readonly historyLimit: number;
}

/**
 * Builds the store named by `--storage`:
 * - `memory` (default): in-process;
 * - `redis://[user:pass@]host:port[/db]`, `rediss://...` (TLS);
 * - `redis+sentinel://[user:pass@]host:port[,host:port...]/<master>[/db]` (also `rediss+sentinel://`);
 * - `redis+cluster://host:port[,host:port...]` (also `rediss+cluster://`).
 * Redis URLs take `?prefix=<name>` (key prefix and hash tag, default `kevents`),
 * `historyLimit`, `historyMaxAgeMs` and `sentinelPassword`; see docs/operations.md. The
 * Redis store starts even when Redis is down (it reconnects by itself; `/readyz` says so).
 */
export async function createStorage(flags: StorageFlags): Promise<Storage> {
  const spec = flags.storage.trim();
  if (spec === '' || spec === 'memory') return new MemoryStorage({ historyLimit: flags.historyLimit });
  if (/^rediss?(\+sentinel|\+cluster)?:\/\//.test(spec)) {
    const historyLimit = Number.isSafeInteger(flags.historyLimit) && flags.historyLimit > 0 ? flags.historyLimit : undefined;
    const fromUrl = /[?&]historyLimit=/.test(spec);
    return createRedisStorage({ url: spec, historyLimit: fromUrl ? undefined : historyLimit });
  }
  throw new Error(`--storage=${spec}: unknown storage; use memory, redis://, rediss://, redis+sentinel:// or redis+cluster:// (see docs/operations.md)`);
}
