import { makeStatus } from '@kevents/api';
import type { Status, StatusCause, StatusReason, StatusDetails } from '@kevents/api';
import { goQuote, uniqueErrors } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import { invalidStatusText } from './invalid-status-text.js';
import { StorageError } from '@kevents/storage';

/** A resource and its group; `qualified` is how Kubernetes prints it (`events.events.k8s.io`). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export const qualified = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

/**
 * An error that the HTTP layer answers with a `metav1.Status`. Every error a client sees goes
 * through this class; its `status` carries Kubernetes' reason, code, message and details.
 */
export class ApiError extends Error {
  readonly status: Status;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The Status's compact JSON text (`JSON.stringify(status)`), for errors that write it more
   * cheaply than `JSON.stringify` does (a large Invalid Status).
   */
  statusText?: () => string;

  /** A Status is an answer, not a fault: no stack trace is captured (an unexpected error is logged with its own stack where the error handler catches it). */
  constructor(
    code: number,
    reason: StatusReason,
    message: string,
    details?: StatusDetails,
    headers: Record<string, string> = {},
    metadata?: Status['metadata'],
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.status = makeStatus({ status: 'Failure', message, reason, details, code, metadata });
    this.headers = headers;
  }

  get code(): number {
    return this.status.code ?? 500;
  }
}

const grDetails = (gr: GroupResource, name?: string): StatusDetails => {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
};

export const notFound = (gr: GroupResource, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, grDetails(gr, name));

export const pathNotFound = (): ApiError =>
  new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (gr: GroupResource, name: string, extra = ''): ApiError =>
  new ApiError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists${extra}`, grDetails(gr, name));

export const conflict = (gr: GroupResource, name: string, why: string): ApiError =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`,
    grDetails(gr, name),
  );

export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message);

export const methodNotSupported = (gr: GroupResource, action: string): ApiError =>
  new ApiError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualified(gr)}"`, {
    ...(gr.group ? { group: gr.group } : {}),
    kind: gr.resource,
  });

/**
 * go-restful's 405 for a method the path does not serve, as kube-apiserver's service error
 * handler words it (`NewGenericServerResponse(405, ...)`).
 */
export const methodNotAllowed = (): ApiError =>
  new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {
    causes: [{ reason: 'UnexpectedServerResponse', message: '405: Method Not Allowed' }],
  });

export const unsupportedMediaType = (accepted: readonly string[]): ApiError =>
  new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );

export const notAcceptable = (accepted: readonly string[]): ApiError =>
  new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);

export const requestEntityTooLarge = (limit: number): ApiError =>
  new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);

export const expired = (message: string, cont?: string): ApiError =>
  new ApiError(410, 'Expired', message, undefined, {}, cont ? { continue: cont } : {});

export const internalError = (err: unknown): ApiError => {
  const msg = err instanceof Error ? err.message : String(err);
  return new ApiError(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
};

export const serviceUnavailable = (message: string, retryAfterSeconds = 1): ApiError =>
  new ApiError(503, 'ServiceUnavailable', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });

export const timeout = (message: string, retryAfterSeconds = 1): ApiError =>
  new ApiError(
    504,
    'Timeout',
    `Timeout: ${message}`,
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );

export const unauthorized = (message = 'Unauthorized'): ApiError => new ApiError(401, 'Unauthorized', message);

/** `errors.NewForbidden`: `<gr> "<name>" is forbidden: <why>`, `<gr> is forbidden: <why>`, or `forbidden: <why>`. */
export const forbidden = (why: string, gr?: GroupResource, name?: string): ApiError => {
  const message =
    !gr || !gr.resource
      ? `forbidden: ${why}`
      : name
        ? `${qualified(gr)} "${name}" is forbidden: ${why}`
        : `${qualified(gr)} is forbidden: ${why}`;
  return new ApiError(403, 'Forbidden', message, gr && gr.resource ? grDetails(gr, name) : {});
};

/**
 * `errors.NewInvalid`: 422 with one cause per field error (a cause leaves out an empty field, as
 * Go's `omitempty` does); `details.kind` is the Kind; the message is `<Kind.group> "<name>" is
 * invalid: <the errors' aggregate>`, the name quoted as `%q` does. The answer's JSON text is
 * written by {@link invalidStatusText}.
 */
export const invalid = (kind: { group: string; kind: string }, name: string, errs: readonly FieldError[]): ApiError => {
  const causes: StatusCause[] = errs.map((e) =>
    e.field ? { reason: e.type, message: e.body(), field: e.field } : { reason: e.type, message: e.body() },
  );
  const gk = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  // Go's StatusDetails leaves empty strings and an empty list out (omitempty).
  const details: StatusDetails = {
    ...(name ? { name } : {}),
    ...(kind.group ? { group: kind.group } : {}),
    ...(kind.kind ? { kind: kind.kind } : {}),
    ...(causes.length ? { causes } : {}),
  };
  const prefix = `${gk} ${goQuote(name)} is invalid`;
  const { indices, messages } = uniqueErrors(errs);
  const aggregate = messages.length === 0 ? '' : messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
  const err = new ApiError(422, 'Invalid', aggregate ? `${prefix}: ${aggregate}` : prefix, details);
  err.statusText = () => invalidStatusText(prefix, details, errs, indices);
  return err;
};

/** `errors.NewTooManyRequests`: 429 with `retryAfterSeconds` in the details and a `Retry-After` header. */
export const tooManyRequests = (message: string, retryAfterSeconds: number): ApiError =>
  new ApiError(429, 'TooManyRequests', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });

/** A 422 with a free-text message (`NewGenericServerResponse(422, ...)`), as patch application errors use. */
export const unprocessable = (message: string): ApiError => new ApiError(422, 'Invalid', message, {});

/** Maps a storage error to the Status Kubernetes answers for it. */
export function fromStorageError(err: unknown, gr: GroupResource, name = ''): ApiError {
  if (err instanceof ApiError) return err;
  if (!(err instanceof StorageError)) return internalError(err);
  const objName = err.key?.name ?? name;
  switch (err.code) {
    case 'NotFound':
      return notFound(gr, objName);
    case 'AlreadyExists':
      return alreadyExists(gr, objName);
    case 'Conflict':
      return conflict(gr, objName, err.message);
    case 'Expired':
      return expired(err.message, err.continue);
    case 'InvalidContinue':
      return badRequest(`invalid continue token: ${err.message}`);
    case 'TooLargeResourceVersion':
      return timeout(err.message, err.retryAfterSeconds ?? 1);
    case 'Unavailable':
      return serviceUnavailable(`storage is unavailable: ${err.message}`, err.retryAfterSeconds ?? 1);
    case 'InvalidObject':
      return internalError(err);
    default:
      return internalError(err);
  }
}
