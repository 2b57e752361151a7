import type { Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { AuthorizationError } from '../errors.js';
import type { AuthorizationMetrics, WebhookResult } from '../metrics.js';
import { defaultRetryBackoff, withBackoff } from './backoff.js';
import type { RetryBackoff } from './backoff.js';
import { ExpiringLRU, webhookCacheSize } from './cache.js';
import type { WebhookConnection } from './kubeconfig.js';
import { MatchConditions } from './match-conditions.js';
import {
  cacheable,
  decodeSubjectAccessReview,
  encodeSubjectAccessReview,
  subjectAccessReviewSpec,
} from './subject-access-review.js';
import type { SubjectAccessReviewStatus, SubjectAccessReviewVersion } from './subject-access-review.js';
import { webhookTransport } from './transport.js';
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
 * kube-apiserver's webhook authorizer (plugin/pkg/authorizer/webhook): match conditions, then the
 * cache, then a SubjectAccessReview POSTed to the webhook with retries; a failure answers the
 * failure policy with the error.
 */
export class WebhookAuthorizer implements Authorizer {
  readonly name: string;
  readonly type = 'Webhook';
  readonly #o: WebhookAuthorizerOptions;
  readonly #transport: WebhookTransport;
  readonly #cache: ExpiringLRU<SubjectAccessReviewStatus>;
  readonly #conditions: MatchConditions | undefined;
  readonly #labels: { name: string };
  readonly #typeLabels: { type: string; name: string };

  constructor(o: WebhookAuthorizerOptions) {
    this.name = o.name;
    this.#o = o;
    const transport = webhookTransport(o.connection, { timeoutMs: o.timeoutMs, ...(o.dial ? { dial: o.dial } : {}) });
    this.#transport = o.wrapTransport ? o.wrapTransport(transport, o.connection.server) : transport;
    this.#cache = new ExpiringLRU(o.cacheSize ?? webhookCacheSize);
    this.#conditions = o.matchConditions?.length ? new MatchConditions(o.matchConditions) : undefined;
    this.#labels = { name: o.name };
    this.#typeLabels = { type: 'Webhook', name: o.name };
  }

  /** Answers synchronously when the match conditions exclude the request or the cache has the answer. */
  authorize(attrs: RequestAttributes): Decision | Promise<Decision> {
    const spec = subjectAccessReviewSpec(attrs);
    const m = this.#o.metrics;
    if (this.#conditions) {
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
    const key = cacheable(attrs) ? JSON.stringify(spec) : undefined;
    const cached = key === undefined ? undefined : this.#cache.get(key);
    if (cached) return decide(cached);
    return this.#call(spec, key);
  }

  async #call(spec: ReturnType<typeof subjectAccessReviewSpec>, key: string | undefined): Promise<Decision> {
    const m = this.#o.metrics;
    let status: SubjectAccessReviewStatus;
    try {
      const body = encodeSubjectAccessReview(spec, this.#o.subjectAccessReviewVersion);
      status = await withBackoff(this.#o.retryBackoff ?? defaultRetryBackoff, () => this.#attempt(body));
    } catch (e) {
      const error =
        e instanceof AuthorizationError ? e : new AuthorizationError('WebhookCallFailed', String(e), { cause: e });
      if (this.#o.failurePolicy === 'NoOpinion')
        m?.webhookFailOpen.inc({ name: this.name, result: error.code === 'WebhookTimeout' ? 'timeout' : 'error' });
      return { decision: this.#o.failurePolicy, reason: '', error };
    }
    if (key !== undefined)
      this.#cache.set(key, status, status.allowed ? this.#o.authorizedTTLMs : this.#o.unauthorizedTTLMs);
    return decide(status);
  }

  async #attempt(body: string): Promise<SubjectAccessReviewStatus> {
    const start = performance.now();
    let result: WebhookResult = 'success';
    try {
      const res = await this.#transport(body);
      return decodeSubjectAccessReview(res, this.#o.subjectAccessReviewVersion);
    } catch (e) {
      result = e instanceof AuthorizationError && e.code === 'WebhookTimeout' ? 'timeout' : 'error';
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
