import { createHash } from 'node:crypto';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { StorageError, unavailableError } from '@kevents/storage';
import type { RedisTarget } from './options.js';

/** A client of either shape; both have the commands the store uses. */
export type Client = Redis | Cluster;

/**
 * Options that make requests fail fast instead of hanging: no offline queue (a command sent
 * while disconnected fails at once), no retries or resends of a command after a disconnect, a
 * command timeout, and RESP2 (ioredis 5 speaks RESP2 only; reply shapes below assume it).
 */
function baseOptions(target: RedisTarget, commandTimeoutMs: number | undefined): RedisOptions {
  return {
    username: target.username,
    password: target.password,
    db: target.db,
    tls: target.tls ? {} : undefined,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    connectionName: 'kevents',
  };
}

/** Opens a client for the target. The blocking Stream reader gets its own (no command timeout). */
export function openClient(target: RedisTarget, commandTimeoutMs: number | undefined): Client {
  const base = baseOptions(target, commandTimeoutMs);
  if (target.mode === 'cluster') {
    const options: ClusterOptions = {
      redisOptions: { ...base, db: undefined },
      enableOfflineQueue: false,
      enableReadyCheck: true,
      clusterRetryStrategy: (times) => Math.min(100 * times, 1_000),
      slotsRefreshTimeout: 2_000,
    };
    return new Cluster(target.hosts.map((h) => ({ host: h.host, port: h.port })), options);
  }
  if (target.mode === 'sentinel') {
    return new Redis({
      ...base,
      sentinels: target.hosts.map((h) => ({ host: h.host, port: h.port })),
      name: target.masterName,
      sentinelPassword: target.sentinelPassword,
      sentinelRetryStrategy: (times) => Math.min(100 * times, 1_000),
      enableTLSForSentinelMode: target.tls,
      failoverDetector: true,
    });
  }
  return new Redis({ ...base, host: target.hosts[0].host, port: target.hosts[0].port });
}

/** Resolves when the client is ready, or after `ms` (the client keeps reconnecting by itself). */
export function waitReady(client: Client, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.on('ready', done);
  });
}

const transient = /^(LOADING|READONLY|CLUSTERDOWN|MASTERDOWN|TRYAGAIN|BUSY|NOREPLICAS|MOVED|ASK)\b/;

/** Maps a client error to a StorageError: transport problems and failovers are Unavailable. */
export function toStorageError(err: unknown): StorageError {
  if (err instanceof StorageError) return err;
  const e = err as { name?: string; message?: string };
  const message = e?.message ?? String(err);
  if (e?.name === 'ReplyError' && !transient.test(message)) {
    return new StorageError('Internal', `redis: ${message}`, { cause: err });
  }
  return unavailableError(`redis unavailable: ${message}`, err);
}

/** A Lua script run by EVALSHA, loaded with EVAL when the server does not know it. */
export class Script {
  readonly sha: string;
  private readonly source: string;

  constructor(source: string) {
    this.source = source;
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: Client, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if ((err as Error)?.message?.startsWith('NOSCRIPT') !== true) throw toStorageError(err);
    }
    try {
      return await client.eval(this.source, keys.length, ...keys, ...args);
    } catch (err) {
      throw toStorageError(err);
    }
  }
}
