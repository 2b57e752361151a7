import type { AuthenticationResponse } from '@kevents/api';
import { authenticatorUnavailable, invalidCredentials } from './errors.js';
import type { TokenAuthenticator } from './token.js';
import { TokenAnswers } from './token-answers.js';

/** Where a cluster serves TokenReviews, below its `server` URL. */
export const tokenReviewsPath = '/apis/authentication.k8s.io/v1/tokenreviews';

/** POSTs a TokenReview body to the cluster; the HTTP status and body of the answer. */
export type TokenReviewTransport = (body: string) => Promise<{ status: number; body: string }>;

/** Options of {@link TokenReviewAuthenticator}. */
export interface TokenReviewAuthenticatorOptions {
  readonly transport: TokenReviewTransport;
  /**
   * `--authentication-token-webhook-cache-ttl` (default 10 s): how long an answer (authenticated
   * or not) is reused; errors are never kept. 0 keeps nothing.
   */
  readonly cacheTtlMs?: number;
  /** The audiences asked for (`spec.audiences`); none by default. */
  readonly audiences?: readonly string[];
  /** Most tokens kept; the oldest go first. Default 4096. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

/**
 * k8s.io/apiserver's delegated token authenticator (`plugin/pkg/authenticator/token/webhook`
 * behind `authenticatorfactory.DelegatingAuthenticatorConfig`'s token cache): a bearer token is
 * sent to the cluster as an `authentication.k8s.io/v1` TokenReview; `status.authenticated` gives
 * the user (username, uid, groups, extra), otherwise no user (with `status.error` as the error
 * when set). With audiences, the answer's audiences must intersect them. Answers are cached for
 * the TTL, keyed by a SHA-256 of the token, both successes and refusals (kube's cache keeps
 * both for `CacheTTL`); errors (a failed call, a non-2xx answer, an undecodable body, a refusal
 * with `status.error`) are not cached. Concurrent checks of one token share one call.
 */
export class TokenReviewAuthenticator implements TokenAuthenticator {
  readonly #o: TokenReviewAuthenticatorOptions;
  readonly #ttl: number;
  readonly #answers: TokenAnswers<AuthenticationResponse | null>;

  constructor(o: TokenReviewAuthenticatorOptions) {
    this.#o = o;
    this.#ttl = o.cacheTtlMs ?? 10_000;
    this.#answers = new TokenAnswers(o);
  }

  /** The cached success for `token`, if one is still fresh; never calls the cluster. */
  peek(token: string): AuthenticationResponse | undefined {
    return this.#answers.peek(token) ?? undefined;
  }

  authenticateToken(token: string): Promise<AuthenticationResponse | null> {
    // Successes and refusals are kept for the TTL; errors (thrown) are not.
    return this.#answers.answer(
      token,
      () => this.#review(token),
      (_, now) => (this.#ttl > 0 ? now + this.#ttl : undefined),
    );
  }

  async #review(token: string): Promise<AuthenticationResponse | null> {
    const wanted = this.#o.audiences ?? [];
    const body = JSON.stringify({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token, ...(wanted.length ? { audiences: wanted } : {}) },
      status: { user: {} },
    });
    let res: { status: number; body: string };
    try {
      res = await this.#o.transport(body);
    } catch (e) {
      throw authenticatorUnavailable(`token review: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    let status: TokenReviewStatus;
    try {
      if (res.status < 200 || res.status > 299) {
        const s = JSON.parse(res.body) as { message?: string };
        throw new Error(
          s.message ?? `an error on the server has prevented the request from succeeding (${res.status})`,
        );
      }
      status = ((JSON.parse(res.body) as { status?: TokenReviewStatus }).status ?? {}) as TokenReviewStatus;
    } catch (e) {
      const msg =
        e instanceof SyntaxError
          ? `the server answered ${res.status} with a body that is not JSON`
          : (e as Error).message;
      throw authenticatorUnavailable(`token review: ${msg}`, e);
    }
    if (wanted.length) {
      const got = status.audiences?.length ? status.audiences : wanted;
      if (!got.some((a) => wanted.includes(a))) return null;
    }
    if (!status.authenticated) {
      if (status.error) throw invalidCredentials(status.error);
      return null;
    }
    const u = status.user ?? {};
    return {
      user: {
        username: u.username ?? '',
        ...(u.uid ? { uid: u.uid } : {}),
        groups: [...(u.groups ?? [])],
        ...(u.extra ? { extra: { ...u.extra } } : {}),
      },
    };
  }
}
