/**
 * Stable codes of {@link AuthorizationError}:
 * - `UnsupportedType`: an authorizer type this server does not build (RBAC, Node, ABAC);
 * - `InvalidConnection`: a webhook's connection file cannot be read or used;
 * - `WebhookCallFailed`: the webhook could not be reached or answered an HTTP error;
 * - `WebhookTimeout`: an attempt took longer than the webhook's `timeout`;
 * - `WebhookCanceled`: the request's signal was aborted (the client went away): the call in
 *   flight was cut and no retry follows;
 * - `WebhookMalformedResponse`: the answer was not a SubjectAccessReview;
 * - `WebhookAllowAndDeny`: the answer had both `allowed` and `denied` true;
 * - `MatchConditionError`: a match condition could not be evaluated.
 */
export type AuthorizationErrorCode =
  | 'UnsupportedType'
  | 'InvalidConnection'
  | 'WebhookCallFailed'
  | 'WebhookTimeout'
  | 'WebhookCanceled'
  | 'WebhookMalformedResponse'
  | 'WebhookAllowAndDeny'
  | 'MatchConditionError';

/** The one error type of packages/authz; its message is what kube-apiserver would print. */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
  readonly code: AuthorizationErrorCode;
  /** For call failures: whether Kubernetes' `DefaultShouldRetry` retries it. */
  readonly retriable: boolean;

  constructor(code: AuthorizationErrorCode, message: string, options: { cause?: unknown; retriable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retriable = options.retriable ?? false;
  }
}

/** Kubernetes' `utilerrors.NewAggregate(...).Error()`: one error alone, several as `[e1, e2]`. */
export function aggregateMessage(errors: readonly Error[]): string {
  if (errors.length === 1) return errors[0]!.message;
  return `[${errors.map((e) => e.message).join(', ')}]`;
}
