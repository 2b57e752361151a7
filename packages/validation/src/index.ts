export { FieldPath } from './field/path.js';
export {
  FieldError,
  fieldErrorTypeText,
  omitValue,
  formatBadValue,
  GoLiteral,
  aggregateMessage,
  uniqueErrors,
  required,
  invalid,
  invalidEach,
  forbidden,
  duplicate,
  notFound,
  notSupported,
  tooLong,
  tooMany,
  internalError,
  typeInvalid,
} from './field/error.js';
export type { FieldErrorType } from './field/error.js';
export {
  validateAuthenticationConfiguration,
  validateJWTAuthenticator,
  maxJWTAuthenticators,
  validateAuthorizationConfiguration,
  validateWebhookConfiguration,
  knownAuthorizerTypes,
  repeatableAuthorizerTypes,
  maxMatchConditions,
  validateEgressSelectorConfiguration,
  egressSelectionNames,
  validateTracingConfiguration,
  isDNS1123Subdomain,
  isDomainPrefixedPath,
  parseGoURL,
  URLParseError,
} from './config/index.js';
export type { AuthenticationValidationOptions, AuthorizationValidationOptions, ParsedURL } from './config/index.js';
export { goLen, maxLenError, maxLenBytesError, emptyError, regexError } from './meta/messages.js';
export {
  isDNS1123Label,
  isDNS1123SubdomainContent,
  dns1123LabelFmt,
  dns1123SubdomainFmt,
  dns1123LabelMaxLength,
  dns1123SubdomainMaxLength,
} from './meta/dns.js';
export {
  isQualifiedName,
  isValidLabelValue,
  qualifiedNameFmt,
  labelValueFmt,
  qualifiedNameMaxLength,
  labelValueMaxLength,
} from './meta/qualified-name.js';
export { isPathSegmentName, isPathSegmentPrefix } from './meta/path-segment.js';
export { nameIsDNSSubdomain, nameIsDNSLabel, nameIsPathSegment, validateNamespaceName } from './meta/name-functions.js';
export type { ValidateNameFunc } from './meta/name-functions.js';
export { validateLabels, validateLabelName } from './meta/labels.js';
export { validateAnnotations, totalAnnotationSizeLimitBytes } from './meta/annotations.js';
export { validateOwnerReferences } from './meta/owner-references.js';
export {
  validateFinalizers,
  validateKubeFinalizerNames,
  validateNoNewFinalizers,
  finalizerOrphanDependents,
  finalizerDeleteDependents,
} from './meta/finalizers.js';
export {
  validateManagedFields,
  validateFieldManager,
  fieldManagerMaxLength,
  maxSubresourceNameLength,
} from './meta/managed-fields.js';
export { validateImmutableField, fieldImmutableErrorMsg } from './meta/immutable.js';
export { validateObjectMeta, validateNonnegative, isNegativeErrorMsg } from './meta/object-meta.js';
export type { ObjectMetaOptions } from './meta/object-meta.js';
export { validateObjectMetaUpdate } from './meta/object-meta-update.js';
export { isZeroTime, goTime, goMicroTime } from './meta/go-time.js';
export { deepEqual } from './meta/deep-equal.js';
export { goQuote, goJSON } from './field/error.js';
export { isStrictEventVersion } from './event/request-version.js';
export type { EventRequestVersion } from './event/request-version.js';
export { legacyValidateEvent } from './event/legacy.js';
export { validateEventSeries } from './event/series.js';
export { validateEventCreate, eventTypes } from './event/create.js';
export { validateEventUpdate } from './event/update.js';
export { validateEventCreateRequest, validateEventUpdateRequest } from './event/request.js';
export { goObjectReference, goEventSource } from './event/go-values.js';
export {
  validateLease,
  validateLeaseUpdate,
  validateLeaseSpec,
  validateCoordinatedLeaseStrategy,
  validLeaseStrategies,
} from './lease/lease.js';
