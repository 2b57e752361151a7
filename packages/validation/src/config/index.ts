export {
  validateAuthenticationConfiguration,
  validateJWTAuthenticator,
  maxJWTAuthenticators,
} from './authentication.js';
export type { AuthenticationValidationOptions } from './authentication.js';
export {
  validateAuthorizationConfiguration,
  validateWebhookConfiguration,
  knownAuthorizerTypes,
  repeatableAuthorizerTypes,
  maxMatchConditions,
} from './authorization.js';
export type { AuthorizationValidationOptions } from './authorization.js';
export { validateEgressSelectorConfiguration, egressSelectionNames } from './egress.js';
export { validateTracingConfiguration } from './tracing.js';
export { isDNS1123Subdomain, isDomainPrefixedPath } from './names.js';
export { parseGoURL, URLParseError } from './url.js';
export type { ParsedURL } from './url.js';
