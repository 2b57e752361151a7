export { buildApiServer } from './server/build-server.js';
export type { ApiServer, ApiServerOptions } from './server/build-server.js';
export type { HttpsOptions } from './server/fastify-app.js';
export { ServerMetrics } from './server/metrics.js';
export { ServerLifecycle, shutdownRetryAfterSeconds, shuttingDownMessage } from './server/lifecycle.js';
export type { LifecyclePhase } from './server/lifecycle.js';
export { gracefulShutdown } from './server/shutdown.js';
export type { ShutdownOptions, ShutdownOutcome } from './server/shutdown.js';
export type { RequestLabels } from './server/metrics.js';
export { WatchHub, watchBacklogLimitBytes } from './watch/watch-hub.js';
export type { WatchHubOptions, WatchLabels } from './watch/watch-hub.js';
export { resolveRequestInfo, requestInfoOf } from './request/request-info.js';
export { queryBool } from './request/query.js';
export { parseRequestTarget } from './request/request-target.js';
export type { RequestTarget } from './request/request-target.js';
export { rewriteRequestTarget, requestTargetOf } from './filters/request-info.js';
// Also brings the filters' `FastifyRequest.user` augmentation to every user of this package.
export type { AuthenticationOptions } from './filters/authentication.js';
export type { RequestInfo, RequestQuery } from './request/request-info.js';
export {
  requestAttributes,
  forbiddenMessage,
  alwaysAllowPaths,
  internalErrorText,
  fieldSelectorRequirements,
  labelSelectorRequirements,
} from './filters/authorization.js';
export { requestSpanName } from './filters/tracing.js';
export type { ServerTracing, RequestTrace, AuthenticatedRequest } from './filters/tracing.js';
export { Store } from './registry/store.js';
export type { StoreOptions, Transform, UpdateResult, DeleteResult } from './registry/store.js';
export { ObjectTexts } from './encoding/object-texts.js';
export type { JSONPage, ObjectPage, ObjectPart, PageItems } from './encoding/object-texts.js';
export { EncodedItems, encodedItemsMaxChars } from './encoding/encoded-items.js';
export { goJsonText, jsonToYaml, yamlListChunks } from './encoding/yaml-output.js';
export {
  negotiateOutput,
  negotiateStatus,
  negotiateWatch,
  outputMediaTypes,
  streamMediaTypes,
} from './encoding/negotiate.js';
export type { MetaVersion, Negotiated, OutputFormats, OutputMediaType, Representation } from './encoding/negotiate.js';
export type { JSONListShape } from './encoding/list-stream.js';
export { parseAccept } from './encoding/accept.js';
export type { GoXorshift } from './encoding/go-sort.js';
export type { AcceptClause } from './encoding/accept.js';
export { defineResource } from './registry/resource.js';
export type { ResourceDefinition } from './registry/resource.js';
export type { ResourceStrategy, TableConvertor } from './registry/strategy.js';
export type { VersionedView } from './registry/view.js';
export { schemaView } from './registry/schema-view.js';
export type { SchemaViewOptions } from './registry/schema-view.js';
export { generateName } from './registry/generate-name.js';
export type { NameGenerator } from './registry/generate-name.js';
export { restVerbs, servedVerbs } from './install/verbs.js';
export type { RestVerb, RouteKind } from './install/verbs.js';
export type { InstalledView } from './install/installer.js';
export type { DiscoveredResource } from './discovery/discovery.js';
export { aggregatedDiscoveryV2, aggregatedDiscoveryV2Beta1 } from './discovery/aggregated.js';
export { age, defaultTableConvertor, nameColumn } from './table/table.js';
export { humanDuration } from './table/human-duration.js';
export {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  expired,
  forbidden,
  fromStorageError,
  internalError,
  invalid,
  methodNotAllowed,
  methodNotSupported,
  notAcceptable,
  notFound,
  pathNotFound,
  qualified,
  requestEntityTooLarge,
  serviceUnavailable,
  timeout,
  unauthorized,
  unprocessable,
  unsupportedMediaType,
} from './errors/api-error.js';
export type { GroupResource } from './errors/api-error.js';
export { parseLabelSelector, SelectorParseError } from './selectors/label-selector.js';
export type { LabelSelector } from './selectors/label-selector.js';
export { parseFieldSelector } from './selectors/field-selector.js';
export type { FieldSelector, FieldRequirement } from './selectors/field-selector.js';
export { installImpersonation, impersonationRequests, impersonatedUser } from './filters/impersonation.js';
export { installSelfSubjectReviews, rulesOf } from './reviews/reviews.js';
export type { InstalledReview, NonResourceRule, ResourceRule, RuleResolver, RulesResult } from './reviews/reviews.js';
export {
  openAPIV2ToProtobuf,
  openAPIV2DocumentType,
  OpenAPIProtoError,
  openAPIV2ProtobufType,
  openAPIV2ProtobufTypeDeprecated,
} from './openapi/protobuf.js';
export { negotiateOpenAPI } from './openapi/accept.js';
export { watchListHandler } from './install/watch-item.js';
export {
  checkObjectValues,
  countValuesUpTo,
  maxBodyValues,
  maxObjectValues,
  tooManyValues,
} from './registry/object-values.js';
export { maxJSONPatchMemberNames } from './handlers/wide-json.js';
export { defaultValueLimits, valueLimitsOf } from './registry/value-limits.js';
export type { ValueLimits } from './registry/value-limits.js';
// Types the public API reaches (handlers, scopes, caches, options), so users can name them.
export type { Handler, RestScope } from './scope/rest-scope.js';
export type { RestRequest } from './request/rest-request.js';
export type { Query } from './request/query.js';
export type { EncodedEventCache } from './encoding/encoded-cache.js';
export type { ViewFieldManager } from './registry/field-managers.js';
export { createShape } from './registry/create-shapes.js';
export type { InFlightResponse } from './server/lifecycle.js';
export type { ConnectionLimits } from './server/connection-limits.js';
export type { HeaderLines } from './filters/header-lines.js';
export type { ImpersonationRequest } from './filters/impersonation.js';
// Leases and /version for servers of your own kinds.
export { leasesResource } from './resources/leases/resource.js';
export { leaseStrategy } from './resources/leases/strategy.js';
export { leaseColumns, leaseTable } from './resources/leases/table.js';
export { defaultVersionInfo, kubernetesMinorVersion } from './server/version.js';
export { defaultNamespaceUIDSeed, namespaceUID } from './server/namespaces.js';
// metadata.generation for kinds with a spec/status split.
export {
  withSpecGeneration,
  initialGeneration,
  nextGeneration,
  generationOnDeletion,
  semanticEqual,
  specFields,
} from './registry/generation.js';
export type { SpecOf } from './registry/generation.js';
// The required fields and enums of structural kinds, validated as kube-apiserver validates CRDs.
export {
  violationError,
  schemaErrors,
  schemaUpdateErrors,
  withStructuralValidation,
} from './registry/structural-validation.js';
export type { LifecycleOptions } from './server/lifecycle.js';
