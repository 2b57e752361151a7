export {
  parseRFC3339,
  formatTime,
  formatMicroTime,
  normalizeTime,
  normalizeMicroTime,
  timeToMillis,
  now,
  timeNow,
  microTimeNow,
} from './meta/time.js';
export type { Instant } from './meta/time.js';
export type {
  ObjectMeta,
  ListMeta,
  TypeMeta,
  KubeObject,
  OwnerReference,
  ManagedFieldsEntry,
  PartialObjectMetadata,
} from './meta/object-meta.js';
export { makeStatus } from './meta/status.js';
export type { Status, StatusReason, StatusCause, StatusDetails } from './meta/status.js';
export { initialEventsEndAnnotation, initialEventsListBlueprintAnnotation } from './meta/watch-event.js';
export type { WatchEvent, WatchEventType } from './meta/watch-event.js';
export type {
  APIVersions,
  APIGroup,
  APIGroupList,
  APIResource,
  APIResourceList,
  GroupVersionForDiscovery,
  ServerAddressByClientCIDR,
  VersionInfo,
} from './meta/discovery.js';
export type {
  APIGroupDiscoveryList,
  APIGroupDiscovery,
  APIVersionDiscovery,
  APIResourceDiscovery,
  APISubresourceDiscovery,
  GroupVersionKindJSON,
  ResourceScope,
  DiscoveryFreshness,
} from './meta/aggregated-discovery.js';
export {
  aggregatedDiscoveryGroup,
  aggregatedDiscoveryVersion,
  aggregatedDiscoveryMediaType,
} from './meta/aggregated-discovery.js';
export type { Table, TableRow, TableColumnDefinition } from './meta/table.js';
export type {
  ObjectReference,
  EventSource,
  CoreEvent,
  CoreEventList,
  CoreEventSeries,
  Namespace,
  NamespaceList,
} from './core/v1.js';
export type { Event, EventList, EventSeries } from './events/v1.js';
export type { Lease, LeaseList, LeaseSpec, CoordinatedLeaseStrategy } from './coordination/v1.js';
export {
  defaultGroupDomain,
  eventsGroup,
  coordinationGroup,
  apiserverConfigGroup,
  eventsVersion,
  eventsResource,
  eventsStorageVersionHash,
  leasesVersion,
  leasesResource,
  leasesStorageVersionHash,
  eventLimits,
  maxRequestBodyBytes,
} from './constants.js';
export { eventToCore, coreToEvent } from './conversion/events.js';
export { coreEventStoredTextPlan, eventsV1StoredTextPlan } from './conversion/event-text-plans.js';
export { decodeObject } from './schema/decode.js';
export { microTimeLayout, parseMicroTime } from './meta/micro-time.js';
export type { MicroTimeParse } from './meta/micro-time.js';
export type { DecodeResult } from './schema/decode.js';
export { encodeObject } from './schema/encode.js';
export type { ObjectSchema, FieldSchema, FieldType, Emit } from './schema/types.js';
export {
  objectMetaSchema,
  listMetaSchema,
  ownerReferenceSchema,
  managedFieldsEntrySchema,
  preconditionsSchema,
  deleteOptionsSchema,
} from './schema/meta-schemas.js';
export {
  objectReferenceSchema,
  eventSourceSchema,
  coreEventSeriesSchema,
  eventsV1SeriesSchema,
  coreEventSchema,
  eventsV1EventSchema,
  coreEventListSchema,
  eventsV1EventListSchema,
} from './schema/event-schemas.js';
export { leaseSchema, leaseSpecSchema, leaseListSchema } from './schema/lease-schemas.js';
export type {
  AuthenticationConfiguration,
  AnonymousAuthConfig,
  AnonymousAuthCondition,
  JWTAuthenticator,
  Issuer,
  AudienceMatchPolicyType,
  EgressSelectorType,
  ClaimValidationRule,
  ClaimMappings,
  ClaimOrExpression,
  PrefixedClaimOrExpression,
  ExtraMapping,
  UserValidationRule,
} from './config/authentication.js';
export type {
  AuthorizationConfiguration,
  AuthorizerConfiguration,
  WebhookConfiguration,
  WebhookConnectionInfo,
  WebhookMatchCondition,
} from './config/authorization.js';
export { webhookFileConnectionTypes, webhookConfigFile, webhookDefaults } from './config/authorization.js';
export type {
  EgressSelectorConfiguration,
  EgressSelection,
  ProtocolType,
  Connection,
  Transport,
  TCPTransport,
  TLSConfig,
  UDSTransport,
} from './config/egress.js';
export type { TracingConfiguration } from './config/tracing.js';
export type { ConfigObject } from './config/index.js';
export { parseDuration, parseGoDuration, formatDuration } from './config/duration.js';
export type { DurationNanos, DurationParse } from './config/duration.js';
export { configVersion, configKinds, apiserverGroup, configApiVersions } from './config/group.js';
export type { ConfigKind } from './config/group.js';
export {
  statusSchema,
  statusDetailsSchema,
  statusCauseSchema,
  rawExtensionSchema,
  watchEventSchema,
  patchSchema,
  apiResourceSchema,
  apiResourceListSchema,
  namespaceSchema,
  namespaceSpecSchema,
  namespaceStatusSchema,
  namespaceConditionSchema,
  namespaceListSchema,
} from './schema/openapi-extra-schemas.js';
export { openAPIV2 } from './openapi/v2.js';
export { openAPIV3, openAPIV3GroupVersions } from './openapi/v3.js';
export { defaultPatchTypes } from './openapi/input.js';
export { schemaExtensions, fieldExtensions } from './openapi/kubernetes-extensions.js';
export type { OpenAPIInput, OpenAPIGroupVersion, OpenAPIResource, OpenAPIVerb } from './openapi/input.js';
export type { JsonObject, JsonValue } from './openapi/json.js';
export { groupVersionKey, groupVersionPrefix } from './openapi/operations.js';
export { quoteJSON, serializeObject } from './schema/serialize.js';
export { canonicalObject, isCanonicalValue, stringifyObject } from './schema/canonical.js';
export type { StoredTextPlan } from './schema/stored-text-plan.js';
export type { UserInfo } from './auth/user-info.js';
export { anonymousUser, frozenUser, isFrozenUser, unescapeExtraKey } from './auth/user-info.js';
export type { RequestAttributes, SelectorRequirement } from './auth/request-attributes.js';
export type { Authorizer, Decision } from './auth/authorizer.js';
export type {
  Authenticator,
  AuthenticationRequest,
  AuthenticationResponse,
  AuthenticationErrorCode,
} from './auth/authenticator.js';
export { AuthenticationError } from './auth/authenticator.js';
export type { AuthenticationHeaders } from './auth/authentication-headers.js';
export { isAuthenticationHeader, withoutAuthenticationHeaders } from './auth/authentication-headers.js';
// The schema kit: describe a new kind's wire shape without field literals.
export {
  field,
  str,
  enumOf,
  int32,
  int64,
  bool,
  time,
  microTime,
  obj,
  mapOf,
  arrayOf,
  anyJSON,
} from './schema/types.js';
export { typeMetaFields } from './schema/meta-schemas.js';
export { kindSchema, kindListSchema } from './schema/kind-schemas.js';
export type { KindSchemaOptions } from './schema/kind-schemas.js';
export { structuralViolations } from './schema/structural.js';
export type { SchemaViolation } from './schema/structural.js';
export { goFormatNumber } from './go-number.js';
export { goFormatValue } from './go-value.js';
export { goJsonSyntaxError } from './json/go-json-syntax.js';
export { goEscapeJSON, needsGoEscapes } from './json/go-html-escape.js';
export { goQuote, goQuoteList, isGoPrint } from './go-quote.js';
export { hasSurrogateEscape, jsonShortEscapes, parseJson } from './json/parse-json.js';
export { jsonStringEnd } from './json/string-end.js';
export { getOwn, setOwn } from './json/own.js';
export {
  encodeProtobuf,
  encodeListEnvelope,
  encodeListEnvelopeParts,
  encodeListItems,
  decodeProtobuf,
  encodeWatchEvent,
  decodeWatchEvent,
  protobufPrefix,
  maxProtobufBytes,
  goAPIVersion,
  ProtobufDecodeError,
  protobufTypes,
} from './protobuf/index.js';
export type { ProtobufType, ProtobufDecodeErrorCode, DecodeProtobufOptions } from './protobuf/index.js';
