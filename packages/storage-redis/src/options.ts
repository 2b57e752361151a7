/** Settings of {@link RedisStorage}. */
export interface RedisStorageOptions {
  /**
   * Where Redis is: `redis://[user:pass@]host:port[/db]`, `rediss://...` (TLS),
   * `redis+sentinel://[user:pass@]host:port[,host:port...]/<master-name>[/db]` or
   * `redis+cluster://host:port[,host:port...]`. Query parameters: `prefix` (key prefix),
   * `historyLimit`, `historyMaxAgeMs`, `watchBatchIntervalMs`, `commandTimeoutMs`,
   * `sentinelPassword`, `tls=true` (for the sentinel and cluster forms),
   * `legacyNamespaceIndex=true`.
   */
  readonly url: string;
  /**
   * Names this kevents instance's keys: every key is `{<prefix>}:...`, one hash tag, so several
   * instances share one Redis (or Cluster) under different prefixes (default `kevents`).
   */
  readonly prefix?: string;
  /** Changes kept in the Stream for watches, continue tokens and exact lists (default 10,000). */
  readonly historyLimit?: number;
  /** Also compact changes older than this (default 600,000 ms; 0 turns age compaction off). */
  readonly historyMaxAgeMs?: number;
  /** How often the age compaction runs (default 5,000 ms). */
  readonly compactIntervalMs?: number;
  /** How often a watch with `allowBookmarks` gets a BOOKMARK (default 60,000 ms). */
  readonly bookmarkIntervalMs?: number;
  /**
   * The shortest time between two wake-ups of this process's watches (default 4 ms): under a
   * steady stream of writes each watch reads, and its HTTP stream writes, the changes of one
   * interval at once; a change after a quiet spell is delivered at once. 0 wakes watches on
   * every change read from the Stream.
   */
  readonly watchBatchIntervalMs?: number;
  /** How long a read for a future resourceVersion waits before TooLargeResourceVersion (default 3,000 ms). */
  readonly tooLargeResourceVersionWaitMs?: number;
  /**
   * How long one request (get, list, create, update, delete, guaranteedUpdate, the start of a
   * watch) may wait for Redis in all, over every command it sends (default 2,000 ms): it answers,
   * or fails with Unavailable (503) once that time is spent, on standalone, Sentinel and Cluster,
   * also while a master is being replaced. Time the request spends outside Redis (decoding a list,
   * the update function, the waits between reads for a future resourceVersion, which
   * `tooLargeResourceVersionWaitMs` bounds) does not count, and the failure comes as late as the
   * process's timers run (a few ms on an idle machine). A write that was sent and got no answer
   * fails with `...; the write may have been applied`: it may have been. A connection on which a
   * command got no answer for this long is dropped and made again (at most once per 2 s).
   */
  readonly commandTimeoutMs?: number;
  /**
   * Also maintain, on every create and delete, the per-namespace index that versions up to
   * commit fd5f07d read for namespace lists (`{prefix}:i:<resource>:<namespace>`; default false).
   * Only for a rolling upgrade from, or a rollback to, such a version: this version never reads
   * it. Costs one sorted-set write per create and delete (docs/operations.md, "Upgrading").
   */
  readonly legacyNamespaceIndex?: boolean;
  /** How long `createRedisStorage` waits for the first connection before returning anyway (default 3,000 ms). */
  readonly connectWaitMs?: number;
  /**
   * TLS settings for a TLS URL (`rediss://`, `rediss+sentinel://`, `rediss+cluster://` or
   * `tls=true`); without them the system's CAs verify the server and no client certificate is
   * sent. Giving them with a plain URL is an error.
   */
  readonly tls?: RedisTlsOptions;
  /**
   * Told when the store loses Redis (once per distinct reason while it stays lost) and when it
   * has it again, for logs: a refused password or TLS handshake shows here, not only as 503s.
   */
  readonly onConnection?: (event: RedisConnectionEvent) => void;
}

/** A change of the store's connection to Redis (see {@link RedisStorageOptions.onConnection}). */
export interface RedisConnectionEvent {
  readonly state: 'lost' | 'restored';
  /** Why it is lost (the client's error message). */
  readonly reason?: string;
}

/** What Node's `tls.connect` gets for every connection to Redis (and to Sentinels). */
export interface RedisTlsOptions {
  /** CA certificates (PEM) that verify the servers, instead of the system's. */
  readonly ca?: string | Buffer;
  /** A client certificate (PEM), for servers that require one (Redis's default, `tls-auth-clients yes`). */
  readonly cert?: string | Buffer;
  /** The client certificate's private key (PEM). */
  readonly key?: string | Buffer;
  /** The server name to verify and send with SNI, when it differs from the host in the URL. */
  readonly servername?: string;
}

export const redisDefaults = {
  prefix: 'kevents',
  historyLimit: 10_000,
  historyMaxAgeMs: 600_000,
  compactIntervalMs: 5_000,
  bookmarkIntervalMs: 60_000,
  watchBatchIntervalMs: 4,
  tooLargeResourceVersionWaitMs: 3_000,
  commandTimeoutMs: 2_000,
  connectWaitMs: 3_000,
} as const;

/** A parsed connection URL. */
export interface RedisTarget {
  readonly mode: 'standalone' | 'sentinel' | 'cluster';
  readonly hosts: readonly { host: string; port: number }[];
  readonly tls: boolean;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly db: number;
  /** Sentinel master name. */
  readonly masterName: string | undefined;
  readonly sentinelPassword: string | undefined;
  readonly params: URLSearchParams;
  /** The URL without credentials, for logs and `/readyz`. */
  readonly description: string;
}

const schemes: Record<string, { mode: RedisTarget['mode']; tls: boolean; port: number }> = {
  'redis:': { mode: 'standalone', tls: false, port: 6379 },
  'rediss:': { mode: 'standalone', tls: true, port: 6379 },
  'redis+sentinel:': { mode: 'sentinel', tls: false, port: 26379 },
  'rediss+sentinel:': { mode: 'sentinel', tls: true, port: 26379 },
  'redis+cluster:': { mode: 'cluster', tls: false, port: 6379 },
  'rediss+cluster:': { mode: 'cluster', tls: true, port: 6379 },
};

/** Parses a Redis URL of any supported form. Throws an Error naming what is wrong. */
export function parseRedisUrl(url: string): RedisTarget {
  const m = /^([a-z+]+:)\/\/(?:([^@/]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/.exec(url.trim());
  const scheme = m === null ? undefined : schemes[m[1]];
  if (m === null || scheme === undefined) {
    throw new Error(
      `invalid Redis URL ${JSON.stringify(redact(url))}: use redis://, rediss://, redis+sentinel:// or redis+cluster://`,
    );
  }
  const [, proto, auth, hostList, path = '', query = ''] = m;
  let username: string | undefined;
  let password: string | undefined;
  if (auth !== undefined && auth !== '') {
    const i = auth.indexOf(':');
    username = i < 0 ? undefined : decodeURIComponent(auth.slice(0, i)) || undefined;
    password = decodeURIComponent(i < 0 ? auth : auth.slice(i + 1)) || undefined;
  }
  const hosts = (hostList === '' ? 'localhost' : hostList).split(',').map((h) => {
    const hp = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(h);
    if (hp === null) throw new Error(`invalid Redis URL ${JSON.stringify(redact(url))}: bad host ${JSON.stringify(h)}`);
    return { host: hp[1].replace(/^\[|\]$/g, ''), port: hp[2] === undefined ? scheme.port : Number(hp[2]) };
  });
  if (scheme.mode === 'standalone' && hosts.length !== 1)
    throw new Error(`invalid Redis URL ${JSON.stringify(redact(url))}: one host expected`);
  const segments = path.split('/').filter((s) => s !== '');
  let masterName: string | undefined;
  if (scheme.mode === 'sentinel') {
    masterName = segments.shift();
    if (masterName === undefined)
      throw new Error(`invalid Redis URL ${JSON.stringify(redact(url))}: the sentinel form needs /<master-name>`);
  }
  const dbText = segments.shift() ?? '0';
  if (!/^\d+$/.test(dbText) || segments.length > 0)
    throw new Error(`invalid Redis URL ${JSON.stringify(redact(url))}: bad database ${JSON.stringify(path)}`);
  const db = Number(dbText);
  if (scheme.mode === 'cluster' && db !== 0)
    throw new Error(`invalid Redis URL ${JSON.stringify(redact(url))}: Redis Cluster has only database 0`);
  const params = new URLSearchParams(query.slice(1));
  return {
    mode: scheme.mode,
    hosts,
    tls: scheme.tls || params.get('tls') === 'true',
    username,
    password,
    db,
    masterName,
    sentinelPassword: params.get('sentinelPassword') ?? undefined,
    params,
    description: `${proto}//${hostList}${path}`,
  };
}

/** The URL with any password replaced by `***`. */
export const redact = (url: string): string =>
  url.replace(/\/\/([^@/]*)@/, (_, a: string) => `//${a.includes(':') ? `${a.split(':')[0]}:***` : '***'}@`);
