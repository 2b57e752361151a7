/** A path or query parameter, independent of the OpenAPI version. */
export interface ParameterSpec {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly description: string;
  readonly type: 'string' | 'integer' | 'boolean';
  readonly required?: boolean;
}

const query = (name: string, type: ParameterSpec['type'], description: string): ParameterSpec => ({
  name,
  in: 'query',
  type,
  description,
});

/** Kubernetes' query parameters, with its descriptions. */
export const queryParameters = {
  allowWatchBookmarks: query(
    'allowWatchBookmarks',
    'boolean',
    'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
  ),
  continue: query(
    'continue',
    'string',
    'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token.',
  ),
  dryRun: query(
    'dryRun',
    'string',
    'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  ),
  fieldManager: query(
    'fieldManager',
    'string',
    'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
  ),
  fieldSelector: query(
    'fieldSelector',
    'string',
    'A selector to restrict the list of returned objects by their fields. Defaults to everything.',
  ),
  fieldValidation: query(
    'fieldValidation',
    'string',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  ),
  force: query(
    'force',
    'boolean',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  ),
  gracePeriodSeconds: query(
    'gracePeriodSeconds',
    'integer',
    'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used.',
  ),
  ignoreStoreReadErrorWithClusterBreakingPotential: query(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object.',
  ),
  labelSelector: query(
    'labelSelector',
    'string',
    'A selector to restrict the list of returned objects by their labels. Defaults to everything.',
  ),
  limit: query(
    'limit',
    'integer',
    'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.',
  ),
  orphanDependents: query(
    'orphanDependents',
    'boolean',
    'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
  ),
  pretty: query(
    'pretty',
    'string',
    "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
  ),
  propagationPolicy: query(
    'propagationPolicy',
    'string',
    "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
  ),
  resourceVersion: query(
    'resourceVersion',
    'string',
    'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details. Defaults to unset',
  ),
  resourceVersionMatch: query(
    'resourceVersionMatch',
    'string',
    'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details. Defaults to unset',
  ),
  sendInitialEvents: query(
    'sendInitialEvents',
    'boolean',
    '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched. When `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set.',
  ),
  timeoutSeconds: query(
    'timeoutSeconds',
    'integer',
    'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.',
  ),
  watch: query(
    'watch',
    'boolean',
    'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.',
  ),
} as const satisfies Record<string, ParameterSpec>;

const p = queryParameters;

/** Parameters of list and watch operations (and of the list-like paths of watches). */
export const listParameters: readonly ParameterSpec[] = [
  p.allowWatchBookmarks,
  p.continue,
  p.fieldSelector,
  p.labelSelector,
  p.limit,
  p.resourceVersion,
  p.resourceVersionMatch,
  p.sendInitialEvents,
  p.timeoutSeconds,
  p.watch,
];

/** Parameters of create and replace. */
export const writeParameters: readonly ParameterSpec[] = [p.dryRun, p.fieldManager, p.fieldValidation];

/** Parameters of patch: those of writes, plus `force`. */
export const patchParameters: readonly ParameterSpec[] = [...writeParameters, p.force];

/** Parameters of delete. */
export const deleteParameters: readonly ParameterSpec[] = [
  p.dryRun,
  p.gracePeriodSeconds,
  p.ignoreStoreReadErrorWithClusterBreakingPotential,
  p.orphanDependents,
  p.propagationPolicy,
];

/** Parameters of deletecollection: those of delete, plus the list selection ones (not watch). */
export const deleteCollectionParameters: readonly ParameterSpec[] = [
  p.continue,
  p.dryRun,
  p.fieldSelector,
  p.gracePeriodSeconds,
  p.ignoreStoreReadErrorWithClusterBreakingPotential,
  p.labelSelector,
  p.limit,
  p.orphanDependents,
  p.propagationPolicy,
  p.resourceVersion,
  p.resourceVersionMatch,
  p.sendInitialEvents,
  p.timeoutSeconds,
];

/** The `{namespace}` path parameter. */
export const namespaceParameter: ParameterSpec = {
  name: 'namespace',
  in: 'path',
  type: 'string',
  required: true,
  description: 'object name and auth scope, such as for teams and projects',
};

/** The `{name}` path parameter of a kind. */
export const nameParameter = (kind: string): ParameterSpec => ({
  name: 'name',
  in: 'path',
  type: 'string',
  required: true,
  description: `name of the ${kind}`,
});
