import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy to a target port that a test can cut: `cut()` destroys every open
 * connection and refuses new ones until `restore()`. It breaks a client's watch without touching
 * the server. `freeze()` makes the server stop answering instead (a hung host): open connections
 * pass no more bytes and new ones are accepted but not forwarded, until `thaw()`.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private down = false;
  private frozen = false;
  private held: (() => void)[] = [];
  port = 0;

  private constructor(targetPort: number) {
    this.server = createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      if (this.frozen) {
        client.pause();
        this.sockets.add(client);
        client.on('error', () => client.destroy());
        this.held.push(() => this.forward(client, targetPort));
        return;
      }
      this.forward(client, targetPort);
    });
  }

  private forward(client: Socket, targetPort: number): void {
    if (client.destroyed) return;
    client.resume();
    const upstream = connect(targetPort, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream).pipe(client);
  }

  /** The server stops answering: bytes stop flowing both ways; new connections hang. */
  freeze(): void {
    this.frozen = true;
    for (const s of this.sockets) s.pause();
  }

  /** Undoes {@link TcpProxy.freeze}: held bytes and connections go through. */
  thaw(): void {
    this.frozen = false;
    for (const s of this.sockets) s.resume();
    for (const f of this.held.splice(0)) f();
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const p = new TcpProxy(targetPort);
    await new Promise<void>((r) => p.server.listen(0, '127.0.0.1', () => r()));
    p.port = (p.server.address() as { port: number }).port;
    return p;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  cut(): void {
    this.down = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
