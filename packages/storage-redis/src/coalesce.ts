import type { Client } from './connection.js';

/** The part of a connection's socket that {@link coalesceWrites} uses. */
interface Corkable {
  cork(): void;
  uncork(): void;
  readonly destroyed: boolean;
}

const corked = new WeakSet<Corkable>();

/**
 * Holds a connection's writes until the event loop's check phase, so that the commands issued
 * while it serves the requests that arrived together (one per request in flight) go to Redis in
 * one system call instead of one each: on loopback every write also wakes redis-server, which
 * cost a create ~20 µs of CPU. Order and replies are unchanged (a corked socket keeps its writes
 * in order); the commands wait at most for the current turn of the event loop to end. A Cluster
 * client (one socket per node, behind the client) is left as it is.
 */
export function coalesceWrites(client: Client): void {
  const stream = (client as { stream?: Partial<Corkable> }).stream;
  if (stream === undefined || typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const socket = stream as Corkable;
  if (socket.destroyed || corked.has(socket)) return;
  socket.cork();
  corked.add(socket);
  setImmediate(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
