import type { ListMeta } from './object-meta.js';

/** `metav1.StatusReason` values kevents returns. */
export type StatusReason =
  | ''
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

/** `metav1.StatusCause` */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** `metav1.StatusDetails` */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** `metav1.Status`: the body of every error and of delete responses. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

/** Builds a Status in Kubernetes' field order. */
export function makeStatus(fields: Omit<Status, 'kind' | 'apiVersion' | 'metadata'> & { metadata?: ListMeta }): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: fields.metadata ?? {} };
  if (fields.status !== undefined) s.status = fields.status;
  if (fields.message !== undefined) s.message = fields.message;
  if (fields.reason !== undefined) s.reason = fields.reason;
  if (fields.details !== undefined) s.details = fields.details;
  if (fields.code !== undefined) s.code = fields.code;
  return s;
}
