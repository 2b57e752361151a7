import { rmSync } from 'node:fs';
import { createServer as createNetServer, connect as netConnect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { TLSSocket } from 'node:tls';

/** How the proxy answers a CONNECT. */
export type ConnectProxyMode =
  /** Dial the target and answer `200 Connection established`. */
  | 'forward'
  /** Answer `403 Forbidden`. */
  | 'refuse'
  /** Read the request and never answer. */
  | 'hang'
  /** Answer 200 and 5 extra bytes at once. */
  | 'extra';

/** One CONNECT the proxy received. */
export interface ConnectRecord {
  /** The request head exactly as received (up to the blank line). */
  readonly head: string;
  readonly target: string;
  /** The client certificate's Common Name (TLS listeners). */
  readonly clientCN?: string;
}

/**
 * A small but real HTTP CONNECT proxy for tests: on a Unix socket, or on TCP with TLS that
 * requires a client certificate from `ca` (mTLS). It records every CONNECT.
 */
export class ConnectProxy {
  readonly connects: ConnectRecord[] = [];
  mode: ConnectProxyMode = 'forward';
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #path: string | undefined;

  private constructor(server: Server, path?: string) {
    this.#server = server;
    this.#path = path;
  }

  /** Listens on the Unix socket `path` (plain), or on 127.0.0.1 with mTLS when `tls` is given. */
  static async start(o: { path: string } | { tls: { cert: string; key: string; ca: string } }): Promise<ConnectProxy> {
    const server =
      'path' in o ? createNetServer() : createTlsServer({ ...o.tls, requestCert: true, rejectUnauthorized: true });
    const proxy = new ConnectProxy(server, 'path' in o ? o.path : undefined);
    server.on('path' in o ? 'connection' : 'secureConnection', (s: Socket) => proxy.#handle(s));
    if ('path' in o) rmSync(o.path, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if ('path' in o) server.listen(o.path, resolve);
      else server.listen(0, '127.0.0.1', resolve);
    });
    return proxy;
  }

  /** `127.0.0.1:<port>` of a TLS listener. */
  get address(): string {
    const a = this.#server.address() as AddressInfo;
    return `127.0.0.1:${a.port}`;
  }

  #handle(client: Socket): void {
    this.#sockets.add(client);
    client.on('close', () => this.#sockets.delete(client));
    client.on('error', () => client.destroy());
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.removeListener('data', onData);
      client.pause();
      const head = buf.subarray(0, end + 4).toString('latin1');
      const rest = buf.subarray(end + 4);
      const m = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head);
      const peer = (client as TLSSocket).getPeerCertificate?.();
      const cn = peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : undefined;
      this.connects.push({ head, target: m?.[1] ?? '', ...(cn ? { clientCN: cn } : {}) });
      if (!m) {
        client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      if (this.mode === 'refuse') {
        client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      if (this.mode === 'hang') return;
      const target = m[1]!;
      const colon = target.lastIndexOf(':');
      const upstream = netConnect({
        host: target.slice(0, colon).replace(/^\[(.*)\]$/, '$1'),
        port: Number(target.slice(colon + 1)),
      });
      this.#sockets.add(upstream);
      upstream.on('close', () => this.#sockets.delete(upstream));
      upstream.once('connect', () => {
        client.write(`HTTP/1.1 200 Connection established\r\n\r\n${this.mode === 'extra' ? 'extra' : ''}`);
        if (rest.length) upstream.write(rest);
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.once('error', () => {
        if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      });
      client.once('close', () => upstream.destroy());
    };
    client.on('data', onData);
  }

  /** Stops listening and ends every connection (a proxy that is down). */
  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    if (this.#path) rmSync(this.#path, { force: true });
  }
}
