import { AuthenticationError } from '@kevents/api';

/**
 * The errors of this package: every rejection is an {@link AuthenticationError} from
 * `@kevents/api` with one of its stable codes, carrying the text kube-apiserver logs for the same
 * failure (`oidc: verify token: ...`). Clients never see the text; the filter answers 401.
 */
export { AuthenticationError };

/** Credentials that are malformed, forged or fail a check. */
export const invalidCredentials = (message: string, cause?: unknown): AuthenticationError =>
  new AuthenticationError('InvalidCredentials', message, cause === undefined ? undefined : { cause });

/** Credentials that were valid once (JWT `exp`, certificate `notAfter`). */
export const expiredCredentials = (message: string): AuthenticationError =>
  new AuthenticationError('ExpiredCredentials', message);

/** Credentials that cannot be checked yet (issuer not discovered, keys not fetchable). */
export const authenticatorUnavailable = (message: string, cause?: unknown): AuthenticationError =>
  new AuthenticationError('AuthenticatorUnavailable', message, cause === undefined ? undefined : { cause });

/** Re-codes an error with a prefix, keeping its code (`oidc: verify token: ` + message). */
export function prefixed(prefix: string, err: unknown): AuthenticationError {
  if (err instanceof AuthenticationError)
    return new AuthenticationError(err.code, `${prefix}${err.message}`, { cause: err.cause ?? err });
  return invalidCredentials(`${prefix}${err instanceof Error ? err.message : String(err)}`, err);
}

/** The message of any thrown value. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
