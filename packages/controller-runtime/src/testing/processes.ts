import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort, waitFor } from '@kevents/api/testing';

/**
 * Test helpers that run real components as child processes: a built kevents-apiserver and
 * redis-server. Every child is killed when the test process exits.
 */

/** The environment variable that names kevents-apiserver's entry script when no `main` option does. */
export const apiserverMainEnv = 'KEVENTS_APISERVER_MAIN';

/**
 * The entry script {@link ApiserverChild} runs: `main` when given, else the file named by
 * `KEVENTS_APISERVER_MAIN`, else the `kevents-apiserver` bin of the `kevents-apiserver` package as
 * Node resolves it from this module (in the kevents repository, the workspace link to
 * `apps/apiserver`). The package is not a dependency: a project that installed this one from a
 * registry passes `main` (or sets the variable) to run its own build. Throws when none is found.
 */
export function apiserverMain(main?: string): string {
  if (main) return resolve(main);
  const fromEnv = process.env[apiserverMainEnv];
  if (fromEnv) return resolve(fromEnv);
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve('kevents-apiserver/package.json');
  } catch {
    throw new Error(
      `kevents-apiserver is not installed here: pass ApiserverChild.startWith({ main }) or set ${apiserverMainEnv} to its main.js`,
    );
  }
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin?.[
    'kevents-apiserver'
  ];
  if (!bin) throw new Error(`${manifest} declares no kevents-apiserver bin`);
  return join(dirname(manifest), bin);
}

/** Options of {@link ApiserverChild.startWith}. */
export interface ApiserverChildOptions {
  /** The `--storage` flag (default `memory`). */
  readonly storage?: string;
  /** More flags. */
  readonly args?: readonly string[];
  /** The plain-HTTP port (default: a free one). */
  readonly port?: number;
  /** kevents-apiserver's entry script (default: {@link apiserverMain}'s search). */
  readonly main?: string;
}

/**
 * The environment for a Node child that runs a built binary: `env` (default `process.env`) with
 * `NODE_COMPILE_CACHE` (Node's on-disk V8 code cache, nodejs.org/api/module.html#module-compile-cache)
 * pointed at one folder in the system's temp folder unless `env` sets it. The code run is the same;
 * a start after the first skips compiling what an earlier one compiled: kevents-apiserver reaches
 * /healthz in ~1.0 s instead of ~1.6 s, kevents-controller starts its controllers in ~0.7 s
 * instead of ~1.0 s (a loaded 2-core VM). `NODE_DISABLE_COMPILE_CACHE=1` in `env` turns it off.
 */
export function nodeChildEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env['NODE_COMPILE_CACHE'] !== undefined) return env;
  return { ...env, NODE_COMPILE_CACHE: join(tmpdir(), 'kevents-node-compile-cache') };
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** A child process whose output is kept (the last 64 kB) and readable line by line. */
export class ChildRun {
  readonly proc: ChildProcess;
  private out = '';
  constructor(proc: ChildProcess) {
    this.proc = proc;
    live.add(proc);
    proc.once('exit', () => live.delete(proc));
    const keep = (d: Buffer): void => {
      this.out = (this.out + d.toString()).slice(-65_536);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
  }
  /** Complete lines printed so far. */
  get output(): string {
    return this.out.slice(0, this.out.lastIndexOf('\n') + 1);
  }
  get exited(): boolean {
    return this.proc.exitCode !== null || this.proc.signalCode !== null;
  }
  /** Resolves with the exit code (or signal name) once the process has exited. */
  waitExit(): Promise<number | string> {
    if (this.exited) return Promise.resolve(this.proc.exitCode ?? this.proc.signalCode!);
    return new Promise((r) => this.proc.once('exit', (code, sig) => r(code ?? sig!)));
  }
  /** SIGKILL, then wait for the exit. */
  async kill(): Promise<void> {
    if (this.exited) return;
    const e = this.waitExit();
    this.proc.kill('SIGKILL');
    await e;
  }
  /** SIGTERM; SIGKILL after `graceMs`. Resolves with the exit code. */
  async stop(graceMs = 10_000): Promise<number | string> {
    if (this.exited) return this.proc.exitCode ?? this.proc.signalCode!;
    const e = this.waitExit();
    this.proc.kill('SIGTERM');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    const code = await e;
    clearTimeout(t);
    return code;
  }
}

/** A running kevents-apiserver child serving plain HTTP on loopback. */
export class ApiserverChild extends ChildRun {
  readonly port: number;
  readonly storage: string;
  readonly args: readonly string[];
  /** The entry script this child runs. */
  readonly main: string;
  private constructor(proc: ChildProcess, port: number, storage: string, args: readonly string[], main: string) {
    super(proc);
    this.port = port;
    this.storage = storage;
    this.args = args;
    this.main = main;
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** Starts `kevents-apiserver --storage=<storage>` (on `port` when given) and waits for /healthz. */
  static start(storage = 'memory', args: readonly string[] = [], port?: number): Promise<ApiserverChild> {
    return ApiserverChild.startWith({ storage, args, ...(port === undefined ? {} : { port }) });
  }
  /** {@link ApiserverChild.start} with every option, the entry script included. */
  static async startWith(options: ApiserverChildOptions = {}): Promise<ApiserverChild> {
    const main = apiserverMain(options.main);
    const storage = options.storage ?? 'memory';
    const args = options.args ?? [];
    if (!existsSync(main)) throw new Error(`${main} is missing: build kevents-apiserver first (\`npm run build\`)`);
    const p = options.port ?? (await freePort());
    const proc = spawn(
      process.execPath,
      [main, `--insecure-port=${p}`, '--secure-port=0', `--storage=${storage}`, '--log-level=warn', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'], env: nodeChildEnv() },
    );
    const a = new ApiserverChild(proc, p, storage, args, main);
    try {
      await waitFor(
        async () => {
          if (a.exited) throw new Error(`apiserver exited: ${a.output}`);
          return (
            (await fetch(`${a.url}/healthz`).then(
              (r) => r.status,
              () => 0,
            )) === 200
          );
        },
        20_000,
        () => `apiserver did not start: ${a.output}`,
      );
    } catch (err) {
      await a.kill();
      throw err;
    }
    return a;
  }
  /** Stops this server and starts the same one again on the same port. */
  async restart(): Promise<ApiserverChild> {
    await this.stop();
    return ApiserverChild.startWith({ storage: this.storage, args: this.args, port: this.port, main: this.main });
  }
}

/** True when a `redis-server` binary is on the PATH. */
export function haveRedisServer(): boolean {
  return (process.env['PATH'] ?? '').split(':').some((d) => existsSync(join(d, 'redis-server')));
}

/** A throwaway redis-server on a free port, no persistence. */
export class RedisChild extends ChildRun {
  readonly port: number;
  private constructor(proc: ChildProcess, port: number) {
    super(proc);
    this.port = port;
  }
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  static async start(): Promise<RedisChild> {
    const dir = mkdtempSync(join(tmpdir(), 'kevents-redis-'));
    // A port found free can be taken by another process before redis-server binds it: try another.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const proc = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const r = new RedisChild(proc, port);
      const taken = () => r.output.includes('Address already in use');
      await waitFor(
        () => taken() || /Ready to accept connections/.test(r.output),
        10_000,
        () => `redis did not start: ${r.output}`,
      );
      if (!taken()) return r;
      proc.kill('SIGKILL');
      if (attempt >= 5) throw new Error(`redis did not start: ${r.output}`);
    }
  }
}
