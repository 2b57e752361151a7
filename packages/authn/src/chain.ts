import type {
  AnonymousAuthConfig,
  AuthenticationConfiguration,
  AuthenticationHeaders,
  AuthenticationRequest,
  AuthenticationResponse,
  Authenticator,
} from '@kevents/api';
import { frozenUser } from '@kevents/api';
import { AnonymousAuthenticator } from './anonymous.js';
import { BearerTokenAuthenticator, bearerToken } from './bearer-token.js';
import { authenticatedGroupAdder, withAuthenticatedGroup } from './group-adder.js';
import { JwtAuthenticatorSet, SwappableTokenAuthenticator } from './jwt/jwt-set.js';
import type { JwtAuthenticatorOptions } from './jwt/jwt-authenticator.js';
import type { AuthenticationMetrics } from './metrics.js';
import { CachedTokenAuthenticator } from './token-cache.js';
import type { TokenCacheOptions } from './token-cache.js';
import { unionAuthenticator, unionTokenAuthenticator } from './union.js';
import type { TokenAuthenticator } from './token.js';
import type { TokenReviewAuthenticator } from './token-review.js';
import type { ExtensionAuthentication } from './extension-authentication.js';
import { X509Authenticator } from './x509.js';
import { RequestHeaderAuthenticator } from './request-header.js';
import type { RequestHeaderConfig } from './request-header.js';

/** `r` with a deeply frozen copy of its user: a response kept and handed to many requests. */
const frozenResponse = (r: AuthenticationResponse): AuthenticationResponse => ({ ...r, user: frozenUser(r.user) });

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
  /** The request-header settings (`--requestheader-*`); absent: front-proxy headers are never read. */
  readonly requestHeader?: RequestHeaderConfig;
  /**
   * The delegated token authenticator (`--authentication-kubeconfig`: TokenReviews with their own
   * cache), asked after the JWT authenticators for a bearer token.
   */
  readonly tokenReview?: TokenReviewAuthenticator;
  /**
   * The `extension-apiserver-authentication` ConfigMap's request-header and client-CA members
   * (in place of `requestHeader` and `clientCA` when those are absent).
   */
  readonly extension?: ExtensionAuthentication;
  readonly tokenCache?: TokenCacheOptions;
  readonly metrics?: AuthenticationMetrics;
}

/**
 * The whole authenticator of kube-apiserver, in its order: a non-fail-fast union of the
 * request-header (front proxy) authenticator, the x509 client-certificate authenticator and the bearer-token authenticator (token cache in front of
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
  readonly #review: TokenReviewAuthenticator | undefined;
  readonly #anonymous: AnonymousAuthenticator | undefined;
  /**
   * A cached response (a token's, or the request-header member's for a connection's repeated
   * headers) with `system:authenticated` added, per response object (built once, not per request).
   */
  readonly #grouped = new WeakMap<AuthenticationResponse, AuthenticationResponse>();
  readonly #top: Authenticator;
  readonly #metrics: AuthenticationMetrics | undefined;
  /**
   * The front-proxy headers (lower-cased names and extra prefixes), which the authentication
   * filter removes from every request it lets through; absent without request-header settings.
   */
  get authenticationHeaders(): AuthenticationHeaders | undefined {
    return this.#rh?.headerNames ?? this.#extension?.headerNames;
  }
  readonly #rh: RequestHeaderAuthenticator | undefined;
  readonly #extension: ExtensionAuthentication | undefined;
  /** Whether a member reads client certificates as users (x509). */
  readonly #x509: boolean;

  /** @throws Error when a JWT authenticator cannot be built or the CA bundle holds no certificate. */
  constructor(options: AuthenticationChainOptions) {
    this.#metrics = options.metrics;
    const members: Authenticator[] = [];
    this.#extension = options.extension;
    if (options.requestHeader) members.push((this.#rh = new RequestHeaderAuthenticator(options.requestHeader)));
    else if (options.extension) members.push(options.extension.requestHeaderMember);
    if (options.clientCA !== undefined) members.push(new X509Authenticator(options.clientCA));
    else if (options.extension) members.push(options.extension.x509Member);
    this.#x509 = options.clientCA !== undefined || options.extension !== undefined;
    const tokens: TokenAuthenticator[] = [];
    if (options.config) {
      this.jwt = new SwappableTokenAuthenticator(new JwtAuthenticatorSet(options.config.jwt ?? [], options));
      this.#cache = new CachedTokenAuthenticator(this.jwt, options.tokenCache);
      tokens.push(this.#cache);
    }
    if (options.tokenReview) tokens.push((this.#review = options.tokenReview));
    if (tokens.length) members.push(new BearerTokenAuthenticator(unionTokenAuthenticator(tokens)));
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
   * reads, no client certificate), which every member declines and only anonymous may take, a
   * verified front proxy's request with a user header, and one without a user header when no member
   * reads client certificates as users (then its bearer token or anonymous decides, as above).
   * Otherwise a client certificate is x509's to answer first, so such a request takes the whole chain.
   */
  authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> | AuthenticationResponse | null {
    if (req.clientCertificates?.length) {
      // The front proxy's request: the request-header member is first in the union, answers
      // synchronously (its chain verified once per connection), and when it finds a user that
      // user is the union's answer; anything else (no opinion, an error the union collects) takes
      // the whole chain.
      const rh = this.#rh ?? this.#extension?.requestHeaderMember;
      let declined = false;
      if (rh) {
        const start = performance.now();
        let r: AuthenticationResponse | null | Promise<AuthenticationResponse | null> = null;
        try {
          r = rh.authenticate(req);
          declined = r === null;
        } catch {
          r = null;
        }
        if (r && !(r instanceof Promise)) {
          // The request-header member answers a connection's repeated headers with the same
          // response: the grouped one is made once for it.
          let grouped = this.#grouped.get(r);
          if (!grouped) {
            grouped = frozenResponse(withAuthenticatedGroup(r));
            this.#grouped.set(r, grouped);
          }
          this.#metrics?.observeSuccess((performance.now() - start) / 1000, grouped.user.username);
          return grouped;
        }
      }
      // A verified front proxy's request without a user header, where no x509 member reads the
      // certificate: the union's next members are the bearer tokens and anonymous, as below.
      if (!declined || this.#x509) return this.#authenticate(req);
    }
    const start = performance.now();
    const token = this.#cache || this.#review ? bearerToken(req.headers['authorization']) : undefined;
    if (token === undefined) {
      const r = this.#anonymous ? this.#anonymous.answer(req.path) : null;
      if (r) this.#metrics?.observeSuccess((performance.now() - start) / 1000, r.user.username);
      else this.#metrics?.observe('failure', (performance.now() - start) / 1000);
      return r;
    }
    const hit = this.#cache?.peek(token) ?? this.#review?.peek(token);
    if (!hit) return this.#authenticate(req);
    let r = this.#grouped.get(hit);
    if (!r) {
      r = frozenResponse(withAuthenticatedGroup(hit));
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
