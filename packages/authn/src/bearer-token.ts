import type { AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';
import { invalidCredentials } from './errors.js';
import type { TokenAuthenticator } from './token.js';

/**
 * kube-apiserver's bearer-token request authenticator: reads `Authorization: Bearer <token>`
 * (scheme case-insensitive), ignores a missing header, another scheme or an empty token, and
 * turns "no authenticator knew this token" into `invalid bearer token`.
 */
export class BearerTokenAuthenticator implements Authenticator {
  readonly #tokens: TokenAuthenticator;

  constructor(tokens: TokenAuthenticator) {
    this.#tokens = tokens;
  }

  async authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
    const token = bearerToken(req.headers['authorization']);
    if (token === undefined) return null;
    const r = await this.#tokens.authenticateToken(token);
    if (!r) throw invalidCredentials('invalid bearer token');
    return r;
  }
}

/** `Bearer <token>` as clients send it: one space, no other whitespace (the common case, read without splitting). */
const plainBearer = /^Bearer \S+$/;

/** The token of `Bearer <token>` (Go's `strings.Fields` split: exactly two fields), else undefined. */
export function bearerToken(header: string | readonly string[] | undefined): string | undefined {
  const value = typeof header === 'string' ? header : header?.[0];
  if (!value) return undefined;
  if (plainBearer.test(value)) return value.slice(7);
  const parts = value.trim().split(/\s+/);
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token === '' ? undefined : token;
}
