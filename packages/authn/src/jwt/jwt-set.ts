import type { AuthenticationResponse, JWTAuthenticator } from '@kevents/api';
import type { TokenAuthenticator } from '../token.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import type { JwtAuthenticatorOptions } from './jwt-authenticator.js';

/**
 * The JWT authenticators of one configuration, in config order, as one fail-fast member of the
 * token union: the authenticator whose issuer matches the token's `iss` decides (its error ends
 * the member); the others decline.
 */
export class JwtAuthenticatorSet implements TokenAuthenticator {
  readonly authenticators: readonly JwtAuthenticator[];

  /** @throws Error when an entry cannot be built. */
  constructor(entries: readonly JWTAuthenticator[], options: JwtAuthenticatorOptions = {}) {
    const built: JwtAuthenticator[] = [];
    try {
      for (const e of entries) built.push(new JwtAuthenticator(e, options));
    } catch (err) {
      for (const b of built) b.close();
      throw err;
    }
    this.authenticators = built;
  }

  async authenticateToken(token: string): Promise<AuthenticationResponse | null> {
    for (const a of this.authenticators) {
      const r = await a.authenticateToken(token);
      if (r) return r;
    }
    return null;
  }

  /** The health errors of the members that are not healthy (empty when all are). */
  healthErrors(): string[] {
    return this.authenticators.map((a) => a.healthError()).filter((e): e is string => e !== undefined);
  }

  close(): void {
    for (const a of this.authenticators) a.close();
  }
}

/**
 * The JWT member of the token union, swappable atomically at reload (kube-apiserver keeps it
 * behind an atomic pointer): requests in flight finish on the set they started with.
 */
export class SwappableTokenAuthenticator implements TokenAuthenticator {
  #current: JwtAuthenticatorSet;

  constructor(initial: JwtAuthenticatorSet) {
    this.#current = initial;
  }

  get current(): JwtAuthenticatorSet {
    return this.#current;
  }

  /** Installs `next` and returns the set it replaced (the caller closes it later). */
  swap(next: JwtAuthenticatorSet): JwtAuthenticatorSet {
    const old = this.#current;
    this.#current = next;
    return old;
  }

  authenticateToken(token: string): Promise<AuthenticationResponse | null> {
    return this.#current.authenticateToken(token);
  }
}
