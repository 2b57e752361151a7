import { Server as HttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { WatchHub } from '../watch/watch-hub.js';
import type { ServerLifecycle } from './lifecycle.js';

/** What {@link gracefulShutdown} needs: the process's listeners, their connections, its store and the limits. */
export interface ShutdownOptions {
  readonly lifecycle: ServerLifecycle;
  readonly watches: WatchHub;
  /** Every listener of the process (they share `lifecycle` and `watches`). */
  readonly listeners: readonly FastifyInstance[];
  /** Every open connection of those listeners (kept up to date by the caller). */
  readonly connections: ReadonlySet<Socket>;
  /** Closed last, once no request can reach it any more. */
  readonly storage: { close(): Promise<void> };
  readonly log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  readonly signal?: string;
  /** `--shutdown-delay-duration`: keep serving (with `/readyz` failing) this long first. */
  readonly delayMs: number;
  /** `--request-timeout`: the longest requests in flight may take to finish. */
  readonly requestTimeoutMs: number;
  /** `--shutdown-watch-termination-grace-period`: extra time for ended watches to reach their clients. */
  readonly watchGraceMs: number;
  /** `--shutdown-send-retry-after`: keep listening (answering 429) until the requests in flight are done. */
  readonly sendRetryAfter: boolean;
}

/** How a shutdown went. */
export interface ShutdownOutcome {
  /** Every request in flight finished within the grace period. */
  readonly drained: boolean;
  /** Requests in flight when the grace period ran out (cut). */
  readonly cutRequests: number;
  /** Watches ended. */
  readonly endedWatches: number;
  /** Connections still open at the very end (cut). */
  readonly cutConnections: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves once `connections` is empty, or after `ms`. */
async function connectionsClosed(connections: ReadonlySet<Socket>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (connections.size > 0 && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, Math.min(50, deadline - Date.now())));
      for (const s of connections) {
        s.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        break;
      }
    });
  }
}

/**
 * kube-apiserver's graceful termination, in order:
 *
 * 1. `/readyz` fails at once (`[-]shutdown failed`); everything else is served normally for
 *    `delayMs`, so load balancers stop sending traffic here.
 * 2. Stop accepting: the listeners close (unless `sendRetryAfter`: they stay open and answer 429
 *    with `Retry-After` until the drain is done); a request that still arrives on an open
 *    connection gets that 429 too, with `Connection: close`; every answer from now on closes its
 *    connection; every watch is ended cleanly (the client sees the end of its stream and
 *    watches again elsewhere).
 * 3. Requests in flight finish, for up to `requestTimeoutMs`.
 * 4. Connections still open get up to `watchGraceMs` more to deliver their last bytes; then
 *    whatever is left is cut, the store closes, and the caller exits 0.
 */
export async function gracefulShutdown(o: ShutdownOptions): Promise<ShutdownOutcome> {
  o.lifecycle.initiateShutdown();
  o.log?.info(
    { signal: o.signal, delayMs: o.delayMs },
    `shutting down: /readyz fails; serving ${o.delayMs} ms more before draining`,
  );
  if (o.delayMs > 0) await sleep(o.delayMs);

  o.lifecycle.stopAccepting();
  // Only the listening socket closes: an HTTP/1.1 server's close() would also drop its idle
  // keep-alive connections, racing a client that is sending its next request on one. Those stay
  // open; a request on them is answered 429 with `Connection: close`, and they close at the end.
  // (An HTTP/2 server's close() sends GOAWAY, which clients handle without losing a request.)
  const stopListening = (): void => {
    for (const app of o.listeners) {
      const server = app.server as NetServer;
      if (!server.listening) continue;
      if (server instanceof HttpServer) NetServer.prototype.close.call(server, () => undefined);
      else server.close(() => undefined);
    }
  };
  if (!o.sendRetryAfter) stopListening();
  const endedWatches = o.watches.size;
  const watchesEnded = o.watches.closeAll(o.requestTimeoutMs + o.watchGraceMs);
  const inFlight = o.lifecycle.inFlight;
  o.log?.info(
    { inFlight, watches: endedWatches, requestTimeoutMs: o.requestTimeoutMs },
    `draining: ${inFlight} request(s) in flight, ${endedWatches} watch(es) ended`,
  );

  const drained = await o.lifecycle.drained(o.requestTimeoutMs);
  const cutRequests = o.lifecycle.inFlight;
  if (!drained) o.log?.warn({ cutRequests }, `grace period over: cutting ${cutRequests} request(s) still in flight`);
  if (o.sendRetryAfter) stopListening();
  for (const app of o.listeners) (app.server as { closeIdleConnections?: () => void }).closeIdleConnections?.();

  await connectionsClosed(o.connections, drained ? o.watchGraceMs : 0);
  const cutConnections = o.connections.size;
  for (const s of o.connections) s.destroy();
  await watchesEnded;
  await Promise.all(o.listeners.map((app) => app.close()));
  await o.storage.close();
  return { drained, cutRequests, endedWatches, cutConnections };
}
