/**
 * The protobuf messages of kevents' kinds, as k8s.io/api and k8s.io/apimachinery generate them:
 * field numbers, wire kinds, whether the Go field is a pointer (written only when set) or a
 * value (always written, even empty), the JSON name and `omitempty`, and the Go field name Go's
 * decoder errors name. Fields are listed in Go struct order (the order Go's JSON writes them);
 * `encodeOrder` sorts them by number, the order the generated marshallers write them.
 */

/** How a field is held on the wire and in JSON. */
export type FieldKind =
  | 'string'
  | 'int32'
  | 'int64'
  | 'bool'
  | 'time'
  | 'microTime'
  | 'message'
  | 'strings'
  | 'verbs'
  | 'map'
  | 'bytes'
  | 'fieldsV1'
  | 'rawExtension';

/** One field of a message. */
export interface FieldSpec {
  readonly no: number;
  /** The JSON name (k8s.io/api's json tag). */
  readonly json: string;
  /** The Go field name, as decode errors name it. */
  readonly go: string;
  readonly kind: FieldKind;
  /** A Go pointer (or slice of messages): written only when set. */
  readonly pointer: boolean;
  /** The json tag's `omitempty`. */
  readonly omitempty: boolean;
  /** A repeated message. */
  readonly repeated: boolean;
  /** The message of a `message` field. */
  readonly message?: MessageSpec;
  /** A field newer than k8s.io/api v0.26 (added by hand from the newest generated.proto). */
  readonly newer: boolean;
}

/** One message. */
export interface MessageSpec {
  /** The Go type name, as decode errors name it. */
  readonly name: string;
  /** Fields in Go struct order. */
  readonly fields: readonly FieldSpec[];
  /** Fields in field-number order. */
  readonly encodeOrder: readonly FieldSpec[];
  /** Fields by number (a sparse array). */
  readonly byNo: readonly (FieldSpec | undefined)[];
}

interface Opts {
  pointer?: boolean;
  omitempty?: boolean;
  repeated?: boolean;
  message?: MessageSpec;
  newer?: boolean;
}

/** A field: `json` tag name (with `,omitempty` when Go's tag has it). */
function f(no: number, jsonTag: string, go: string, kind: FieldKind, o: Opts = {}): FieldSpec {
  const [json, ...flags] = jsonTag.split(',');
  return {
    no,
    json: json!,
    go,
    kind,
    pointer: o.pointer ?? false,
    omitempty: flags.includes('omitempty'),
    repeated: o.repeated ?? false,
    newer: o.newer ?? false,
    ...(o.message ? { message: o.message } : {}),
  };
}

function m(name: string, fields: FieldSpec[]): MessageSpec {
  const byNo: (FieldSpec | undefined)[] = [];
  for (const field of fields) byNo[field.no] = field;
  return { name, fields, encodeOrder: [...fields].sort((a, b) => a.no - b.no), byNo };
}

const ptr = { pointer: true } as const;
const msg = (message: MessageSpec, pointer = false): Opts => ({ message, pointer });
const rep = (message: MessageSpec): Opts => ({ message, pointer: true, repeated: true });

/** k8s.io/apimachinery runtime.TypeMeta. */
export const TypeMeta = m('TypeMeta', [
  f(1, 'apiVersion,omitempty', 'APIVersion', 'string'),
  f(2, 'kind,omitempty', 'Kind', 'string'),
]);

/** k8s.io/apimachinery runtime.Unknown, the envelope. */
export const Unknown = m('Unknown', [
  f(1, 'typeMeta', 'TypeMeta', 'message', msg(TypeMeta)),
  f(2, 'raw', 'Raw', 'bytes'),
  f(3, 'contentEncoding', 'ContentEncoding', 'string'),
  f(4, 'contentType', 'ContentType', 'string'),
]);

/** metav1.FieldsV1 (its JSON is its raw bytes). */
export const FieldsV1 = m('FieldsV1', [f(1, 'Raw', 'Raw', 'bytes')]);

/** runtime.RawExtension (its JSON is its raw bytes). */
export const RawExtension = m('RawExtension', [f(1, 'raw', 'Raw', 'bytes')]);

/** metav1.ManagedFieldsEntry. */
export const ManagedFieldsEntry = m('ManagedFieldsEntry', [
  f(1, 'manager,omitempty', 'Manager', 'string'),
  f(2, 'operation,omitempty', 'Operation', 'string'),
  f(3, 'apiVersion,omitempty', 'APIVersion', 'string'),
  f(4, 'time,omitempty', 'Time', 'time', ptr),
  f(6, 'fieldsType,omitempty', 'FieldsType', 'string'),
  f(7, 'fieldsV1,omitempty', 'FieldsV1', 'fieldsV1', { pointer: true, message: FieldsV1 }),
  f(8, 'subresource,omitempty', 'Subresource', 'string'),
]);

/** metav1.OwnerReference. */
export const OwnerReference = m('OwnerReference', [
  f(5, 'apiVersion', 'APIVersion', 'string'),
  f(1, 'kind', 'Kind', 'string'),
  f(3, 'name', 'Name', 'string'),
  f(4, 'uid', 'UID', 'string'),
  f(6, 'controller,omitempty', 'Controller', 'bool', ptr),
  f(7, 'blockOwnerDeletion,omitempty', 'BlockOwnerDeletion', 'bool', ptr),
]);

/** metav1.ObjectMeta. */
export const ObjectMeta = m('ObjectMeta', [
  f(1, 'name,omitempty', 'Name', 'string'),
  f(2, 'generateName,omitempty', 'GenerateName', 'string'),
  f(3, 'namespace,omitempty', 'Namespace', 'string'),
  f(4, 'selfLink,omitempty', 'SelfLink', 'string'),
  f(5, 'uid,omitempty', 'UID', 'string'),
  f(6, 'resourceVersion,omitempty', 'ResourceVersion', 'string'),
  f(7, 'generation,omitempty', 'Generation', 'int64'),
  f(8, 'creationTimestamp,omitempty', 'CreationTimestamp', 'time'),
  f(9, 'deletionTimestamp,omitempty', 'DeletionTimestamp', 'time', ptr),
  f(10, 'deletionGracePeriodSeconds,omitempty', 'DeletionGracePeriodSeconds', 'int64', ptr),
  f(11, 'labels,omitempty', 'Labels', 'map', ptr),
  f(12, 'annotations,omitempty', 'Annotations', 'map', ptr),
  f(13, 'ownerReferences,omitempty', 'OwnerReferences', 'message', rep(OwnerReference)),
  f(14, 'finalizers,omitempty', 'Finalizers', 'strings', ptr),
  f(17, 'managedFields,omitempty', 'ManagedFields', 'message', rep(ManagedFieldsEntry)),
]);

/** metav1.ShardInfo (newer than v0.26). */
export const ShardInfo = m('ShardInfo', [f(1, 'selector', 'Selector', 'string')]);

/** metav1.ListMeta. */
export const ListMeta = m('ListMeta', [
  f(1, 'selfLink,omitempty', 'SelfLink', 'string'),
  f(2, 'resourceVersion,omitempty', 'ResourceVersion', 'string'),
  f(3, 'continue,omitempty', 'Continue', 'string'),
  f(4, 'remainingItemCount,omitempty', 'RemainingItemCount', 'int64', ptr),
  f(5, 'shardInfo,omitempty', 'ShardInfo', 'message', { message: ShardInfo, pointer: true, newer: true }),
]);

/** core/v1 ObjectReference. */
export const ObjectReference = m('ObjectReference', [
  f(1, 'kind,omitempty', 'Kind', 'string'),
  f(2, 'namespace,omitempty', 'Namespace', 'string'),
  f(3, 'name,omitempty', 'Name', 'string'),
  f(4, 'uid,omitempty', 'UID', 'string'),
  f(5, 'apiVersion,omitempty', 'APIVersion', 'string'),
  f(6, 'resourceVersion,omitempty', 'ResourceVersion', 'string'),
  f(7, 'fieldPath,omitempty', 'FieldPath', 'string'),
]);

/** core/v1 EventSource. */
export const EventSource = m('EventSource', [
  f(1, 'component,omitempty', 'Component', 'string'),
  f(2, 'host,omitempty', 'Host', 'string'),
]);

/** core/v1 EventSeries. */
export const CoreEventSeries = m('EventSeries', [
  f(1, 'count,omitempty', 'Count', 'int32'),
  f(2, 'lastObservedTime,omitempty', 'LastObservedTime', 'microTime'),
]);

/** core/v1 Event. */
export const CoreEvent = m('Event', [
  f(1, 'metadata', 'ObjectMeta', 'message', msg(ObjectMeta)),
  f(2, 'involvedObject', 'InvolvedObject', 'message', msg(ObjectReference)),
  f(3, 'reason,omitempty', 'Reason', 'string'),
  f(4, 'message,omitempty', 'Message', 'string'),
  f(5, 'source,omitempty', 'Source', 'message', msg(EventSource)),
  f(6, 'firstTimestamp,omitempty', 'FirstTimestamp', 'time'),
  f(7, 'lastTimestamp,omitempty', 'LastTimestamp', 'time'),
  f(8, 'count,omitempty', 'Count', 'int32'),
  f(9, 'type,omitempty', 'Type', 'string'),
  f(10, 'eventTime,omitempty', 'EventTime', 'microTime'),
  f(11, 'series,omitempty', 'Series', 'message', msg(CoreEventSeries, true)),
  f(12, 'action,omitempty', 'Action', 'string'),
  f(13, 'related,omitempty', 'Related', 'message', msg(ObjectReference, true)),
  f(14, 'reportingComponent', 'ReportingController', 'string'),
  f(15, 'reportingInstance', 'ReportingInstance', 'string'),
]);

/** core/v1 EventList. */
export const CoreEventList = m('EventList', [
  f(1, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(2, 'items', 'Items', 'message', rep(CoreEvent)),
]);

/** events.k8s.io/v1 EventSeries. */
export const EventsEventSeries = m('EventSeries', [
  f(1, 'count', 'Count', 'int32'),
  f(2, 'lastObservedTime', 'LastObservedTime', 'microTime'),
]);

/** events.k8s.io/v1 Event. */
export const EventsEvent = m('Event', [
  f(1, 'metadata', 'ObjectMeta', 'message', msg(ObjectMeta)),
  f(2, 'eventTime', 'EventTime', 'microTime'),
  f(3, 'series,omitempty', 'Series', 'message', msg(EventsEventSeries, true)),
  f(4, 'reportingController,omitempty', 'ReportingController', 'string'),
  f(5, 'reportingInstance,omitempty', 'ReportingInstance', 'string'),
  f(6, 'action,omitempty', 'Action', 'string'),
  f(7, 'reason,omitempty', 'Reason', 'string'),
  f(8, 'regarding,omitempty', 'Regarding', 'message', msg(ObjectReference)),
  f(9, 'related,omitempty', 'Related', 'message', msg(ObjectReference, true)),
  f(10, 'note,omitempty', 'Note', 'string'),
  f(11, 'type,omitempty', 'Type', 'string'),
  f(12, 'deprecatedSource,omitempty', 'DeprecatedSource', 'message', msg(EventSource)),
  f(13, 'deprecatedFirstTimestamp,omitempty', 'DeprecatedFirstTimestamp', 'time'),
  f(14, 'deprecatedLastTimestamp,omitempty', 'DeprecatedLastTimestamp', 'time'),
  f(15, 'deprecatedCount,omitempty', 'DeprecatedCount', 'int32'),
]);

/** events.k8s.io/v1 EventList. */
export const EventsEventList = m('EventList', [
  f(1, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(2, 'items', 'Items', 'message', rep(EventsEvent)),
]);

/** coordination.k8s.io/v1 LeaseSpec (strategy and preferredHolder are newer than v0.26). */
export const LeaseSpec = m('LeaseSpec', [
  f(1, 'holderIdentity,omitempty', 'HolderIdentity', 'string', ptr),
  f(2, 'leaseDurationSeconds,omitempty', 'LeaseDurationSeconds', 'int32', ptr),
  f(3, 'acquireTime,omitempty', 'AcquireTime', 'microTime', ptr),
  f(4, 'renewTime,omitempty', 'RenewTime', 'microTime', ptr),
  f(5, 'leaseTransitions,omitempty', 'LeaseTransitions', 'int32', ptr),
  f(6, 'strategy,omitempty', 'Strategy', 'string', { pointer: true, newer: true }),
  f(7, 'preferredHolder,omitempty', 'PreferredHolder', 'string', { pointer: true, newer: true }),
]);

/** coordination.k8s.io/v1 Lease. */
export const Lease = m('Lease', [
  f(1, 'metadata,omitempty', 'ObjectMeta', 'message', msg(ObjectMeta)),
  f(2, 'spec,omitempty', 'Spec', 'message', msg(LeaseSpec)),
]);

/** coordination.k8s.io/v1 LeaseList. */
export const LeaseList = m('LeaseList', [
  f(1, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(2, 'items', 'Items', 'message', rep(Lease)),
]);

/** metav1.StatusCause. */
export const StatusCause = m('StatusCause', [
  f(1, 'reason,omitempty', 'Type', 'string'),
  f(2, 'message,omitempty', 'Message', 'string'),
  f(3, 'field,omitempty', 'Field', 'string'),
]);

/** metav1.StatusDetails. */
export const StatusDetails = m('StatusDetails', [
  f(1, 'name,omitempty', 'Name', 'string'),
  f(2, 'group,omitempty', 'Group', 'string'),
  f(3, 'kind,omitempty', 'Kind', 'string'),
  f(6, 'uid,omitempty', 'UID', 'string'),
  f(4, 'causes,omitempty', 'Causes', 'message', rep(StatusCause)),
  f(5, 'retryAfterSeconds,omitempty', 'RetryAfterSeconds', 'int32'),
]);

/** metav1.Status. */
export const Status = m('Status', [
  f(1, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(2, 'status,omitempty', 'Status', 'string'),
  f(3, 'message,omitempty', 'Message', 'string'),
  f(4, 'reason,omitempty', 'Reason', 'string'),
  f(5, 'details,omitempty', 'Details', 'message', msg(StatusDetails, true)),
  f(6, 'code,omitempty', 'Code', 'int32'),
]);

/** metav1.Preconditions. */
export const Preconditions = m('Preconditions', [
  f(1, 'uid,omitempty', 'UID', 'string', ptr),
  f(2, 'resourceVersion,omitempty', 'ResourceVersion', 'string', ptr),
]);

/** metav1.DeleteOptions (ignoreStoreReadErrorWithClusterBreakingPotential is newer than v0.26). */
export const DeleteOptions = m('DeleteOptions', [
  f(1, 'gracePeriodSeconds,omitempty', 'GracePeriodSeconds', 'int64', ptr),
  f(2, 'preconditions,omitempty', 'Preconditions', 'message', msg(Preconditions, true)),
  f(3, 'orphanDependents,omitempty', 'OrphanDependents', 'bool', ptr),
  f(4, 'propagationPolicy,omitempty', 'PropagationPolicy', 'string', ptr),
  f(5, 'dryRun,omitempty', 'DryRun', 'strings', ptr),
  f(
    6,
    'ignoreStoreReadErrorWithClusterBreakingPotential,omitempty',
    'IgnoreStoreReadErrorWithClusterBreakingPotential',
    'bool',
    {
      pointer: true,
      newer: true,
    },
  ),
]);

/** metav1.PartialObjectMetadata. */
export const PartialObjectMetadata = m('PartialObjectMetadata', [
  f(1, 'metadata,omitempty', 'ObjectMeta', 'message', msg(ObjectMeta)),
]);

/** metav1.PartialObjectMetadataList. */
export const PartialObjectMetadataList = m('PartialObjectMetadataList', [
  f(1, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(2, 'items', 'Items', 'message', rep(PartialObjectMetadata)),
]);

/**
 * metav1beta1.PartialObjectMetadataList: the v1 list's fields with their numbers swapped (items 1,
 * metadata 2), so its items are written first; its items are v1 PartialObjectMetadata.
 */
export const PartialObjectMetadataListV1beta1 = m('PartialObjectMetadataList', [
  f(2, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(1, 'items', 'Items', 'message', rep(PartialObjectMetadata)),
]);

/** metav1.Verbs: a `[]string` written as a message of its items (`repeated string items = 1`). */
export const VerbsItems = m('Verbs', [f(1, 'items', 'Items', 'strings')]);

/** metav1.ServerAddressByClientCIDR. */
export const ServerAddressByClientCIDR = m('ServerAddressByClientCIDR', [
  f(1, 'clientCIDR', 'ClientCIDR', 'string'),
  f(2, 'serverAddress', 'ServerAddress', 'string'),
]);

/** metav1.APIVersions (`/api`). */
export const APIVersions = m('APIVersions', [
  f(1, 'versions', 'Versions', 'strings'),
  f(2, 'serverAddressByClientCIDRs', 'ServerAddressByClientCIDRs', 'message', rep(ServerAddressByClientCIDR)),
]);

/** metav1.GroupVersionForDiscovery. */
export const GroupVersionForDiscovery = m('GroupVersionForDiscovery', [
  f(1, 'groupVersion', 'GroupVersion', 'string'),
  f(2, 'version', 'Version', 'string'),
]);

/** metav1.APIGroup (`/apis/<group>`). */
export const APIGroup = m('APIGroup', [
  f(1, 'name', 'Name', 'string'),
  f(2, 'versions', 'Versions', 'message', rep(GroupVersionForDiscovery)),
  f(3, 'preferredVersion,omitempty', 'PreferredVersion', 'message', msg(GroupVersionForDiscovery)),
  f(4, 'serverAddressByClientCIDRs,omitempty', 'ServerAddressByClientCIDRs', 'message', rep(ServerAddressByClientCIDR)),
]);

/** metav1.APIGroupList (`/apis`). */
export const APIGroupList = m('APIGroupList', [f(1, 'groups', 'Groups', 'message', rep(APIGroup))]);

/** metav1.APIResource. */
export const APIResource = m('APIResource', [
  f(1, 'name', 'Name', 'string'),
  f(6, 'singularName', 'SingularName', 'string'),
  f(2, 'namespaced', 'Namespaced', 'bool'),
  f(8, 'group,omitempty', 'Group', 'string'),
  f(9, 'version,omitempty', 'Version', 'string'),
  f(3, 'kind', 'Kind', 'string'),
  f(4, 'verbs', 'Verbs', 'verbs', { pointer: true, message: VerbsItems }),
  f(5, 'shortNames,omitempty', 'ShortNames', 'strings', ptr),
  f(7, 'categories,omitempty', 'Categories', 'strings', ptr),
  f(10, 'storageVersionHash,omitempty', 'StorageVersionHash', 'string'),
]);

/** metav1.APIResourceList (`/api/<version>`, `/apis/<group>/<version>`). */
export const APIResourceList = m('APIResourceList', [
  f(1, 'groupVersion', 'GroupVersion', 'string'),
  f(2, 'resources', 'APIResources', 'message', rep(APIResource)),
]);

/** metav1.GroupVersionKind. */
export const GroupVersionKind = m('GroupVersionKind', [
  f(1, 'group', 'Group', 'string'),
  f(2, 'version', 'Version', 'string'),
  f(3, 'kind', 'Kind', 'string'),
]);

/** apidiscovery v2 (and v2beta1: the same numbers) APISubresourceDiscovery. */
export const APISubresourceDiscovery = m('APISubresourceDiscovery', [
  f(1, 'subresource', 'Subresource', 'string'),
  f(2, 'responseKind,omitempty', 'ResponseKind', 'message', msg(GroupVersionKind, true)),
  f(3, 'acceptedTypes,omitempty', 'AcceptedTypes', 'message', rep(GroupVersionKind)),
  f(4, 'verbs', 'Verbs', 'strings', ptr),
]);

/** apidiscovery APIResourceDiscovery. */
export const APIResourceDiscovery = m('APIResourceDiscovery', [
  f(1, 'resource', 'Resource', 'string'),
  f(2, 'responseKind,omitempty', 'ResponseKind', 'message', msg(GroupVersionKind, true)),
  f(3, 'scope', 'Scope', 'string'),
  f(4, 'singularResource', 'SingularResource', 'string'),
  f(5, 'verbs', 'Verbs', 'strings', ptr),
  f(6, 'shortNames,omitempty', 'ShortNames', 'strings', ptr),
  f(7, 'categories,omitempty', 'Categories', 'strings', ptr),
  f(8, 'subresources,omitempty', 'Subresources', 'message', rep(APISubresourceDiscovery)),
]);

/** apidiscovery APIVersionDiscovery. */
export const APIVersionDiscovery = m('APIVersionDiscovery', [
  f(1, 'version', 'Version', 'string'),
  f(2, 'resources,omitempty', 'Resources', 'message', rep(APIResourceDiscovery)),
  f(3, 'freshness,omitempty', 'Freshness', 'string'),
]);

/** apidiscovery APIGroupDiscovery. */
export const APIGroupDiscovery = m('APIGroupDiscovery', [
  f(1, 'metadata,omitempty', 'ObjectMeta', 'message', msg(ObjectMeta)),
  f(2, 'versions,omitempty', 'Versions', 'message', rep(APIVersionDiscovery)),
]);

/** apidiscovery APIGroupDiscoveryList (`/api`, `/apis` aggregated). */
export const APIGroupDiscoveryList = m('APIGroupDiscoveryList', [
  f(1, 'metadata,omitempty', 'ListMeta', 'message', msg(ListMeta)),
  f(2, 'items', 'Items', 'message', rep(APIGroupDiscovery)),
]);

/** metav1.WatchEvent (its object is a RawExtension holding an envelope). */
export const WatchEvent = m('WatchEvent', [
  f(1, 'type', 'Type', 'string'),
  f(2, 'object', 'Object', 'rawExtension', msg(RawExtension)),
]);

/** metav1.Timestamp, the wire form of Time and MicroTime. */
export const Timestamp = m('Timestamp', [f(1, 'seconds', 'Seconds', 'int64'), f(2, 'nanos', 'Nanos', 'int32')]);
