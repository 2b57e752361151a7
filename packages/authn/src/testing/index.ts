export { OidcIssuer } from './oidc-issuer.js';
export type { OidcIssuerOptions, SigningAlgorithm } from './oidc-issuer.js';
export { generateCA, generateClientCert, generateServingCert } from '@kevents/api/testing';
export type { KeyPair } from '@kevents/api/testing';
export { TokenReviewServer } from './token-review-server.js';
export type { ReceivedTokenReview, TokenReviewAnswer } from './token-review-server.js';
export { startFrontProxy } from './front-proxy.js';
export type { FrontProxy, FrontProxyOptions } from './front-proxy.js';
