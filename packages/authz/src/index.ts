export { anonymousUser } from '@kevents/api';
export type { UserInfo, RequestAttributes, Authorizer, Decision, SelectorRequirement } from '@kevents/api';
export { alwaysAllow, alwaysDeny, authorizerForMode, supportedAuthorizerTypes } from './authorizer.js';
export { union, privilegedGroupsAuthorizer, privilegedGroups } from './union.js';
export { buildAuthorizer, authorizerForModes, metered } from './build.js';
export type { BuildAuthorizerOptions } from './build.js';
export { AuthorizationError, aggregateMessage } from './errors.js';
export type { AuthorizationErrorCode } from './errors.js';
export { AuthorizationMetrics } from './metrics.js';
export type { WebhookResult } from './metrics.js';
export { WebhookAuthorizer } from './webhook/webhook-authorizer.js';
export type { WebhookAuthorizerOptions, FailurePolicy } from './webhook/webhook-authorizer.js';
export { loadWebhookConnection } from './webhook/kubeconfig.js';
export type { WebhookConnection } from './webhook/kubeconfig.js';
export { webhookTransport } from './webhook/transport.js';
export type { WebhookDialer, DialTarget, WebhookTransport, WebhookResponse } from './webhook/transport.js';
export { defaultRetryBackoff, backoffDelays } from './webhook/backoff.js';
export type { RetryBackoff } from './webhook/backoff.js';
export { webhookCacheSize } from './webhook/cache.js';
export {
  subjectAccessReviewSpec,
  encodeSubjectAccessReview,
  decodeSubjectAccessReview,
} from './webhook/subject-access-review.js';
export type {
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
  SubjectAccessReviewVersion,
} from './webhook/subject-access-review.js';
export { MatchConditions } from './webhook/match-conditions.js';
export {
  delegatingAuthorizer,
  alwaysAllowPathsAuthorizer,
  alwaysAllowGroupsAuthorizer,
  subjectAccessReviewsPath,
} from './delegated.js';
export type { DelegatingAuthorizerOptions } from './delegated.js';
