import { MemoryStorage } from '@kevents/storage';
import type { Storage } from '@kevents/storage';

/** Options the `--storage` flag and its companions give a store. */
export interface StorageFlags {
  readonly storage: string;
  readonly historyLimit: number;
}

/** Builds the store named by `--storage` (`memory`, `redis://...`, `rediss://...`). */
export async function createStorage(flags: StorageFlags): Promise<Storage> {
  const spec = flags.storage.trim();
  if (spec === '' || spec === 'memory') return new MemoryStorage({ historyLimit: flags.historyLimit });
  if (/^rediss?:\/\//.test(spec) || /^redis(-sentinel|-cluster)?\+?/.test(spec)) {
    throw new Error(`--storage=${spec}: the Redis store is not available in this build`);
  }
  throw new Error(`--storage=${spec}: unknown storage; use memory or redis://HOST:PORT[/DB]`);
}
