import { StorageError } from '@kevents/storage';
import { toStorageError, type Client } from './connection.js';

/** Errors of commands that were sent and got no answer: a write among them may have been applied. */
const unanswered = new WeakSet<StorageError>();

/** Whether `err` is an Unavailable error of a command that reached Redis (or may have) and got no answer. */
export function isUnanswered(err: unknown): boolean {
  return err instanceof StorageError && unanswered.has(err);
}

/** Marks `err` as the error of a command that may have reached Redis; returns it. */
export function markUnanswered(err: StorageError): StorageError {
  if (err.code === 'Unavailable') unanswered.add(err);
  return err;
}

/**
 * What ioredis says when a command it sent (or may have sent) got no answer: its own command
 * timeout, and the connection closing with the command in flight (in a Cluster also after its
 * redirections ran out with that as the last error).
 */
const noAnswer =
  /^(Command timed out|Connection is closed\.|Too many Cluster redirections\. Last error: Error: (Command timed out|Connection is closed\.))/;

/** {@link toStorageError}, marking the errors of commands that may have reached Redis ({@link isUnanswered}). */
export function commandError(err: unknown, client: Client): StorageError {
  const mapped = toStorageError(err, client);
  const message = (err as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && noAnswer.test(message) ? markUnanswered(mapped) : mapped;
}

/**
 * The time one storage request may spend waiting for Redis: `commandTimeoutMs`, shared by every
 * command the request sends (a guaranteed update's read and write and its retries after a
 * conflict, every chunk of a list, a script sent again after `NOSCRIPT`). A command that would
 * start with nothing left fails at once, without being sent; a command still unanswered when the
 * time runs out fails with Unavailable at that moment, whatever ioredis is doing with it
 * (waiting on a silent socket, queued for a node it is connecting to, following a redirection).
 * The connection is left alone: a request may run out of time on a healthy connection (a long
 * list, a slow read before a write), and dropping it would fail every other request on it. A
 * connection that is silent is dropped all the same when ioredis's own timeout (as long as
 * commandTimeoutMs, from when the command was sent) fails the command, which
 * {@link commandError} hears. Time the request spends elsewhere (decoding, the update function,
 * waiting for a future resourceVersion between polls) does not count.
 */
export class Deadline {
  readonly limitMs: number;
  #spentMs = 0;

  constructor(limitMs: number) {
    this.limitMs = limitMs;
  }

  /** Sends one command through `send` and waits for its answer for what is left of the time. */
  run<T>(client: Client, send: () => Promise<T>): Promise<T> {
    const left = this.limitMs - this.#spentMs;
    if (left <= 0) return Promise.reject(this.#expired());
    const started = performance.now();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#spentMs = this.limitMs;
        reject(markUnanswered(this.#expired()));
      }, left);
      const done = (): void => {
        clearTimeout(timer);
        this.#spentMs += performance.now() - started;
      };
      let answer: Promise<T>;
      try {
        answer = send();
      } catch (err) {
        answer = Promise.reject(err);
      }
      answer.then(
        (value) => {
          done();
          resolve(value);
        },
        (err: unknown) => {
          done();
          reject(commandError(err, client));
        },
      );
    });
  }

  #expired(): StorageError {
    return new StorageError(
      'Unavailable',
      `redis unavailable: no answer within ${this.limitMs} ms (commandTimeoutMs)`,
      {
        retryAfterSeconds: 1,
      },
    );
  }
}

/** A write's Unavailable error that may hide an applied write says so (503 either way). */
export function writeError(err: unknown): unknown {
  if (!isUnanswered(err)) return err;
  const e = err as StorageError;
  return new StorageError('Unavailable', `${e.message.replace(/\.$/, '')}; the write may have been applied`, {
    retryAfterSeconds: e.retryAfterSeconds ?? 1,
    cause: e,
  });
}
