import { createHash } from 'node:crypto';
import { Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { LabelCounter, ResultMetrics } from '@kevents/metrics';
import type { ResultSeries } from '@kevents/metrics';

/** `sha256:<hex>` of a label input, or `""` for an empty one (kube-apiserver's hashed labels). */
export const hashLabel = (s: string): string => (s ? `sha256:${createHash('sha256').update(s).digest('hex')}` : '');

const knownUsers: ReadonlySet<string> = new Set([
  'admin',
  'client',
  'kube_proxy',
  'kubelet',
  'system:serviceaccount:kube-system:default',
]);

/**
 * kube-apiserver's `compressUsername`: the label of `authenticated_user_requests`. A few known
 * internal identities keep their name, anything with an `@` is `email_id`, everything else (other
 * service accounts, external identities, `system:anonymous`) is `other`: bounded cardinality, and
 * no real usernames in the metrics.
 */
export function compressUsername(username: string): string {
  if (knownUsers.has(username)) return username;
  return username.includes('@') ? 'email_id' : 'other';
}

const exponential = (start: number, factor: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => start * factor ** i);

/**
 * The authentication metrics, named as kube-apiserver names them: `authentication_attempts` and
 * `authentication_duration_seconds` (k8s.io/apiserver `pkg/endpoints/filters/metrics.go`; no
 * `apiserver_` prefix there), and the JWT authenticator's
 * `apiserver_authentication_jwt_authenticator_*` (`plugin/pkg/authenticator/token/oidc/metrics.go`).
 */
export class AuthenticationMetrics {
  /** `authenticated_user_requests{username}`: successes by {@link compressUsername}. */
  readonly userRequests: LabelCounter;
  /** `authentication_attempts` and `authentication_duration_seconds`, by result. */
  readonly attempts: ResultMetrics;
  /** The `success` series once one was counted (a series appears with its first attempt, as in Kubernetes). */
  #success: ResultSeries | undefined;
  readonly jwtLatency: Histogram<'result' | 'jwt_issuer_hash'>;
  readonly jwksFetchTimestamp: Gauge<'result' | 'jwt_issuer_hash' | 'apiserver_id_hash'>;
  readonly jwksKeySetInfo: Gauge<'jwt_issuer_hash' | 'apiserver_id_hash' | 'hash'>;
  /** `sha256:` of the apiserver's ID. */
  readonly apiserverIdHash: string;

  constructor(registry: Registry, apiserverId = '') {
    const registers = [registry];
    this.apiserverIdHash = hashLabel(apiserverId);
    this.userRequests = new LabelCounter(registry, {
      name: 'authenticated_user_requests',
      help: 'Counter of authenticated requests broken out by username.',
      label: 'username',
    });
    this.attempts = new ResultMetrics(
      registry,
      { name: 'authentication_attempts', help: 'Counter of authenticated attempts.' },
      {
        name: 'authentication_duration_seconds',
        help: 'Authentication duration in seconds broken out by result.',
        buckets: exponential(0.001, 2, 15),
      },
    );
    this.jwtLatency = new Histogram({
      name: 'apiserver_authentication_jwt_authenticator_latency_seconds',
      help: 'Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
      labelNames: ['result', 'jwt_issuer_hash'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jwksFetchTimestamp = new Gauge({
      name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds',
      help: 'Timestamp of the last successful or failed JWKS fetch split by result, api server identity and jwt issuer for the JWT authenticator.',
      labelNames: ['result', 'jwt_issuer_hash', 'apiserver_id_hash'],
      registers,
    });
    this.jwksKeySetInfo = new Gauge({
      name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info',
      help: 'Information about the last JWKS fetched by the JWT authenticator with hash as label, split by api server identity and jwt issuer.',
      labelNames: ['jwt_issuer_hash', 'apiserver_id_hash', 'hash'],
      registers,
    });
  }

  /** Records one request to an issuer's `jwks_uri`. */
  jwksFetched(issuer: string, result: 'success' | 'failure', bodyHash?: string): void {
    const jwt_issuer_hash = hashLabel(issuer);
    this.jwksFetchTimestamp.set(
      { result, jwt_issuer_hash, apiserver_id_hash: this.apiserverIdHash },
      Date.now() / 1000,
    );
    if (bodyHash) {
      for (const m of this.#keySetSeries.get(issuer) ?? []) this.jwksKeySetInfo.remove(m);
      const labels = { jwt_issuer_hash, apiserver_id_hash: this.apiserverIdHash, hash: `sha256:${bodyHash}` };
      this.#keySetSeries.set(issuer, [labels]);
      this.jwksKeySetInfo.set(labels, 1);
    }
  }

  readonly #keySetSeries = new Map<string, { jwt_issuer_hash: string; apiserver_id_hash: string; hash: string }[]>();

  /**
   * Counts one authentication attempt and its duration (`result`: success, failure or error) and,
   * for a success, the user in `authenticated_user_requests`.
   */
  observe(result: string, seconds: number, username = ''): void {
    if (result === 'success') this.observeSuccess(seconds, username);
    else this.attempts.observe(this.attempts.series(result), seconds);
  }

  /** Counts one successful attempt of `username` (the hot path). */
  observeSuccess(seconds: number, username: string): void {
    this.userRequests.inc(compressUsername(username));
    this.attempts.observe((this.#success ??= this.attempts.series('success')), seconds);
  }
}
