import type { Client } from './connection.js';

/** The part of a connection's socket that {@link coalesceWrites} uses. */
interface Corkable {
  cork(): void;
  uncork(): void;
  readonly destroyed: boolean;
}

/**
 * How many commands a corked connection holds before it sends them without waiting for the turn
 * to end. With 32 clients a turn queues up to 32 creates; sent in one write at the end of the
 * turn, Redis would sit idle while kevents prepares them all and kevents idle while Redis runs
 * them. Sending every 8 lets the two overlap (docs/benchmarks.md, session 8: creates/s +15% at
 * the same CPU per create; 2 and 1 cost Redis more CPU per create, 16 and 4 measured like 8).
 */
export const coalesceBatch = 8;

/** Connections corked now, with the commands queued since. */
const queued = new WeakMap<Corkable, number>();

/**
 * Holds a connection's writes until the event loop's check phase, or until
 * {@link coalesceBatch} commands are queued, so that the commands issued while it serves the
 * requests that arrived together (one per request in flight) go to Redis in a few system calls
 * instead of one each: on loopback every write also wakes redis-server, which cost a create
 * ~20 µs of CPU. Call it before issuing each command. Order and replies are unchanged (a corked
 * socket keeps its writes in order); a command waits at most for the current turn of the event
 * loop to end. A Cluster client (one socket per node, behind the client) is left as it is.
 */
export function coalesceWrites(client: Client): void {
  const stream = (client as { stream?: Partial<Corkable> }).stream;
  if (stream === undefined || typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const socket = stream as Corkable;
  if (socket.destroyed) return;
  const n = queued.get(socket);
  if (n === undefined) {
    socket.cork();
    queued.set(socket, 1);
    setImmediate(flush, socket);
    return;
  }
  queued.set(socket, n + 1);
  // The command is written right after this call returns: send the batch once it is.
  if (n + 1 === coalesceBatch) process.nextTick(flush, socket);
}

function flush(socket: Corkable): void {
  if (!queued.delete(socket)) return;
  socket.uncork();
}
