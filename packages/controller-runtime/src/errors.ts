import type { Status } from '@kevents/api';

/** Stable codes of the errors this package raises. */
export type ControllerRuntimeErrorCode =
  | 'ApiStatus' // the API server answered with a Status (see {@link ApiError})
  | 'Transport' // no answer: connection refused, reset, timed out
  | 'ShutDown' // the queue, informer or manager is shutting down
  | 'NotSynced' // a cache did not sync in time
  | 'LeaderLost'; // leadership was lost

/** The one error class of controller-runtime; `code` is stable, `message` is for people. */
export class ControllerRuntimeError extends Error {
  override readonly name = 'ControllerRuntimeError';
  readonly code: ControllerRuntimeErrorCode;
  constructor(code: ControllerRuntimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A `metav1.Status` answer (4xx/5xx) from the API server. */
export class ApiError extends ControllerRuntimeError {
  readonly httpStatus: number;
  readonly status: Status | undefined;
  constructor(httpStatus: number, status: Status | undefined, text: string) {
    super('ApiStatus', `${httpStatus} ${status?.reason ?? ''}: ${status?.message ?? text.slice(0, 200)}`);
    this.httpStatus = httpStatus;
    this.status = status;
  }
  /** The Status reason (`NotFound`, `Conflict`, `Expired`, ...). */
  get reason(): string | undefined {
    return this.status?.reason;
  }
}

/** True for a 404 NotFound answer. */
export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.httpStatus === 404;
/** True for a 409 answer (Conflict or AlreadyExists). */
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.httpStatus === 409;
/** True for a 410 answer (Expired or Gone): the caller must relist. */
export const isExpired = (err: unknown): boolean => err instanceof ApiError && err.httpStatus === 410;
