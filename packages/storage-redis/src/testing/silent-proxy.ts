import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a Redis port that can make its open connections go
 * silent: nothing is forwarded either way and nothing is closed, as when a host vanishes or the
 * network partitions. Connections made afterwards are forwarded normally.
 */
export class SilentProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private readonly silenced = new Set<Socket>();

  private constructor(server: Server) {
    this.server = server;
  }

  static async start(targetPort: number): Promise<SilentProxy> {
    const server = createServer();
    const proxy = new SilentProxy(server);
    server.on('connection', (client: Socket) => proxy.forward(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  private forward(client: Socket, targetPort: number): void {
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** `redis://127.0.0.1:<proxy port>`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Every open connection stops forwarding (both ways) without being closed. */
  silenceOpenConnections(): void {
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      this.silenced.add(client).add(upstream);
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    for (const socket of this.silenced) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
