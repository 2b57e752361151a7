import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of PostgreSQL's programs (initdb, pg_ctl), the newest installed; undefined when none is. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0]!, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A PostgreSQL server of its own for the tests that stop or restart it (never the machine's):
 * `initdb` into a temp folder and `pg_ctl` on a free loopback port, with trust authentication.
 * As root, the server runs as the `postgres` user (initdb refuses root).
 */
export class PostgresProcess {
  readonly port: number;
  readonly dir: string;
  private readonly bin: string;
  private readonly asUser: string[];

  private constructor(bin: string, dir: string, port: number, asUser: string[]) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.asUser = asUser;
  }

  static async start(): Promise<PostgresProcess> {
    const bin = postgresBinDir();
    if (bin === undefined) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin)');
    const dir = mkdtempSync(join(tmpdir(), 'kevents-pg-'));
    const asUser: string[] = [];
    if (process.getuid?.() === 0) {
      const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      if (id.status !== 0) throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
      chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
      chmodSync(dir, 0o700);
      asUser.push('runuser', '-u', 'postgres', '--');
    }
    const p = new PostgresProcess(bin, dir, await freePort(), asUser);
    p.run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    p.startServer();
    return p;
  }

  private run(program: string, args: string[]): string {
    const cmd = [...this.asUser, join(this.bin, program), ...args];
    const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${program} failed (${r.status}): ${r.stdout}${r.stderr}`);
    return r.stdout;
  }

  private startServer(): void {
    this.run('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'log'),
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=on`,
      'start',
    ]);
  }

  /** `postgres://postgres@127.0.0.1:<port>/<db>`. */
  url(db = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${db}`;
  }

  /** Stops the server: `immediate` is a crash (no checkpoint), `fast` a clean shutdown. */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', mode, '-w', 'stop']);
  }

  /** Starts it again (after {@link stop}). */
  restart(): void {
    this.startServer();
  }

  /** Stops the server and removes its folder. */
  destroy(): void {
    try {
      this.stop('immediate');
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
