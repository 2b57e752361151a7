/**
 * The entry point of the SQLite writer thread (see {@link SqliteThreadBackend}): opens the
 * database named in `workerData`, answers `{ ready: true }` (or `{ openError }`), then runs each
 * `{ id, method, args }` message as a {@link SqliteBackend} call, in order, and answers
 * `{ id, value }` or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteBackend, type SqliteOptions } from './sqlite.js';
import { encodeThreadError, type ThreadCall, type ThreadReply } from './sqlite-thread-protocol.js';

const port = parentPort!;
let opened: SqliteBackend | undefined;
try {
  opened = await SqliteBackend.open(workerData as SqliteOptions);
  port.postMessage({ ready: true });
} catch (err) {
  // Answered, not thrown: a thrown error would also reach the parent as the Worker's 'error'
  // event, after the parent stopped listening for one (an uncaught error there). With the port
  // closed and nothing else to do, the thread ends.
  port.postMessage({ openError: (err as Error).message });
  port.close();
}

if (opened !== undefined) {
  const backend = opened;
  port.on('message', (call: ThreadCall) => {
    const answer = (reply: ThreadReply): void => port.postMessage(reply);
    let result: Promise<unknown>;
    try {
      result = (backend[call.method] as (...a: unknown[]) => Promise<unknown>).apply(backend, [...call.args]);
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      (value) => answer({ id: call.id, value }),
      (err: unknown) => answer({ id: call.id, error: encodeThreadError(err) }),
    );
    if (call.method === 'close') void result.finally(() => port.close());
  });
}
