export { OidcIssuer } from './oidc-issuer.js';
export type { OidcIssuerOptions, SigningAlgorithm } from './oidc-issuer.js';
export { generateCA, generateClientCert, generateServingCert } from './certificates.js';
export type { KeyPair } from './certificates.js';
