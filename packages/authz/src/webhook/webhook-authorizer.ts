import { AsyncLocalStorage } from 'node:async_hooks';
import type { Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { AuthorizationError } from '../errors.js';
import type { AuthorizationMetrics, WebhookResult } from '../metrics.js';
import { defaultRetryBackoff, withBackoff } from './backoff.js';
import type { RetryBackoff } from './backoff.js';
import { ExpiringLRU, webhookCacheSize } from './cache.js';
import type { WebhookConnection } from './kubeconfig.js';
import { MatchConditions } from './match-conditions.js';
import { SharedCalls } from './shared-calls.js';
import {
  cacheable,
  decodeSubjectAccessReview,
  encodeSubjectAccessReview,
  subjectAccessReviewKey,
  subjectAccessReviewSpec,
} from './subject-access-review.js';
import type {
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
  SubjectAccessReviewVersion,
} from './subject-access-review.js';
import { canceledError, webhookTransport } from './transport.js';
import type { WebhookDialer, WebhookTransport } from './transport.js';

/** What a webhook does when it cannot decide (`failurePolicy`). */
export type FailurePolicy = 'NoOpinion' | 'Deny';

/** Options of {@link WebhookAuthorizer}: one `authorizers[]` entry of type Webhook, resolved. */
export interface WebhookAuthorizerOptions {
  /** The authorizer's name (the `name` label of its metrics). */
  readonly name: string;
  readonly connection: WebhookConnection;
  readonly subjectAccessReviewVersion: SubjectAccessReviewVersion;
  /** Per-attempt timeout. */
  readonly timeoutMs: number;
  /** How long Allow answers are kept; 0 keeps none (`cacheAuthorizedRequests: false`). */
  readonly authorizedTTLMs: number;
  /** How long other answers (Deny, no opinion) are kept; 0 keeps none. */
  readonly unauthorizedTTLMs: number;
  readonly failurePolicy: FailurePolicy;
  /** CEL expressions in the `request` environment, compiled once here. */
  readonly matchConditions?: readonly string[];
  readonly metrics?: AuthorizationMetrics;
  /** The network seam: how connections to the webhook are opened (the egress `controlplane` dialer). */
  readonly dial?: WebhookDialer;
  /** Retry schedule; default Kubernetes' (tests shorten it). */
  readonly retryBackoff?: RetryBackoff;
  /** Wraps each call to the webhook (a tracer's client span and its headers); given the server URL. */
  readonly wrapTransport?: (transport: WebhookTransport, server: string) => WebhookTransport;
  /** Entries kept in the cache; default 8192. */
  readonly cacheSize?: number;
}

const bothAllowAndDeny = 'webhook subject access review returned both allow and deny response';

/**
 * The signal of the call in progress, for a `wrapTransport` wrapper written before transports
 * took a signal (one that calls its inner transport with `(body, headers)` only): the inner
 * transport still finds it here.
 */
const callSignal = new AsyncLocalStorage<AbortSignal>();

/**
 * kube-apiserver's webhook authorizer (plugin/pkg/authorizer/webhook): match conditions, then the
 * cache, then a SubjectAccessReview POSTed to the webhook with retries; a failure answers the
 * failure policy with the error.
 */
export class WebhookAuthorizer implements Authorizer {
  readonly name: string;
  readonly type = 'Webhook';
  readonly #o: WebhookAuthorizerOptions;
  readonly #transport: WebhookTransport;
  /** Whether calls go through a wrapper, and so run with {@link callSignal} set. */
  readonly #wrapped: boolean;
  readonly #cache: ExpiringLRU<SubjectAccessReviewStatus>;
  /** Calls in flight by cache key, shared by identical requests while both TTLs keep answers. */
  readonly #calls: SharedCalls<Decision> | undefined;
  readonly #conditions: MatchConditions | undefined;
  readonly #labels: { name: string };
  readonly #typeLabels: { type: string; name: string };

  constructor(o: WebhookAuthorizerOptions) {
    this.name = o.name;
    this.#o = o;
    const transport = webhookTransport(o.connection, { timeoutMs: o.timeoutMs, ...(o.dial ? { dial: o.dial } : {}) });
    this.#wrapped = o.wrapTransport !== undefined;
    this.#transport = o.wrapTransport
      ? o.wrapTransport(
          (body, headers, signal) => transport(body, headers, signal ?? callSignal.getStore()),
          o.connection.server,
        )
      : transport;
    this.#cache = new ExpiringLRU(o.cacheSize ?? webhookCacheSize);
    this.#calls = o.authorizedTTLMs > 0 && o.unauthorizedTTLMs > 0 ? new SharedCalls() : undefined;
    this.#conditions = o.matchConditions?.length ? new MatchConditions(o.matchConditions) : undefined;
    this.#labels = { name: o.name };
    this.#typeLabels = { type: 'Webhook', name: o.name };
  }

  /**
   * Answers synchronously when the match conditions exclude the request or the cache has the
   * answer; only a call to the webhook reads `attrs.signal`, which then cuts the call in flight
   * and the retries when the client goes away. Requests that would share a cache entry share a
   * call in flight too (when both TTLs keep answers): a burst of identical requests after the
   * entry expires sends one SubjectAccessReview, not one each (webhook.go sends one each); a
   * client that goes away stops waiting, and the call is cut when none waits any more.
   */
  authorize(attrs: RequestAttributes): Decision | Promise<Decision> {
    const m = this.#o.metrics;
    let spec: SubjectAccessReviewSpec | undefined;
    if (this.#conditions) {
      spec = subjectAccessReviewSpec(attrs);
      const start = performance.now();
      const r = this.#conditions.evaluate(spec);
      m?.matchConditionDuration.observe(this.#typeLabels, (performance.now() - start) / 1000);
      if (r.error) m?.matchConditionErrors.inc(this.#typeLabels);
      if (r.excluded) {
        m?.matchConditionExclusions.inc(this.#typeLabels);
        return { decision: 'NoOpinion', reason: '' };
      }
      if (r.error) return { decision: this.#o.failurePolicy, reason: '', error: r.error };
    }
    const key = cacheable(attrs) ? subjectAccessReviewKey(attrs) : undefined;
    const cached = key === undefined ? undefined : this.#cache.get(key);
    if (cached) return decide(cached);
    const review = spec ?? subjectAccessReviewSpec(attrs);
    if (key === undefined || this.#calls === undefined) return this.#call(review, key, attrs.signal);
    return this.#calls.join(
      key,
      attrs.signal,
      (signal) => this.#call(review, key, signal),
      (reason) => ({
        decision: this.#o.failurePolicy,
        reason: '',
        error: canceledError(this.#o.connection.server, reason),
      }),
    );
  }

  /**
   * The webhook call with its retries (webhook.go's `WithExponentialBackoff(ctx, ...)`). An abort
   * of `signal` ends it: the answer is the failure policy's with a `WebhookCanceled` error, not
   * cached, not counted as failing open (kube-apiserver records fail-open only when `ctx.Err()`
   * is nil); no call is made when it is already aborted (a later webhook of the chain).
   */
  async #call(
    spec: SubjectAccessReviewSpec,
    key: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Decision> {
    const m = this.#o.metrics;
    let status: SubjectAccessReviewStatus;
    try {
      const body = encodeSubjectAccessReview(spec, this.#o.subjectAccessReviewVersion);
      status = await withBackoff(
        this.#o.retryBackoff ?? defaultRetryBackoff,
        () => this.#attempt(body, signal),
        signal,
        () => canceledError(this.#o.connection.server, signal?.reason),
      );
    } catch (e) {
      const error =
        e instanceof AuthorizationError ? e : new AuthorizationError('WebhookCallFailed', String(e), { cause: e });
      if (signal?.aborted) {
        const canceled = error.code === 'WebhookCanceled' ? error : canceledError(this.#o.connection.server, error);
        return { decision: this.#o.failurePolicy, reason: '', error: canceled };
      }
      if (this.#o.failurePolicy === 'NoOpinion')
        m?.webhookFailOpen.inc({ name: this.name, result: error.code === 'WebhookTimeout' ? 'timeout' : 'error' });
      return { decision: this.#o.failurePolicy, reason: '', error };
    }
    if (key !== undefined)
      this.#cache.set(key, status, status.allowed ? this.#o.authorizedTTLMs : this.#o.unauthorizedTTLMs);
    return decide(status);
  }

  /** One attempt, metered as webhook.go meters it: a failure once the signal is aborted is `canceled`. */
  async #attempt(body: string, signal: AbortSignal | undefined): Promise<SubjectAccessReviewStatus> {
    const start = performance.now();
    let result: WebhookResult = 'success';
    try {
      const res = await (signal && this.#wrapped
        ? callSignal.run(signal, () => this.#transport(body, undefined, signal))
        : this.#transport(body, undefined, signal));
      return decodeSubjectAccessReview(res, this.#o.subjectAccessReviewVersion);
    } catch (e) {
      result = signal?.aborted
        ? 'canceled'
        : e instanceof AuthorizationError && e.code === 'WebhookTimeout'
          ? 'timeout'
          : 'error';
      throw e;
    } finally {
      const m = this.#o.metrics;
      if (m) {
        const labels = { ...this.#labels, result };
        m.webhookEvaluations.inc(labels);
        m.webhookDuration.observe(labels, (performance.now() - start) / 1000);
      }
    }
  }
}

/** webhook.go's mapping of an answer to a decision. */
function decide(s: SubjectAccessReviewStatus): Decision {
  const reason = s.reason ?? '';
  if (s.allowed && s.denied)
    return { decision: 'Deny', reason, error: new AuthorizationError('WebhookAllowAndDeny', bothAllowAndDeny) };
  if (s.denied) return { decision: 'Deny', reason };
  if (s.allowed) return { decision: 'Allow', reason };
  return { decision: 'NoOpinion', reason };
}
