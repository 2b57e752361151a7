import type { ObjectKey } from './interface.js';

/** Stable codes of storage errors; the HTTP layer maps each to a `metav1.Status`. */
export type StorageErrorCode =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Expired'
  | 'InvalidObject'
  | 'InvalidContinue'
  | 'TooLargeResourceVersion'
  | 'Unavailable'
  | 'Internal';

const answers: ReadonlySet<StorageErrorCode> = new Set<StorageErrorCode>(['NotFound', 'AlreadyExists', 'Conflict']);

/** The text Kubernetes uses for a stale resourceVersion (`OptimisticLockErrorMsg`). */
export const optimisticLockErrorMsg =
  'the object has been modified; please apply your changes to the latest version and try again';

/** The message of an expired continue token (storage/continue.go in Kubernetes). */
export const expiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** The message of a list at an exact resourceVersion that was compacted (etcd3/errors.go). */
export const expiredListMessage = 'The resourceVersion for the provided list is too old.';

/**
 * An error raised by a store, with a stable `code`. `key` names the object when there is one;
 * `continue` carries a fresh token on an expired continue; `retryAfterSeconds` is a hint for
 * Unavailable and TooLargeResourceVersion.
 */
export class StorageError extends Error {
  readonly code: StorageErrorCode;
  readonly key: ObjectKey | undefined;
  readonly continue: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  /** Answers, not faults (NotFound, AlreadyExists, Conflict) carry no stack trace: capturing one costs more than the rest of a small request. */
  constructor(
    code: StorageErrorCode,
    message: string,
    extra: { key?: ObjectKey; continue?: string; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    const limit = Error.stackTraceLimit;
    if (answers.has(code)) Error.stackTraceLimit = 0;
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    Error.stackTraceLimit = limit;
    this.name = 'StorageError';
    this.code = code;
    this.key = extra.key;
    this.continue = extra.continue;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

const keyText = (k: ObjectKey): string => `/${k.resource}/${k.namespace}/${k.name}`;

/** The object does not exist. */
export const notFoundError = (key: ObjectKey): StorageError =>
  new StorageError('NotFound', `key not found: ${keyText(key)}`, { key });
/** An object already exists under the key. */
export const alreadyExistsError = (key: ObjectKey): StorageError =>
  new StorageError('AlreadyExists', `key exists: ${keyText(key)}`, { key });
/** A resourceVersion precondition failed. */
export const conflictError = (key: ObjectKey, message: string = optimisticLockErrorMsg): StorageError =>
  new StorageError('Conflict', message, { key });
/** A uid precondition failed (Kubernetes: `Precondition failed: UID in precondition: x, UID in object meta: y`). */
export const uidConflictError = (key: ObjectKey, want: string, have: string): StorageError =>
  conflictError(key, `Precondition failed: UID in precondition: ${want}, UID in object meta: ${have}`);
/** A watch start point is older than the history kept: `too old resource version: N (M)`. */
export const tooOldResourceVersionError = (requested: string, oldest: string): StorageError =>
  new StorageError('Expired', `too old resource version: ${requested} (${oldest})`);
/**
 * A resourceVersion precondition failed (Kubernetes:
 * `Precondition failed: ResourceVersion in precondition: x, ResourceVersion in object meta: y`).
 */
export const resourceVersionPreconditionError = (key: ObjectKey, want: string, have: string): StorageError =>
  conflictError(
    key,
    `Precondition failed: ResourceVersion in precondition: ${want}, ResourceVersion in object meta: ${have}`,
  );
/**
 * A continue token that cannot be decoded. `detail` starts with `continue key is not valid`;
 * the HTTP layer answers 400 `invalid continue token: <message>`.
 */
export const invalidContinueError = (detail: string): StorageError => new StorageError('InvalidContinue', detail);
/** A continue token whose resourceVersion was compacted; `token` continues from the latest state (rv -1). */
export const expiredContinueError = (token: string): StorageError =>
  new StorageError('Expired', expiredContinueMessage, { continue: token });
/** An exact list at a compacted resourceVersion. */
export const expiredListError = (): StorageError => new StorageError('Expired', expiredListMessage);
/**
 * A read asked for a resourceVersion the store has not reached yet, even after waiting
 * (`Too large resource version: N, current: M`); the HTTP layer answers 504 Timeout with
 * `Timeout: <message>`, Retry-After and a `ResourceVersionTooLarge` cause.
 */
export const tooLargeResourceVersionError = (requested: number | string, current: number | string): StorageError =>
  new StorageError('TooLargeResourceVersion', `Too large resource version: ${requested}, current: ${current}`, {
    retryAfterSeconds: 1,
  });
/**
 * A resourceVersion option that is not a decimal integer (Kubernetes: 400
 * `invalid resource version: ...`). The HTTP layer validates first, so stores rarely raise it.
 */
export const invalidResourceVersionError = (value: string): StorageError =>
  new StorageError('InvalidObject', `invalid resource version: ${JSON.stringify(value)}`);
/** The store cannot be reached. */
export const unavailableError = (message: string, cause?: unknown): StorageError =>
  new StorageError('Unavailable', message, { retryAfterSeconds: 1, cause });
/** Type guard with an optional code check. */
export const isStorageError = (err: unknown, code?: StorageErrorCode): err is StorageError =>
  err instanceof StorageError && (code === undefined || err.code === code);
