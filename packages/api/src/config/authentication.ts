/** `AuthenticationConfiguration` (apiserver.config.k8s.io/v1beta1): JWT authenticators and anonymous access. */
export interface AuthenticationConfiguration {
  apiVersion: string;
  kind: 'AuthenticationConfiguration';
  jwt?: JWTAuthenticator[];
  anonymous?: AnonymousAuthConfig;
}

export interface AnonymousAuthConfig {
  enabled?: boolean;
  conditions?: AnonymousAuthCondition[];
}

export interface AnonymousAuthCondition {
  path?: string;
}

export interface JWTAuthenticator {
  issuer: Issuer;
  claimValidationRules?: ClaimValidationRule[];
  claimMappings: ClaimMappings;
  userValidationRules?: UserValidationRule[];
}

/** `MatchAny` or empty. */
export type AudienceMatchPolicyType = string;

/** `controlplane` or `cluster`. */
export type EgressSelectorType = string;

export interface Issuer {
  url?: string;
  /** Absent, null and `""` all mean unset. */
  discoveryURL?: string;
  certificateAuthority?: string;
  audiences?: string[];
  audienceMatchPolicy?: AudienceMatchPolicyType;
  egressSelectorType?: EgressSelectorType;
}

export interface ClaimValidationRule {
  claim?: string;
  requiredValue?: string;
  expression?: string;
  message?: string;
}

export interface ClaimMappings {
  username: PrefixedClaimOrExpression;
  groups?: PrefixedClaimOrExpression;
  uid?: ClaimOrExpression;
  extra?: ExtraMapping[];
}

export interface ClaimOrExpression {
  claim?: string;
  expression?: string;
}

export interface PrefixedClaimOrExpression {
  claim?: string;
  /** Presence matters: `""` disables prefixing, absent is an error when claim is set. */
  prefix?: string;
  expression?: string;
}

export interface ExtraMapping {
  key?: string;
  valueExpression?: string;
}

export interface UserValidationRule {
  expression?: string;
  message?: string;
}
