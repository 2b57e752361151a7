import type { AuthenticationResponse } from '@kevents/api';
import { credentialExpiry, jwtExpiry } from './credential-expiry.js';
import type { TokenAuthenticator } from './token.js';
import { TokenAnswers } from './token-answers.js';

/** Options of {@link CachedTokenAuthenticator}. */
export interface TokenCacheOptions {
  /** How long a success is reused; default 10 s (`--authentication-token-cache-ttl`'s success TTL). */
  readonly successTtlMs?: number;
  /** Most tokens kept; the oldest go first. Default 4096. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/**
 * kube-apiserver's token cache in front of the token union: successes are kept for 10 s, keyed
 * by a SHA-256 of the token (the token itself is not held), failures are not cached, and
 * concurrent checks of one token share one verification.
 *
 * Unlike kube-apiserver's (which keeps a success for the whole TTL whatever the token's `exp`),
 * an entry never outlives the credential: it expires at the earlier of the TTL and the
 * credential's expiry, as the authenticator reported it ({@link credentialExpiry}) or, for a
 * compact JWT, its own `exp` as go-oidc reads it. A token past its `exp` is verified again (and
 * refused) even within the TTL.
 */
export class CachedTokenAuthenticator implements TokenAuthenticator {
  readonly #inner: TokenAuthenticator;
  readonly #ttl: number;
  readonly #answers: TokenAnswers<AuthenticationResponse | null>;

  constructor(inner: TokenAuthenticator, options: TokenCacheOptions = {}) {
    this.#inner = inner;
    this.#ttl = options.successTtlMs ?? 10_000;
    this.#answers = new TokenAnswers(options);
  }

  /** The cached success for `token`, if one is still fresh; never verifies. */
  peek(token: string): AuthenticationResponse | undefined {
    return this.#answers.peek(token) ?? undefined;
  }

  authenticateToken(token: string): Promise<AuthenticationResponse | null> {
    return this.#answers.answer(
      token,
      () => this.#inner.authenticateToken(token),
      (r, now) => {
        if (!r || this.#ttl <= 0) return undefined;
        const bound = credentialExpiry(r) ?? jwtExpiry(token);
        // Valid up to `bound` included; an entry is fresh while `expires > now`.
        return bound === undefined ? now + this.#ttl : Math.min(now + this.#ttl, bound + 1);
      },
    );
  }

  /** Forgets every cached success (after a reload swaps the authenticators). */
  clear(): void {
    this.#answers.clear();
  }
}
