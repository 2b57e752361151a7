import { StorageError } from '@kevents/storage';
import { coalesceBatch } from './coalesce.js';

/** One create waiting for its batch: what the batch script writes for it. */
export interface BatchedCreate {
  /** The object's field in the resource's hash (`<namespace>/<name>`). */
  readonly key: string;
  /** The stored body (JSON without resourceVersion). */
  readonly body: string;
  /** JSON of the object's uid. */
  readonly uidJson: string;
  readonly namespace: string;
}

/**
 * Sends one batch of creates of `resource` (the batch script) and resolves to its reply: for each
 * create in order its resourceVersion, or 0 when its key exists. `turnEnded`: the batch is sent
 * from the end of the turn (`setImmediate`), not because it is full.
 */
export type SendCreates = (
  resource: string,
  creates: readonly BatchedCreate[],
  turnEnded: boolean,
) => Promise<readonly unknown[]>;

/** The most creates one batch carries: as many as {@link coalesceBatch} commands, so Redis works while kevents prepares the next. */
export const createBatchMax = coalesceBatch;
/** A batch is sent once its bodies reach this many characters, whatever their number. */
export const createBatchMaxChars = 256 * 1024;

interface Waiter {
  resolve(rv: number): void;
  reject(err: unknown): void;
}

interface OpenBatch {
  readonly creates: BatchedCreate[];
  readonly waiters: Waiter[];
  chars: number;
}

/**
 * Gathers the creates made in one turn of the event loop, per resource, into batches that are
 * each one script on Redis instead of one script a create: with many clients the requests that
 * arrive together are written together, and Redis runs one script, one TIME and one reply for
 * them (it spent about as much CPU on a create's script call as on its writes). A batch is sent
 * at the end of the turn, or as soon as it holds {@link createBatchMax} creates or
 * {@link createBatchMaxChars} characters of bodies. Every create of a batch gets the batch's
 * outcome: its own resourceVersion or "exists", or the error of the whole script (an unanswered
 * batch may have been applied, as an unanswered single write may).
 */
export class CreateBatches {
  readonly #send: SendCreates;
  readonly #open = new Map<string, OpenBatch>();

  constructor(send: SendCreates) {
    this.#send = send;
  }

  /** Queues one create of `resource`; resolves to its resourceVersion, or 0 when its key exists. */
  add(resource: string, create: BatchedCreate): Promise<number> {
    let batch = this.#open.get(resource);
    if (batch === undefined) {
      batch = { creates: [], waiters: [], chars: 0 };
      this.#open.set(resource, batch);
      setImmediate(() => this.#flush(resource, batch!, true));
    }
    const queued = new Promise<number>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    batch.creates.push(create);
    batch.chars += create.body.length;
    if (batch.creates.length >= createBatchMax || batch.chars >= createBatchMaxChars)
      this.#flush(resource, batch, false);
    return queued;
  }

  #flush(resource: string, batch: OpenBatch, turnEnded: boolean): void {
    if (this.#open.get(resource) !== batch) return;
    this.#open.delete(resource);
    let sent: Promise<readonly unknown[]>;
    try {
      sent = this.#send(resource, batch.creates, turnEnded);
    } catch (err) {
      sent = Promise.reject(err);
    }
    sent.then(
      (reply) => {
        if (!Array.isArray(reply) || reply.length !== batch.waiters.length) {
          const err = new StorageError('Internal', `redis: unexpected create batch reply ${JSON.stringify(reply)}`);
          for (const w of batch.waiters) w.reject(err);
          return;
        }
        for (let i = 0; i < batch.waiters.length; i++) batch.waiters[i].resolve(Number(reply[i]));
      },
      (err: unknown) => {
        for (const w of batch.waiters) w.reject(err);
      },
    );
  }
}
