import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: the port the system gave a listener on port 0,
 * closed again before this resolves.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}
