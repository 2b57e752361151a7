import type { RequestAttributes } from './request-attributes.js';

/**
 * An authorizer's answer, as k8s.io/apiserver's `authorizer.Decision` with its reason: allow,
 * deny (stop asking), or no opinion (ask the next authorizer).
 */
export interface Decision {
  readonly decision: 'Allow' | 'Deny' | 'NoOpinion';
  /** Why, shown to the client on a 403. */
  readonly reason: string;
  /**
   * What went wrong while deciding (a webhook that failed, a match condition that could not be
   * evaluated). The decision is then the failure policy's; when the chain's answer carries an
   * error and is not Allow, the server answers 500 instead of 403, as kube-apiserver does.
   */
  readonly error?: Error;
}

/**
 * Decides whether a request may proceed (k8s.io/apiserver's `authorizer.Authorizer`). An
 * implementation that cannot decide (a webhook that failed) answers `NoOpinion` or `Deny` per its
 * failure policy, with the {@link Decision.error}, rather than throwing.
 */
export interface Authorizer {
  /** The name shown in logs and in a chain's name (`AlwaysAllow`, a webhook's name). */
  readonly name: string;
  /** The authorizer type (`Webhook`, `AlwaysAllow`, `AlwaysDeny`), the `type` label of the metrics. */
  readonly type?: string;
  authorize(attrs: RequestAttributes): Decision | Promise<Decision>;
}
