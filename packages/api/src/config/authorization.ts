import type { DurationNanos } from './duration.js';

/** `AuthorizationConfiguration` (apiserver.config.k8s.io/v1beta1): the ordered authorizer chain. */
export interface AuthorizationConfiguration {
  apiVersion: string;
  kind: 'AuthorizationConfiguration';
  authorizers?: AuthorizerConfiguration[];
}

export interface AuthorizerConfiguration {
  /** `Webhook`, or a built-in type such as `AlwaysAllow`, `AlwaysDeny`, `RBAC`, `Node`, `ABAC`. */
  type?: string;
  name?: string;
  webhook?: WebhookConfiguration;
}

/** Durations are nanoseconds here and Go duration strings (`5m0s`) in documents. */
export interface WebhookConfiguration {
  /** Defaulted to 5m0s when zero. */
  authorizedTTL?: DurationNanos;
  /** Defaulted to true when absent. */
  cacheAuthorizedRequests?: boolean;
  /** Defaulted to 30s when zero. */
  unauthorizedTTL?: DurationNanos;
  /** Defaulted to true when absent. */
  cacheUnauthorizedRequests?: boolean;
  timeout?: DurationNanos;
  subjectAccessReviewVersion?: string;
  matchConditionSubjectAccessReviewVersion?: string;
  failurePolicy?: string;
  connectionInfo?: WebhookConnectionInfo;
  matchConditions?: WebhookMatchCondition[];
}

/**
 * How to reach the webhook. `PlatformConfigFile` / `platformConfigFile` (this project's spec) and
 * `KubeConfigFile` / `kubeConfigFile` (Kubernetes) are two spellings of the same thing.
 */
export interface WebhookConnectionInfo {
  type?: string;
  kubeConfigFile?: string;
  platformConfigFile?: string;
}

export interface WebhookMatchCondition {
  expression?: string;
}

/** The connection types that read a kubeconfig-format file. */
export const webhookFileConnectionTypes: readonly string[] = ['KubeConfigFile', 'PlatformConfigFile'];

/** The kubeconfig-format file of a connection, whichever spelling the document used. */
export function webhookConfigFile(info: WebhookConnectionInfo | undefined): string | undefined {
  return info?.platformConfigFile ?? info?.kubeConfigFile;
}

/** The v1beta1 defaults: authorizedTTL 5m0s, unauthorizedTTL 30s, both cache flags true. */
export const webhookDefaults = {
  authorizedTTL: 5 * 60e9,
  unauthorizedTTL: 30e9,
  cacheAuthorizedRequests: true,
  cacheUnauthorizedRequests: true,
} as const;
