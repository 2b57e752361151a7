import { readFile } from 'node:fs/promises';
import { MemoryStorage } from '@kevents/storage';
import type { Storage } from '@kevents/storage';
import { createRedisStorage, type RedisTlsOptions } from '@kevents/storage-redis';
import { createSqlStorage, isSqlUrl, redactPostgresUrl } from '@kevents/storage-sql';

/** Options the `--storage` flag and its companions give a store. */
export interface StorageFlags {
  readonly storage: string;
  readonly historyLimit: number;
  /** `--storage-cafile`, `--storage-certfile`, `--storage-keyfile` (for a TLS Redis or PostgreSQL URL). */
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** Where a Redis store reports losing and regaining its connection. */
  readonly log?: { warn(obj: object, msg: string): void; info(msg: string): void };
}

/** Reads the TLS files of a Redis store; undefined when none is given. */
async function redisTls(flags: StorageFlags): Promise<RedisTlsOptions | undefined> {
  const { caFile = '', certFile = '', keyFile = '' } = flags;
  if (!caFile && !certFile && !keyFile) return undefined;
  if (!certFile !== !keyFile) throw new Error('--storage-certfile and --storage-keyfile must be given together');
  const read = async (flag: string, file: string): Promise<string | undefined> => {
    if (!file) return undefined;
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new Error(`--${flag}=${file}: ${(err as Error).message}`, { cause: err });
    }
  };
  const [ca, cert, key] = await Promise.all([
    read('storage-cafile', caFile),
    read('storage-certfile', certFile),
    read('storage-keyfile', keyFile),
  ]);
  return {
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
  };
}

/**
 * Builds the store named by `--storage`:
 * - `memory` (default): in-process;
 * - `redis://[user:pass@]host:port[/db]`, `rediss://...` (TLS);
 * - `redis+sentinel://[user:pass@]host:port[,host:port...]/<master>[/db]` (also `rediss+sentinel://`);
 * - `redis+cluster://host:port[,host:port...]` (also `rediss+cluster://`);
 * - `sqlite:///ABS/PATH.db`: SQLite in one file (created with its folder; one process);
 * - `postgres://user:pass@host:5432/db[?sslmode=require|verify-ca|verify-full]`: PostgreSQL,
 *   shared by any number of replicas (TLS files from the same three flags).
 * SQL URLs take `historyLimit` and `historyMaxAgeMs` too.
 * Redis URLs take `?prefix=<name>` (key prefix and hash tag, default `kevents`),
 * `historyLimit`, `historyMaxAgeMs` and `sentinelPassword`; a TLS URL takes a CA and a client
 * certificate from `--storage-cafile`, `--storage-certfile` and `--storage-keyfile`; see docs/operations.md. The
 * Redis store starts even when Redis is down (it reconnects by itself; `/readyz` says so).
 */
export async function createStorage(flags: StorageFlags): Promise<Storage> {
  const spec = flags.storage.trim();
  if (spec === '' || spec === 'memory') {
    if (flags.caFile || flags.certFile || flags.keyFile)
      throw new Error(
        '--storage-cafile, --storage-certfile and --storage-keyfile apply to a TLS Redis or PostgreSQL --storage (rediss://..., postgres://...?sslmode=...)',
      );
    return new MemoryStorage({ historyLimit: flags.historyLimit });
  }
  if (/^rediss?(\+sentinel|\+cluster)?:\/\//.test(spec)) {
    const historyLimit =
      Number.isSafeInteger(flags.historyLimit) && flags.historyLimit > 0 ? flags.historyLimit : undefined;
    const fromUrl = /[?&]historyLimit=/.test(spec);
    const tls = await redisTls(flags);
    const log = flags.log;
    return createRedisStorage({
      url: spec,
      historyLimit: fromUrl ? undefined : historyLimit,
      ...(tls === undefined ? {} : { tls }),
      ...(log === undefined
        ? {}
        : {
            onConnection: (e) =>
              e.state === 'lost'
                ? log.warn({ reason: e.reason }, `storage: redis unavailable: ${e.reason ?? 'unknown'}`)
                : log.info('storage: redis connected again'),
          }),
    });
  }
  if (isSqlUrl(spec)) {
    const historyLimit =
      Number.isSafeInteger(flags.historyLimit) && flags.historyLimit > 0 ? flags.historyLimit : undefined;
    const fromUrl = /[?&]historyLimit=/.test(spec);
    const tls = spec.startsWith('sqlite:') ? undefined : await redisTls(flags);
    if (spec.startsWith('sqlite:') && (flags.caFile || flags.certFile || flags.keyFile))
      throw new Error('--storage-cafile, --storage-certfile and --storage-keyfile do not apply to SQLite');
    try {
      return await createSqlStorage({
        url: spec,
        ...(fromUrl || historyLimit === undefined ? {} : { historyLimit }),
        ...(tls === undefined ? {} : { tls }),
      });
    } catch (err) {
      const shown = spec.startsWith('sqlite:') ? spec : redactPostgresUrl(spec);
      throw new Error(`--storage=${shown}: ${(err as Error).message}`, { cause: err });
    }
  }
  throw new Error(
    `--storage=${spec}: unknown storage; use memory, redis://, rediss://, redis+sentinel://, redis+cluster://, sqlite:///ABS/PATH.db or postgres:// (see docs/operations.md)`,
  );
}
