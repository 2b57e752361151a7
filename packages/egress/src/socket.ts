import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions, TLSSocket } from 'node:tls';

/**
 * Opens a TCP or Unix socket (plain, or TLS when `tls` is given) and resolves once it is
 * connected (after the handshake for TLS). Aborting `signal` destroys it and rejects with the
 * signal's reason.
 */
export function openSocket(
  target: { host: string; port: number } | { path: string },
  signal: AbortSignal,
  tls?: ConnectionOptions,
): Promise<Socket | TLSSocket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const socket: Socket =
      tls !== undefined
        ? tlsConnect({ ...tls, ...target })
        : netConnect({ ...target, ...('host' in target ? { keepAlive: true, keepAliveInitialDelay: 30_000 } : {}) });
    const ready = tls !== undefined ? 'secureConnect' : 'connect';
    const cleanup = (): void => {
      socket.removeListener(ready, onReady);
      socket.removeListener('error', onError);
      signal.removeEventListener('abort', onAbort);
    };
    const onReady = (): void => {
      cleanup();
      resolve(socket);
    };
    const onError = (e: Error): void => {
      cleanup();
      socket.destroy();
      reject(e);
    };
    const onAbort = (): void => {
      cleanup();
      socket.destroy();
      reject(signal.reason);
    };
    socket.once(ready, onReady);
    socket.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
