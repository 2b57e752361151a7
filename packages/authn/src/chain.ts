import type {
  AnonymousAuthConfig,
  AuthenticationConfiguration,
  AuthenticationRequest,
  AuthenticationResponse,
  Authenticator,
} from '@kevents/api';
import { AnonymousAuthenticator } from './anonymous.js';
import { BearerTokenAuthenticator, bearerToken } from './bearer-token.js';
import { authenticatedGroupAdder, withAuthenticatedGroup } from './group-adder.js';
import { JwtAuthenticatorSet, SwappableTokenAuthenticator } from './jwt/jwt-set.js';
import type { JwtAuthenticatorOptions } from './jwt/jwt-authenticator.js';
import type { AuthenticationMetrics } from './metrics.js';
import { CachedTokenAuthenticator } from './token-cache.js';
import type { TokenCacheOptions } from './token-cache.js';
import { unionAuthenticator } from './union.js';
import { X509Authenticator } from './x509.js';

/** What the authentication chain is built from: the config file and the flags. */
export interface AuthenticationChainOptions extends JwtAuthenticatorOptions {
  /** The validated `--authentication-config`; absent without the flag. */
  readonly config?: AuthenticationConfiguration;
  /**
   * `--anonymous-auth` when the config has no `anonymous` block (default true). The caller
   * applies kube-apiserver's rules first (an error when both are set; off with AlwaysAllow).
   */
  readonly anonymousFlag?: boolean;
  /** The `--client-ca-file` PEM bundle; absent: no client-certificate authentication. */
  readonly clientCA?: string;
  readonly tokenCache?: TokenCacheOptions;
  readonly metrics?: AuthenticationMetrics;
}

/**
 * The whole authenticator of kube-apiserver, in its order: a non-fail-fast union of the x509
 * client-certificate authenticator and the bearer-token authenticator (token cache in front of
 * the token union, whose JWT member is swappable), wrapped by the authenticated group adder,
 * then a fail-fast union with the anonymous authenticator (asked only when nothing else answered
 * and nothing failed), and the `authentication_attempts`/`authentication_duration_seconds` and
 * `authenticated_user_requests` metrics.
 */
export class AuthenticationChain implements Authenticator {
  /** The JWT member, for reload ({@link AuthenticationChain.replaceJwt}). */
  readonly jwt: SwappableTokenAuthenticator | undefined;
  /** The anonymous settings in force (the config block, or the flag as `{enabled}`). */
  readonly anonymous: AnonymousAuthConfig;
  readonly #cache: CachedTokenAuthenticator | undefined;
  readonly #anonymous: AnonymousAuthenticator | undefined;
  /** A cached response with `system:authenticated` added, per cached response (built once, not per request). */
  readonly #grouped = new WeakMap<AuthenticationResponse, AuthenticationResponse>();
  readonly #top: Authenticator;
  readonly #metrics: AuthenticationMetrics | undefined;

  /** @throws Error when a JWT authenticator cannot be built or the CA bundle holds no certificate. */
  constructor(options: AuthenticationChainOptions) {
    this.#metrics = options.metrics;
    const members: Authenticator[] = [];
    if (options.clientCA !== undefined) members.push(new X509Authenticator(options.clientCA));
    if (options.config) {
      this.jwt = new SwappableTokenAuthenticator(new JwtAuthenticatorSet(options.config.jwt ?? [], options));
      this.#cache = new CachedTokenAuthenticator(this.jwt, options.tokenCache);
      members.push(new BearerTokenAuthenticator(this.#cache));
    }
    this.anonymous = options.config?.anonymous ?? { enabled: options.anonymousFlag !== false };
    const chain: Authenticator[] = [];
    if (members.length) chain.push(authenticatedGroupAdder(unionAuthenticator(members)));
    if (this.anonymous.enabled) chain.push((this.#anonymous = new AnonymousAuthenticator(this.anonymous)));
    this.#top = unionAuthenticator(chain, true);
  }

  /** The JWT authenticators in force. */
  get jwtAuthenticators(): JwtAuthenticatorSet | undefined {
    return this.jwt?.current;
  }

  /**
   * Installs new JWT authenticators atomically (they should be healthy) and forgets cached
   * tokens; returns the old set, which the caller closes once requests in flight are done.
   */
  replaceJwt(next: JwtAuthenticatorSet): JwtAuthenticatorSet {
    if (!this.jwt) throw new Error('no JWT authenticators to replace: the chain was built without a config');
    const old = this.jwt.swap(next);
    this.#cache?.clear();
    return old;
  }

  /**
   * Answered synchronously, with what the whole chain would answer: a request with a bearer token
   * still in the token cache, and a request with no credentials at all (no bearer token the chain
   * reads, no client certificate), which every member declines and only anonymous may take. A
   * client certificate is x509's to answer first, so such a request takes the whole chain.
   */
  authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> | AuthenticationResponse | null {
    if (req.clientCertificates?.length) return this.#authenticate(req);
    const start = performance.now();
    const token = this.#cache ? bearerToken(req.headers['authorization']) : undefined;
    if (token === undefined) {
      const r = this.#anonymous ? this.#anonymous.answer(req.path) : null;
      if (r) this.#metrics?.observeSuccess((performance.now() - start) / 1000, r.user.username);
      else this.#metrics?.observe('failure', (performance.now() - start) / 1000);
      return r;
    }
    const hit = this.#cache!.peek(token);
    if (!hit) return this.#authenticate(req);
    let r = this.#grouped.get(hit);
    if (!r) {
      r = withAuthenticatedGroup(hit);
      this.#grouped.set(hit, r);
    }
    this.#metrics?.observeSuccess((performance.now() - start) / 1000, r.user.username);
    return r;
  }

  async #authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
    const m = this.#metrics;
    if (!m) return this.#top.authenticate(req);
    const start = performance.now();
    let result = 'success';
    let username = '';
    try {
      const r = await this.#top.authenticate(req);
      if (!r) result = 'failure';
      else username = r.user.username;
      return r;
    } catch (e) {
      result = 'error';
      throw e;
    } finally {
      m.observe(result, (performance.now() - start) / 1000, username);
    }
  }

  /** Stops the JWT authenticators' background work. */
  close(): void {
    this.jwt?.current.close();
  }
}
