import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '@kevents/api/testing';

/** The redis-server binary (override with REDIS_SERVER). */
export const redisServerBinary = process.env['REDIS_SERVER'] ?? 'redis-server';

/** Whether redis-server can be run here. */
export function haveRedisServer(): boolean {
  return spawnSync(redisServerBinary, ['--version']).status === 0;
}

/** Sends one inline command and resolves with the first reply line ('' on failure). */
export function redisCommand(port: number, command: string, timeoutMs = 500): Promise<string> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    let buf = '';
    const done = (v: string): void => {
      clearTimeout(timer);
      sock.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(''), timeoutMs);
    sock.on('connect', () => sock.write(`${command}\r\n`));
    sock.on('data', (d) => {
      buf += d.toString('utf8');
      const i = buf.indexOf('\r\n');
      if (i >= 0) done(buf.slice(0, i));
    });
    sock.on('error', () => done(''));
  });
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** Settings of a test redis-server. */
export interface RedisServerOptions {
  /** Append-only file with `appendfsync always` (default false: no persistence at all). */
  readonly appendOnly?: boolean;
  /** Extra `--name value` arguments. */
  readonly args?: readonly string[];
  /** Working directory (default: a new temp dir, removed on `stop`). */
  readonly dir?: string;
  readonly port?: number;
  /** A config file, passed first (a Sentinel's, with `sentinel: true`). */
  readonly configFile?: string;
  readonly sentinel?: boolean;
  /** The password clients must give (set in the config file or args); the readiness check authenticates with it. */
  readonly password?: string;
}

/** A redis-server child process on 127.0.0.1. */
export class RedisServer {
  readonly port: number;
  readonly dir: string;
  private readonly ownDir: boolean;
  private readonly args: string[];
  private proc: ChildProcess | undefined;
  private log = '';

  private readonly password: string | undefined;

  private constructor(port: number, dir: string, ownDir: boolean, args: string[], password: string | undefined) {
    this.port = port;
    this.dir = dir;
    this.ownDir = ownDir;
    this.args = args;
    this.password = password;
  }

  /** Starts a server and waits until it answers PING. */
  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'kevents-redis-'));
    const head =
      options.configFile === undefined
        ? []
        : [options.configFile, ...(options.sentinel === true ? ['--sentinel'] : [])];
    const persistence =
      options.sentinel === true
        ? []
        : options.appendOnly === true
          ? ['--appendonly', 'yes', '--appendfsync', 'always']
          : ['--appendonly', 'no', '--save', ''];
    // A port found free can be taken by another process before redis-server binds it: try another.
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      const args = [
        ...head,
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--protected-mode',
        'no',
        '--loglevel',
        'warning',
        ...persistence,
        ...(options.args ?? []),
      ];
      const s = new RedisServer(port, dir, options.dir === undefined, args, options.password);
      try {
        await s.restart();
        return s;
      } catch (e) {
        await s.kill();
        if (options.port !== undefined || attempt >= 5 || !s.log.includes('Address already in use')) throw e;
      }
    }
  }

  /** `redis://127.0.0.1:<port>`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.proc !== undefined;
  }

  /** (Re)starts the process on the same port and directory and waits for PING. */
  async restart(): Promise<void> {
    if (this.proc !== undefined) return;
    const p = spawn(redisServerBinary, this.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = p;
    live.add(p);
    p.stdout?.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-4000)));
    p.stderr?.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-4000)));
    p.once('exit', () => {
      live.delete(p);
      if (this.proc === p) this.proc = undefined;
    });
    const probe = this.password === undefined ? ['PING', '+PONG'] : [`AUTH ${this.password}`, '+OK'];
    const exited = () => this.proc !== p;
    await waitFor(
      async () => {
        if (exited()) throw new Error(`redis-server on ${this.port} exited: ${this.log}`);
        return (await redisCommand(this.port, probe[0]!)) === probe[1];
      },
      10_000,
      () => `redis-server on ${this.port} did not start: ${this.log}`,
    );
  }

  /** Kills the process (SIGKILL by default: a crash) and waits for it to exit. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.proc;
    if (p === undefined) return;
    const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
    p.kill(signal);
    await exited;
    this.proc = undefined;
  }

  /** Stops the process (SIGSTOP): connections stay open and nothing answers, as with a hung server or a partition. */
  pause(): void {
    this.proc?.kill('SIGSTOP');
  }

  /** Lets a paused process go on (SIGCONT). */
  resume(): void {
    this.proc?.kill('SIGCONT');
  }

  /** Kills the process and removes its directory (when the helper created it). */
  async stop(): Promise<void> {
    await this.kill();
    if (this.ownDir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A master with Sentinels watching it (name `mymaster`, quorum 1), and optionally replicas that
 * the Sentinels can promote (down after 1 s, so a failover takes a few seconds).
 */
export class RedisSentinelSet {
  readonly master: RedisServer;
  readonly replicas: readonly RedisServer[];
  readonly sentinels: readonly RedisServer[];

  private constructor(
    master: RedisServer,
    replicas: RedisServer[],
    sentinels: RedisServer[],
    sentinelPassword: string | undefined,
  ) {
    this.master = master;
    this.replicas = replicas;
    this.sentinels = sentinels;
    this.sentinelPassword = sentinelPassword;
  }

  /** The Sentinels' own password (`requirepass` in their config), when they have one. */
  readonly sentinelPassword: string | undefined;

  static async start(sentinelCount = 1, replicaCount = 0, sentinelPassword?: string): Promise<RedisSentinelSet> {
    const master = await RedisServer.start();
    const replicas: RedisServer[] = [];
    const sentinels: RedisServer[] = [];
    try {
      for (let i = 0; i < replicaCount; i++) {
        const r = await RedisServer.start({ args: ['--replicaof', '127.0.0.1', String(master.port)] });
        replicas.push(r);
        await waitFor(
          async () => (await infoField(r.port, 'replication', 'master_link_status')) === 'up',
          10_000,
          () => `replica ${r.port} did not sync`,
        );
      }
      for (let i = 0; i < sentinelCount; i++) {
        const dir = mkdtempSync(join(tmpdir(), 'kevents-sentinel-'));
        const conf = join(dir, 'sentinel.conf');
        writeFileSync(
          conf,
          [
            'bind 127.0.0.1',
            `dir ${dir}`,
            'protected-mode no',
            `sentinel monitor mymaster 127.0.0.1 ${master.port} 1`,
            'sentinel down-after-milliseconds mymaster 1000',
            'sentinel failover-timeout mymaster 5000',
            ...(sentinelPassword === undefined ? [] : [`requirepass ${sentinelPassword}`]),
            '',
          ].join('\n'),
        );
        const sentinel = await RedisServer.start({
          dir,
          configFile: conf,
          sentinel: true,
          ...(sentinelPassword === undefined ? {} : { password: sentinelPassword }),
        });
        sentinels.push(sentinel);
        // A Sentinel learns the replicas from the master's INFO; it can fail over only once it knows them.
        await waitFor(
          async () => (await sentinelReplicaCount(sentinel.port, sentinelPassword)) >= replicaCount,
          15_000,
          () => `sentinel ${sentinel.port} did not discover the replicas`,
        );
      }
    } catch (err) {
      await master.stop();
      for (const r of replicas) await r.stop();
      for (const s of sentinels) await s.stop();
      throw err;
    }
    return new RedisSentinelSet(master, replicas, sentinels, sentinelPassword);
  }

  /** The port of the server the Sentinels name as master now. */
  currentMasterPort(): number | undefined {
    const r = spawnSync(
      'redis-cli',
      [
        '-p',
        String(this.sentinels[0].port),
        ...authArgs(this.sentinelPassword),
        'sentinel',
        'get-master-addr-by-name',
        'mymaster',
      ],
      { encoding: 'utf8', timeout: 2_000 },
    );
    const port = Number(r.stdout.trim().split('\n')[1]);
    return Number.isFinite(port) && port > 0 ? port : undefined;
  }

  /** `redis+sentinel://127.0.0.1:<p1>,127.0.0.1:<p2>/mymaster`. */
  get url(): string {
    return `redis+sentinel://${this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/mymaster`;
  }

  async stop(): Promise<void> {
    for (const s of this.sentinels) {
      await s.stop();
      rmSync(s.dir, { recursive: true, force: true });
    }
    for (const r of this.replicas) await r.stop();
    await this.master.stop();
  }
}

/**
 * Waits until at least one replica of the master on `port` has everything the master has
 * written so far (its acknowledged offset reaches the master's replication offset). `WAIT` on a
 * separate connection would not do: it only covers that connection's own writes.
 */
export async function waitReplicated(port: number, ms = 10_000): Promise<void> {
  const target = Number(infoField(port, 'replication', 'master_repl_offset'));
  await waitFor(
    () => {
      const r = spawnSync('redis-cli', ['-p', String(port), 'info', 'replication'], {
        encoding: 'utf8',
        timeout: 2_000,
      });
      return [...(r.stdout ?? '').matchAll(/^slave\d+:.*state=online,offset=(\d+)/gm)].some(
        (m) => Number(m[1]) >= target,
      );
    },
    ms,
    () => `no replica of ${port} reached offset ${target}`,
  );
}

/** One field of `INFO <section>` (undefined when absent or the server does not answer). */
function infoField(port: number, section: string, field: string): string | undefined {
  const r = spawnSync('redis-cli', ['-p', String(port), 'info', section], { encoding: 'utf8', timeout: 2_000 });
  return new RegExp(`^${field}:(.*)$`, 'm').exec(r.stdout ?? '')?.[1]?.trim();
}

/** redis-cli arguments that authenticate with `password`, if any. */
const authArgs = (password: string | undefined): string[] =>
  password === undefined ? [] : ['-a', password, '--no-auth-warning'];

/** How many replicas a Sentinel knows for `mymaster`. */
function sentinelReplicaCount(port: number, password?: string): number {
  const r = spawnSync('redis-cli', ['-p', String(port), ...authArgs(password), 'sentinel', 'replicas', 'mymaster'], {
    encoding: 'utf8',
    timeout: 2_000,
  });
  return (r.stdout.match(/^name$/gm) ?? []).length;
}

/** A Redis Cluster of `size` masters, each with `replicas` replicas, made with `redis-cli --cluster create`. */
export class RedisClusterSet {
  readonly nodes: readonly RedisServer[];

  private constructor(nodes: RedisServer[]) {
    this.nodes = nodes;
  }

  static async start(size = 3, replicas = 0): Promise<RedisClusterSet> {
    const nodes: RedisServer[] = [];
    try {
      for (let i = 0; i < size * (1 + replicas); i++) {
        nodes.push(
          await RedisServer.start({
            args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000'],
          }),
        );
      }
      const r = spawnSync(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...nodes.map((n) => `127.0.0.1:${n.port}`),
          '--cluster-replicas',
          String(replicas),
          '--cluster-yes',
        ],
        {
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      if (r.status !== 0) throw new Error(`redis-cli --cluster create failed: ${r.stdout}${r.stderr}`);
      await waitFor(
        async () =>
          (
            await Promise.all(nodes.map((n) => redisCommand(n.port, 'CLUSTER INFO', 500).then(() => clusterOk(n.port))))
          ).every(Boolean),
        15_000,
        () => 'the cluster did not become ok',
      );
    } catch (err) {
      for (const n of nodes) await n.stop();
      throw err;
    }
    return new RedisClusterSet(nodes);
  }

  /** `redis+cluster://127.0.0.1:<p1>,...`. */
  get url(): string {
    return `redis+cluster://${this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`;
  }

  /** The node that serves `key`'s slot now, from any live node's CLUSTER NODES (undefined while none does). */
  masterOf(key: string): RedisServer | undefined {
    for (const n of this.nodes) {
      if (!n.running) continue;
      const slot = Number(
        spawnSync('redis-cli', ['-p', String(n.port), 'cluster', 'keyslot', key], {
          encoding: 'utf8',
          timeout: 2_000,
        }).stdout.trim(),
      );
      const table =
        spawnSync('redis-cli', ['-p', String(n.port), 'cluster', 'nodes'], { encoding: 'utf8', timeout: 2_000 })
          .stdout ?? '';
      for (const line of table.split('\n')) {
        const [, addr = '', flags = '', , , , , state = '', ...ranges] = line.split(' ');
        if (!flags.includes('master') || flags.includes('fail') || state !== 'connected') continue;
        const serves = ranges.some((r) => {
          const [lo, hi = lo] = r.split('-').map(Number);
          return slot >= lo! && slot <= hi!;
        });
        if (serves) return this.nodes.find((x) => addr.startsWith(`127.0.0.1:${x.port}@`));
      }
      return undefined;
    }
    return undefined;
  }

  async stop(): Promise<void> {
    for (const n of this.nodes) await n.stop();
  }
}

async function clusterOk(port: number): Promise<boolean> {
  const r = spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8', timeout: 2_000 });
  return r.stdout.includes('cluster_state:ok');
}
