import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';

/** Opens one connection to the collector (the egress `controlplane` dialer, or a plain connect). */
export type CollectorDial = (options: { signal: AbortSignal }) => Duplex | Promise<Duplex>;

/** A private Unix socket whose every connection is carried by a {@link CollectorDial}. */
export interface DialBridge {
  /** The exporter's URL: `unix:///tmp/kevents-otlp-.../otlp.sock`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * @grpc/grpc-js has no custom-dialer hook (Go's `grpc.WithContextDialer`), so the exporter is
 * pointed at a private Unix socket (mode 0700 directory) and each connection grpc-js opens there
 * is piped into a connection from `dial`: the egress tunnel, or an abstract socket grpc-js
 * cannot reach itself. gRPC runs end to end through it unchanged (HTTP/2 inside the tunnel).
 */
export async function startDialBridge(dial: CollectorDial, timeoutMs = 10_000): Promise<DialBridge> {
  const dir = await mkdtemp(join(tmpdir(), 'kevents-otlp-'));
  const path = join(dir, 'otlp.sock');
  const open = new Set<Socket | Duplex>();
  const server = createServer((local) => {
    open.add(local);
    local.once('close', () => open.delete(local));
    local.on('error', () => local.destroy());
    const signal = AbortSignal.timeout(timeoutMs);
    Promise.resolve()
      .then(() => dial({ signal }))
      .then(
        (remote) => {
          if (local.destroyed) return void remote.destroy();
          open.add(remote);
          remote.once('close', () => {
            open.delete(remote);
            local.destroy();
          });
          remote.on('error', () => remote.destroy());
          local.once('close', () => remote.destroy());
          local.pipe(remote);
          remote.pipe(local);
        },
        () => local.destroy(),
      );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(path, () => ok());
  });
  return {
    url: `unix://${path}`,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
