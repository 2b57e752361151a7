import type { AuthenticationResponse } from '@kevents/api';

/**
 * Decides who a bearer token belongs to (k8s.io/apiserver's `authenticator.Token`): a response,
 * `null` when the token is not of this authenticator's kind (the next one is asked), or a
 * rejection with an `AuthenticationError` when it is and is not valid.
 */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<AuthenticationResponse | null>;
}
