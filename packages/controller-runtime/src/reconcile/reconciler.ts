/** What a reconcile asks of its controller (controller-runtime's `reconcile.Result`). */
export interface Result {
  /** Reconcile this key again after this many milliseconds (the item's backoff is forgotten). */
  readonly requeueAfterMs?: number;
  /** Reconcile again with rate-limited backoff, without reporting an error. */
  readonly requeue?: boolean;
}

/**
 * The contract of a controller's logic: bring the world in line with the desired state of one
 * key (`namespace/name`, or any string the controller's handlers enqueue). It must be
 * idempotent: the same key may be reconciled any number of times, after a crash too.
 * A thrown error requeues the key with backoff, unless it is a {@link TerminalError}.
 */
export interface Reconciler<K = string> {
  reconcile(key: K): Promise<Result | void>;
}

/** An error that must not be retried: logged and counted, the key is forgotten. */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** True when `err` is (or wraps) a {@link TerminalError}. */
export function isTerminalError(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof TerminalError) return true;
  return false;
}
