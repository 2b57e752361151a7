import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '@kevents/storage-redis/testing';

/** The built app this package ships: `apps/apiserver/dist/main.js`. */
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** A built kevents-apiserver (`apps/apiserver/dist/main.js`) child process serving plain HTTP on loopback. */
export class ApiserverProcess {
  readonly port: number;
  private readonly proc: ChildProcess;
  private output = '';

  private constructor(port: number, proc: ChildProcess) {
    this.port = port;
    this.proc = proc;
    proc.stdout?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-8000)));
    proc.stderr?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-8000)));
  }

  /**
   * Starts `node apps/apiserver/dist/main.js --storage=<storage>` and waits until `healthPath`
   * answers 200 (`/healthz` includes the store; `/livez` does not). Fails clearly without a
   * build, and kills the process when it does not come up.
   */
  static async start(
    storage: string,
    extraArgs: readonly string[] = [],
    healthPath = '/healthz',
  ): Promise<ApiserverProcess> {
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
    const port = await freePort();
    const proc = spawn(
      process.execPath,
      [main, `--insecure-port=${port}`, '--secure-port=0', `--storage=${storage}`, ...extraArgs],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    live.add(proc);
    proc.once('exit', () => live.delete(proc));
    const a = new ApiserverProcess(port, proc);
    try {
      await waitFor(
        async () => {
          if (proc.exitCode !== null) throw new Error(`apiserver exited (${proc.exitCode}): ${a.output}`);
          return (
            (await fetch(`${a.url}${healthPath}`).then(
              (r) => r.status,
              () => 0,
            )) === 200
          );
        },
        20_000,
        () => `apiserver on ${port} did not start: ${a.output}`,
      );
    } catch (err) {
      await a.stop();
      throw err;
    }
    return a;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What the process printed (the last 8 kB). */
  get log(): string {
    return this.output;
  }

  /** Sends `signal` to the process (it handles SIGTERM and SIGINT by shutting down gracefully). */
  kill(signal: NodeJS.Signals): void {
    this.proc.kill(signal);
  }

  /** Resolves with the exit code (or the signal that killed it) once the process has exited. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null)
      return Promise.resolve({ code: this.proc.exitCode, signal: this.proc.signalCode });
    return new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** SIGTERM, then SIGKILL after 5 s. */
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGTERM');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(t);
  }
}
