import type { Status } from '@kevents/api';

/** Stable codes of the errors this package raises. */
export type ControllerRuntimeErrorCode =
  | 'ApiStatus' // the API server answered with a Status (see {@link ApiError})
  | 'Transport' // no answer: connection refused, reset, timed out
  | 'InvalidAnswer' // an answer no correct server gives (a paged list that would never end)
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

/**
 * An error's message and its causes' (fetch's own is only `fetch failed`; what failed, such as
 * `connect ECONNREFUSED 127.0.0.1:6443`, is its cause), each once, at most four deep.
 */
export function causeChain(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e !== undefined && e !== null; depth++) {
    // Errors may come from another realm (a vm context): read them by shape, not instanceof.
    const error = typeof e === 'object' && typeof (e as Error).message === 'string' ? (e as Error) : undefined;
    const text = error === undefined ? String(e) : error.message;
    if (text !== '' && !parts.some((p) => p.includes(text))) parts.push(text);
    e = error?.cause;
  }
  return parts.join(': ');
}
