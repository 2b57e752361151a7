import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { StorageError, unavailableError } from '@kevents/storage';
import type { RedisTarget, RedisTlsOptions } from './options.js';

/** A client of either shape; both have the commands the store uses. */
export type Client = Redis | Cluster;

/**
 * Options that make requests fail fast instead of hanging: no offline queue (a command sent
 * while disconnected fails at once), no retries or resends of a command after a disconnect, a
 * command timeout, and RESP2 (ioredis 5 speaks RESP2 only; reply shapes below assume it).
 */
function baseOptions(
  target: RedisTarget,
  commandTimeoutMs: number | undefined,
  tls: RedisTlsOptions | undefined,
): RedisOptions {
  return {
    username: target.username,
    password: target.password,
    db: target.db,
    tls: target.tls ? { ...tls } : undefined,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    disconnectTimeout: 200,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    // A master demoted to a replica (a Sentinel or Cluster failover while it stays up) answers
    // writes with READONLY: reconnect, which asks the Sentinels or the cluster for the new master.
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 1 : false),
    connectionName: 'kevents',
  };
}

const closing = new WeakSet<Client>();
/** The last error of each client since it was last ready: why it is not connected. */
const connectionErrors = new WeakMap<Client, string>();

/** Why `client` is not connected (its last error since it was last ready), if it is not. */
export function connectionError(client: Client): string | undefined {
  return client.status === 'ready' ? undefined : connectionErrors.get(client);
}

/**
 * Keeps a client's last connection error (see {@link connectionError}) and reconnects it when it
 * ended without being closed. ioredis ends a Sentinel client for good
 * when the Sentinels announce a failover while it is reconnecting (its failover detector closes
 * the pending connection), and that is just what a crashed master produces; a store must come
 * back by itself, so an end that {@link closeClient} did not ask for starts a new connection
 * (after 100 ms, up to 1 s between attempts).
 */
function supervise(client: Client): Client {
  let attempts = 0;
  client.on('ready', () => {
    attempts = 0;
    connectionErrors.delete(client);
  });
  client.on('error', (err: Error) => {
    connectionErrors.set(client, err.message);
    guardStream(client);
  });
  client.on('end', () => {
    if (closing.has(client)) return;
    const retry = setTimeout(
      () => {
        if (!closing.has(client) && client.status === 'end') client.connect().catch(() => undefined);
      },
      Math.min(100 * ++attempts, 1_000),
    );
    retry.unref();
  });
  return client;
}

const guarded = new WeakSet<object>();
const ignore = (): void => undefined;

/**
 * ioredis listens for its connection's first 'error' only (`once`), but a TLS connection Redis
 * refuses (no client certificate: Redis sends an alert, then resets) emits two: the alert, then
 * ECONNRESET, which with no listener left would end the process. After the first error has
 * reached the client, its connection keeps a listener for the rest; ioredis reconnects anyway.
 */
function guardStream(client: Client): void {
  const stream = (client as { stream?: { on?: (event: 'error', listener: () => void) => unknown } }).stream;
  if (stream === undefined || typeof stream.on !== 'function' || guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', ignore);
}

/** Closes a client for good (no reconnection). */
export function closeClient(client: Client): void {
  closing.add(client);
  client.disconnect();
}

/**
 * Opens a client for the target; it reconnects by itself until {@link closeClient}. The blocking
 * Stream reader gets its own (no command timeout).
 */
export function openClient(target: RedisTarget, commandTimeoutMs: number | undefined, tls?: RedisTlsOptions): Client {
  if (tls !== undefined && !target.tls) {
    throw new Error(
      `TLS settings were given, but ${target.description} does not use TLS: use rediss://, rediss+sentinel://, rediss+cluster:// or ?tls=true`,
    );
  }
  return supervise(newClient(target, commandTimeoutMs, tls));
}

function newClient(
  target: RedisTarget,
  commandTimeoutMs: number | undefined,
  tls: RedisTlsOptions | undefined,
): Client {
  const base = baseOptions(target, commandTimeoutMs, tls);
  if (target.mode === 'cluster') {
    const options: ClusterOptions = {
      redisOptions: { ...base, db: undefined },
      enableOfflineQueue: false,
      enableReadyCheck: true,
      clusterRetryStrategy: (times) => Math.min(100 * times, 1_000),
      slotsRefreshTimeout: 2_000,
      // ioredis sends a command again, up to 16 times, 100 ms and a slots refresh apart, after
      // "Connection is closed." (a node gone) and CLUSTERDOWN: while a master is being replaced
      // that took 1 to 1.4 s per request on a quiet machine, 3.8 s in a loaded run, and up to 2 s
      // more per round when a node does not answer the refresh; and a command it sends again after
      // the request has failed may be applied after the caller was told it failed. Fail at once
      // instead, as standalone and Sentinel do, and refresh the slots (`toStorageError`) so that
      // the next request finds the new master. A MOVED or ASK reply is still followed at once.
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      retryDelayOnTryAgain: 0,
    };
    return new Cluster(
      target.hosts.map((h) => ({ host: h.host, port: h.port })),
      options,
    );
  }
  if (target.mode === 'sentinel') {
    return new Redis({
      ...base,
      sentinels: target.hosts.map((h) => ({ host: h.host, port: h.port })),
      name: target.masterName,
      sentinelPassword: target.sentinelPassword,
      sentinelRetryStrategy: (times) => Math.min(100 * times, 1_000),
      enableTLSForSentinelMode: target.tls,
      sentinelTLS: target.tls ? { ...tls } : undefined,
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

const transient = /^(LOADING|READONLY|CLUSTERDOWN|MASTERDOWN|TRYAGAIN|BUSY|NOREPLICAS|MOVED|ASK|OOM)\b/;

/** What ioredis says of a command sent while it is not connected (no offline queue). */
const notConnected = /^(Stream isn't writeable|Connection is closed)/;

/**
 * Maps a client error to a StorageError: transport problems, failovers and a full Redis (OOM)
 * are Unavailable. A command refused because `client` is not connected carries the reason it is
 * not (a refused password, a TLS handshake, a refused connection) rather than ioredis's text. A
 * command that timed out also drops `client`'s connection when it may have gone silent (see
 * `dropSilentConnection`): this mapper is where every failed command passes.
 */
export function toStorageError(err: unknown, client?: Client): StorageError {
  if (err instanceof StorageError) return err;
  const e = err as { name?: string; message?: string };
  const message = e?.message ?? String(err);
  if (e?.name === 'ReplyError' && !transient.test(message)) {
    return new StorageError('Internal', `redis: ${message}`, { cause: err });
  }
  if (client !== undefined && message === 'Command timed out') dropSilentConnection(client);
  if (client instanceof Cluster) refreshSlots(client);
  const why = client !== undefined && notConnected.test(message) ? connectionError(client) : undefined;
  return unavailableError(`redis unavailable: ${why ?? message}`, err);
}

const lastDrop = new WeakMap<Client, number>();

/**
 * A command timed out on a connection that looks fine: the server may be gone without a word (a
 * stopped process, a vanished host, a partition), and TCP would take many minutes to notice. The
 * connection is dropped and made again, at most once per 2 s, so that requests get a fast 503
 * and the client finds Redis (or the new master) as soon as it answers.
 */
function dropSilentConnection(client: Client): void {
  const now = Date.now();
  if (client.status !== 'ready' || now - (lastDrop.get(client) ?? 0) < 2_000) return;
  lastDrop.set(client, now);
  client.disconnect(true);
}

const lastRefresh = new WeakMap<Cluster, number>();

/**
 * A Cluster request failed for a reason other than its own (a node gone, CLUSTERDOWN, a
 * redirection, a timeout): ask the cluster again which node serves which slot, at most once per
 * 100 ms, so that requests reach the promoted replica as soon as the cluster has promoted it
 * (ioredis itself refreshes only on MOVED and every 5 s).
 */
export function refreshSlots(client: Cluster): void {
  const now = Date.now();
  if (client.status !== 'ready' || now - (lastRefresh.get(client) ?? 0) < 100) return;
  lastRefresh.set(client, now);
  client.refreshSlotsCache();
}
