import type { AuthenticationResponse, JWTAuthenticator } from '@kevents/api';
import { withCredentialExpiry } from '../credential-expiry.js';
import { AuthenticationError, authenticatorUnavailable, invalidCredentials, prefixed } from '../errors.js';
import { goQuoteList } from '../go-format.js';
import { issuerHttpClient } from '../http-client.js';
import type { IssuerHttpClient } from '../http-client.js';
import { hashLabel } from '../metrics.js';
import type { AuthenticationMetrics } from '../metrics.js';
import type { TokenAuthenticator } from '../token.js';
import { ClaimMapper } from './claim-mappings.js';
import { DistributedClaimResolver } from './distributed-claims.js';
import { IssuerVerifier } from './issuer-verifier.js';
import { peekIssuer } from './peek.js';
import { supportedSigningAlgorithms } from './verify.js';

/** Options shared by the JWT authenticators of one configuration. */
export interface JwtAuthenticatorOptions {
  /**
   * The HTTP client of an issuer's traffic (the egress seam): given the `jwt[]` entry, returns
   * the client to use. Default: {@link issuerHttpClient} trusting `certificateAuthority` when set.
   * The egress selector fills this for `issuer.egressSelectorType`.
   */
  readonly httpClientFor?: (authenticator: JWTAuthenticator) => IssuerHttpClient;
  /** The clock (milliseconds); default `Date.now`. */
  readonly now?: () => number;
  /** Between failed discovery attempts; default 10 s as kube-apiserver. */
  readonly discoveryRetryMs?: number;
  readonly metrics?: AuthenticationMetrics;
}

/** The default HTTP client of a `jwt[]` entry: its CA as the only trust, else the system roots. */
export function defaultHttpClientFor(a: JWTAuthenticator): IssuerHttpClient {
  if (a.issuer.egressSelectorType)
    throw new Error(`oidc: egress lookup for ${JSON.stringify(a.issuer.egressSelectorType)} is not configured`);
  return issuerHttpClient(a.issuer.certificateAuthority ? { ca: a.issuer.certificateAuthority } : {});
}

/**
 * One `jwt[]` entry of an AuthenticationConfiguration (kube-apiserver's `oidc.Authenticator`):
 * picks tokens by their unverified `iss`, verifies them against the discovered JWKS (go-oidc
 * rules), checks audiences, maps claims and runs the rules. Not healthy until discovery succeeded.
 */
export class JwtAuthenticator implements TokenAuthenticator {
  readonly issuer: string;
  readonly #verifier: IssuerVerifier;
  readonly #audiences: ReadonlySet<string>;
  readonly #mapper: ClaimMapper;
  readonly #resolver: DistributedClaimResolver | undefined;
  readonly #abort = new AbortController();
  readonly #metrics: AuthenticationMetrics | undefined;
  readonly #issuerHash: string;

  /** @throws Error when the entry cannot be built (an expression that does not compile, egress not configured). */
  constructor(a: JWTAuthenticator, options: JwtAuthenticatorOptions = {}) {
    this.issuer = a.issuer.url ?? '';
    this.#issuerHash = hashLabel(this.issuer);
    this.#metrics = options.metrics;
    const audiences = a.issuer.audiences ?? [];
    this.#audiences = new Set(audiences);
    this.#mapper = new ClaimMapper(a);
    const client = (options.httpClientFor ?? defaultHttpClientFor)(a);
    const metrics = options.metrics;
    const common = {
      client,
      algorithms: supportedSigningAlgorithms,
      now: options.now ?? Date.now,
      retryMs: options.discoveryRetryMs ?? 10_000,
      signal: this.#abort.signal,
      ...(audiences.length === 1 ? { clientID: audiences[0]! } : {}),
    };
    this.#verifier = new IssuerVerifier(this.issuer, {
      ...common,
      ...(a.issuer.discoveryURL ? { discoveryURL: a.issuer.discoveryURL } : {}),
      ...(metrics ? { observeJwks: (result, hash) => metrics.jwksFetched(this.issuer, result, hash) } : {}),
    });
    this.#resolver = this.#mapper.groupsClaim
      ? new DistributedClaimResolver(this.#mapper.groupsClaim, common)
      : undefined;
  }

  /**
   * Undefined when healthy; else `oidc: authenticator for issuer "<url>" is not healthy: <last error>`.
   */
  healthError(): string | undefined {
    const e = this.#verifier.lastError;
    return e === undefined
      ? undefined
      : `oidc: authenticator for issuer ${JSON.stringify(this.issuer)} is not healthy: ${e}`;
  }

  /** Resolves once discovery has succeeded. */
  whenReady(): Promise<void> {
    return this.#verifier.whenReady();
  }

  /** Ends discovery retries and key fetches. */
  close(): void {
    this.#abort.abort();
  }

  async authenticateToken(token: string): Promise<AuthenticationResponse | null> {
    if (peekIssuer(token) !== this.issuer) return null;
    const start = performance.now();
    try {
      const r = await this.#authenticate(token);
      this.#metrics?.jwtLatency.observe(
        { result: 'success', jwt_issuer_hash: this.#issuerHash },
        (performance.now() - start) / 1000,
      );
      return r;
    } catch (e) {
      this.#metrics?.jwtLatency.observe(
        { result: 'failure', jwt_issuer_hash: this.#issuerHash },
        (performance.now() - start) / 1000,
      );
      throw e instanceof AuthenticationError ? e : invalidCredentials(String(e), e);
    }
  }

  async #authenticate(token: string): Promise<AuthenticationResponse> {
    if (!this.#verifier.ready) throw authenticatorUnavailable('oidc: authenticator not initialized');
    let verified;
    try {
      verified = await this.#verifier.verify(token);
    } catch (e) {
      throw prefixed('oidc: verify token: ', e);
    }
    if (!verified.audiences.some((a) => this.#audiences.has(a)))
      throw invalidCredentials(
        `oidc: expected audience in ${goQuoteList([...this.#audiences].sort())} got ${goQuoteList(verified.audiences)}`,
      );
    const claims = verified.claims;
    if (this.#resolver) await this.#resolver.expand(claims);
    const user = this.#mapper.map(claims);
    const response = { user, audiences: verified.audiences.filter((a) => this.#audiences.has(a)) };
    return withCredentialExpiry(response, verified.expiresAt);
  }
}
