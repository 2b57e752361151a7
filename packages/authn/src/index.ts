export { AuthenticationChain } from './chain.js';
export type { AuthenticationChainOptions } from './chain.js';
export { AnonymousAuthenticator } from './anonymous.js';
export { BearerTokenAuthenticator, bearerToken } from './bearer-token.js';
export { authenticatedGroupAdder, allAuthenticated, allUnauthenticated } from './group-adder.js';
export { CachedTokenAuthenticator } from './token-cache.js';
export type { TokenCacheOptions } from './token-cache.js';
export type { TokenAuthenticator } from './token.js';
export { unionAuthenticator, unionTokenAuthenticator } from './union.js';
export { X509Authenticator, parseCertificateBundle } from './x509.js';
export { withCredentialExpiry, credentialExpiry } from './credential-expiry.js';
export { issuerHttpClient } from './http-client.js';
export type { IssuerHttpClient, IssuerHttpClientOptions, IssuerHttpResponse } from './http-client.js';
export { JwtAuthenticator, defaultHttpClientFor } from './jwt/jwt-authenticator.js';
export type { JwtAuthenticatorOptions } from './jwt/jwt-authenticator.js';
export { JwtAuthenticatorSet, SwappableTokenAuthenticator } from './jwt/jwt-set.js';
export { supportedSigningAlgorithms } from './jwt/verify.js';
export { peekIssuer } from './jwt/peek.js';
export { credentialIdKey } from './jwt/claim-mappings.js';
export { AuthenticationMetrics, hashLabel } from './metrics.js';
export { AuthenticationError, invalidCredentials, expiredCredentials, authenticatorUnavailable } from './errors.js';
export {
  RequestHeaderAuthenticator,
  requestHeaderDefaults,
  authenticationHeaderNames,
  unescapeExtraKey,
} from './request-header.js';
export type { RequestHeaderConfig } from './request-header.js';
export { TokenReviewAuthenticator, tokenReviewsPath } from './token-review.js';
export type { TokenReviewAuthenticatorOptions, TokenReviewTransport } from './token-review.js';
export {
  ExtensionAuthentication,
  extensionAuthenticationConfigMap,
  parseExtensionAuthentication,
} from './extension-authentication.js';
export type { ExtensionAuthenticationData, ExtensionAuthenticationOptions } from './extension-authentication.js';
