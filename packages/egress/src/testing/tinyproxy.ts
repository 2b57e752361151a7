import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import type { Server as TlsServer } from 'node:tls';
import { freePort, waitFor } from '@kevents/api/testing';

/**
 * Debian's tinyproxy (a real HTTP CONNECT proxy) on a loopback port, logging every request at
 * level Connect into `dir/tinyproxy.log`. `.ci/run` installs the package when it is missing.
 */
export class Tinyproxy {
  readonly port: number;
  readonly #child: ChildProcess;
  readonly #log: string;

  private constructor(child: ChildProcess, port: number, log: string) {
    this.#child = child;
    this.port = port;
    this.#log = log;
  }

  /** Starts `tinyproxy -d -c <conf>` and waits until it accepts connections. */
  static async start(dir: string): Promise<Tinyproxy> {
    const bin = ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy'].find((p) => existsSync(p)) ?? 'tinyproxy';
    const port = await freePort();
    const log = join(dir, 'tinyproxy.log');
    const conf = join(dir, 'tinyproxy.conf');
    writeFileSync(log, '');
    writeFileSync(
      conf,
      [
        `Port ${port}`,
        'Listen 127.0.0.1',
        'Timeout 60',
        `LogFile "${log}"`,
        'LogLevel Connect',
        'MaxClients 20',
        'Allow 127.0.0.1',
        'DisableViaHeader Yes',
        '',
      ].join('\n'),
    );
    const child = spawn(bin, ['-d', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const t = new Tinyproxy(child, port, log);
    const accepts = (): Promise<boolean> =>
      new Promise<boolean>((resolve) => {
        const s = netConnect({ host: '127.0.0.1', port }, () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
    try {
      await waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`tinyproxy exited ${child.exitCode}: ${stderr}`);
          return accepts();
        },
        10_000,
        () => `tinyproxy did not listen on ${port}: ${stderr}`,
        { intervalMs: 50 },
      );
    } catch (err) {
      await t.close();
      throw err;
    }
    return t;
  }

  /** The `CONNECT` lines of its log (`Connect (file descriptor 7): ...` and the request lines). */
  connectRequests(): string[] {
    return readFileSync(this.#log, 'utf8')
      .split('\n')
      .filter((l) => /CONNECT /.test(l));
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.kill('SIGTERM');
    await exited;
  }
}

/**
 * A TLS front that requires a client certificate from `ca` (mTLS) and pipes each connection to
 * `127.0.0.1:<upstreamPort>` (tinyproxy does not speak TLS itself). Records the client CNs.
 */
export class MutualTlsFront {
  readonly clients: string[] = [];
  readonly #server: TlsServer;
  readonly #sockets = new Set<Socket>();

  private constructor(server: TlsServer) {
    this.#server = server;
  }

  static async start(tls: { cert: string; key: string; ca: string }, upstreamPort: number): Promise<MutualTlsFront> {
    const server = createTlsServer({ ...tls, requestCert: true, rejectUnauthorized: true });
    const front = new MutualTlsFront(server);
    server.on('secureConnection', (s) => {
      const cn = s.getPeerCertificate().subject?.CN;
      front.clients.push(typeof cn === 'string' ? cn : '');
      const up = netConnect({ host: '127.0.0.1', port: upstreamPort });
      for (const x of [s, up]) {
        front.#sockets.add(x);
        x.on('close', () => front.#sockets.delete(x));
        x.on('error', () => x.destroy());
      }
      s.pipe(up).pipe(s);
      s.once('close', () => up.destroy());
      up.once('close', () => s.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return front;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
