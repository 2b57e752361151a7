import { rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { proxyServiceClient } from '../konnectivity/proto.js';
import type { Packet, PacketType } from '../konnectivity/proto.js';

/** How the server answers a DIAL_REQ. */
export type KonnectivityServerMode =
  /** Dial the address and answer DIAL_RSP with a connectID (or the dial error). */
  | 'forward'
  /** Never answer (the client's backstop or context ends the dial). */
  | 'silent'
  /** Answer DIAL_CLS for the request's random. */
  | 'dialclose';

/**
 * A konnectivity proxy server (the `ProxyService` of apiserver-network-proxy's client proto)
 * written with @grpc/grpc-js on a Unix socket, for tests: it dials TCP destinations for the
 * client and records every packet it receives.
 */
export class KonnectivityServer {
  /** Packet types received from clients, in order. */
  readonly received: PacketType[] = [];
  /** The addresses of every DIAL_REQ. */
  readonly dials: string[] = [];
  mode: KonnectivityServerMode = 'forward';
  readonly #server: Server;
  readonly #path: string;
  #nextID = 1;
  readonly #upstreams = new Set<Socket>();

  private constructor(server: Server, path: string) {
    this.#server = server;
    this.#path = path;
  }

  static async start(path: string): Promise<KonnectivityServer> {
    rmSync(path, { force: true });
    const server = new Server();
    const k = new KonnectivityServer(server, path);
    server.addService(proxyServiceClient().service, {
      Proxy: (call: ServerDuplexStream<Packet, Packet>) => k.#serve(call),
    });
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`unix:${path}`, ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())),
    );
    return k;
  }

  #serve(call: ServerDuplexStream<Packet, Packet>): void {
    const conns = new Map<string, Socket>();
    const send = (p: Packet): void => {
      if (!call.writableEnded && !call.destroyed) call.write(p);
    };
    call.on('data', (p: Packet) => {
      const type = p.type ?? 'DIAL_REQ';
      this.received.push(type);
      switch (type) {
        case 'DIAL_REQ': {
          const r = p.dialRequest ?? {};
          const random = r.random ?? '0';
          this.dials.push(r.address ?? '');
          if (this.mode === 'silent') return;
          if (this.mode === 'dialclose') {
            send({ type: 'DIAL_CLS', closeDial: { random } });
            return;
          }
          const address = r.address ?? '';
          const colon = address.lastIndexOf(':');
          const s = netConnect({
            host: address.slice(0, colon).replace(/^\[(.*)\]$/, '$1'),
            port: Number(address.slice(colon + 1)),
          });
          this.#upstreams.add(s);
          const id = String(this.#nextID++);
          s.once('connect', () => {
            conns.set(id, s);
            send({ type: 'DIAL_RSP', dialResponse: { random, connectID: id } });
            s.on('data', (data: Buffer) => send({ type: 'DATA', data: { connectID: id, data } }));
          });
          s.once('error', (e) => {
            if (!conns.has(id)) send({ type: 'DIAL_RSP', dialResponse: { random, error: e.message } });
          });
          s.once('close', () => {
            this.#upstreams.delete(s);
            if (conns.delete(id)) send({ type: 'CLOSE_RSP', closeResponse: { connectID: id } });
          });
          return;
        }
        case 'DATA': {
          const d = p.data ?? {};
          conns.get(d.connectID ?? '0')?.write(d.data ?? Buffer.alloc(0));
          return;
        }
        case 'CLOSE_REQ': {
          const id = p.closeRequest?.connectID ?? '0';
          const s = conns.get(id);
          conns.delete(id);
          s?.destroy();
          send({ type: 'CLOSE_RSP', closeResponse: { connectID: id, ...(s ? {} : { error: 'unknown connectID' }) } });
          return;
        }
        default:
          return;
      }
    });
    const end = (): void => {
      for (const s of conns.values()) s.destroy();
      conns.clear();
      if (!call.writableEnded) call.end();
    };
    call.on('end', end);
    call.on('error', end);
    call.on('cancelled', end);
  }

  /** Stops the server at once (a proxy that is down). */
  async close(): Promise<void> {
    for (const s of this.#upstreams) s.destroy();
    this.#server.forceShutdown();
    rmSync(this.#path, { force: true });
  }
}
