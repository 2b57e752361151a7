/**
 * Schemas of the kinds that appear only in API documents, not in stored objects: Status and its
 * parts, WatchEvent, the PATCH body, discovery's APIResourceList, and the synthesized Namespace.
 * They complete the set the OpenAPI documents reference; field names and texts follow
 * Kubernetes' own definitions (apimachinery meta/v1, core/v1).
 */
import { field, str, int32, bool, time, obj, arrayOf } from './types.js';
import type { ObjectSchema } from './types.js';
import { listMetaSchema, objectMetaSchema, typeMetaFields } from './meta-schemas.js';

const typeMeta = typeMetaFields();

/** `metav1.StatusCause`: one cause of a failed operation. */
export const statusCauseSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause',
  goType: 'StatusCause',
  description:
    'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
  fields: [
    field(
      'reason',
      str(),
      'omitempty',
      'A machine-readable description of the cause of the error. If this value is empty there is no information available.',
    ),
    field(
      'message',
      str(),
      'omitempty',
      'A human-readable description of the cause of the error.  This field may be presented as-is to a reader.',
    ),
    field(
      'field',
      str(),
      'omitempty',
      'The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.',
    ),
  ],
};

/** `metav1.StatusDetails`: the object a Status is about. */
export const statusDetailsSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails',
  goType: 'StatusDetails',
  description:
    'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.',
  fields: [
    field(
      'name',
      str(),
      'omitempty',
      'The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).',
    ),
    field('group', str(), 'omitempty', 'The group attribute of the resource associated with the status StatusReason.'),
    field(
      'kind',
      str(),
      'omitempty',
      'The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind.',
    ),
    field('uid', str(), 'omitempty', 'UID of the resource. (when there is a single resource which can be described).', {
      goName: 'UID',
    }),
    field(
      'causes',
      arrayOf(obj(() => statusCauseSchema)),
      'omitempty',
      'The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.',
    ),
    field(
      'retryAfterSeconds',
      int32,
      'omitempty',
      'If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action.',
    ),
  ],
};

/** `metav1.Status`: the body of every error and of delete answers. */
export const statusSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  goType: 'Status',
  description: "Status is a return value for calls that don't return other objects.",
  gvk: { group: '', version: 'v1', kind: 'Status' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => listMetaSchema),
      'always',
      'Standard list metadata.',
    ),
    field('status', str(), 'omitempty', 'Status of the operation. One of: "Success" or "Failure".'),
    field('message', str(), 'omitempty', 'A human-readable description of the status of this operation.'),
    field(
      'reason',
      str(),
      'omitempty',
      'A machine-readable description of why this operation is in the "Failure" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.',
    ),
    field(
      'details',
      obj(() => statusDetailsSchema),
      'omitempty',
      'Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type.',
    ),
    field('code', int32, 'omitempty', 'Suggested HTTP return code for this status, 0 if not set.'),
  ],
};

/** `runtime.RawExtension`: an embedded object of any kind. */
export const rawExtensionSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
  goType: 'RawExtension',
  description:
    'RawExtension is used to hold extensions in external versions. The object is a complete serialized object of any kind, with its own apiVersion and kind.',
  fields: [],
};

/** `metav1.WatchEvent`: one line of a watch stream. */
export const watchEventSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
  goType: 'WatchEvent',
  description: 'Event represents a single event to a watched resource.',
  fields: [
    field('type', str(), 'always', 'The type of the event: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.', {
      required: true,
    }),
    field(
      'object',
      obj(() => rawExtensionSchema),
      'always',
      'Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Bookmark: the object (instance of a type being watched) where only ResourceVersion field is set.\n * If Type is Error: *Status is recommended; other types may make sense depending on context.',
      { required: true },
    ),
  ],
};

/** `metav1.Patch`: the body of a PATCH request (its shape depends on the patch type). */
export const patchSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  goType: 'Patch',
  description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
  fields: [],
};

/** `metav1.APIResource`: one resource of a group version in discovery. */
export const apiResourceSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource',
  goType: 'APIResource',
  description: 'APIResource specifies the name of a resource and whether it is namespaced.',
  fields: [
    field('name', str(), 'always', 'name is the plural name of the resource.', { required: true }),
    field(
      'singularName',
      str(),
      'always',
      'singularName is the singular name of the resource.  This allows clients to handle plural and singular opaquely.',
      { required: true },
    ),
    field('namespaced', bool, 'always', 'namespaced indicates if a resource is namespaced or not.', { required: true }),
    field(
      'group',
      str(),
      'omitempty',
      'group is the preferred group of the resource.  Empty implies the group of the containing resource list.',
    ),
    field(
      'version',
      str(),
      'omitempty',
      'version is the preferred version of the resource.  Empty implies the version of the containing resource list.',
    ),
    field('kind', str(), 'always', "kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')", {
      required: true,
    }),
    field(
      'verbs',
      arrayOf(str()),
      'always',
      'verbs is a list of supported kube verbs (this includes get, list, watch, create, update, patch, delete, deletecollection, and proxy)',
      { required: true },
    ),
    field('shortNames', arrayOf(str()), 'omitempty', 'shortNames is a list of suggested short names of the resource.'),
    field(
      'categories',
      arrayOf(str()),
      'omitempty',
      "categories is a list of the grouped resources this resource belongs to (e.g. 'all')",
    ),
    field(
      'storageVersionHash',
      str(),
      'omitempty',
      'The hash value of the storage version, the version this resource is converted to when written to the data store.',
    ),
  ],
};

/** `metav1.APIResourceList`: the answer of `/api/v1` and `/apis/<group>/<version>`. */
export const apiResourceListSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList',
  goType: 'APIResourceList',
  description:
    'APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.',
  gvk: { group: '', version: 'v1', kind: 'APIResourceList' },
  fields: [
    ...typeMeta,
    field('groupVersion', str(), 'always', 'groupVersion is the group and version this APIResourceList is for.', {
      required: true,
    }),
    field(
      'resources',
      arrayOf(obj(() => apiResourceSchema)),
      'always',
      'resources contains the name of the resources and if they are namespaced.',
      { required: true },
    ),
  ],
};

/** `corev1.NamespaceCondition` */
export const namespaceConditionSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.NamespaceCondition',
  goType: 'NamespaceCondition',
  description: 'NamespaceCondition contains details about state of namespace.',
  fields: [
    field('type', str(), 'always', 'Type of namespace controller condition.', { required: true }),
    field('status', str(), 'always', 'Status of the condition, one of True, False, Unknown.', { required: true }),
    field('lastTransitionTime', time, 'omitempty', 'Last time the condition transitioned from one status to another.'),
    field('reason', str(), 'omitempty', "Unique, one-word, CamelCase reason for the condition's last transition."),
    field('message', str(), 'omitempty', 'Human-readable message indicating details about last transition.'),
  ],
};

/** `corev1.NamespaceSpec` */
export const namespaceSpecSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.NamespaceSpec',
  goType: 'NamespaceSpec',
  description: 'NamespaceSpec describes the attributes on a Namespace.',
  fields: [
    field(
      'finalizers',
      arrayOf(str()),
      'omitempty',
      'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
    ),
  ],
};

/** `corev1.NamespaceStatus` */
export const namespaceStatusSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.NamespaceStatus',
  goType: 'NamespaceStatus',
  description: 'NamespaceStatus is information about the current status of a Namespace.',
  fields: [
    field(
      'phase',
      { kind: 'string', enum: ['Active', 'Terminating'] },
      'omitempty',
      'Phase is the current lifecycle phase of the namespace.\n\nPossible enum values:\n - `"Active"` means the namespace is available for use in the system\n - `"Terminating"` means the namespace is undergoing graceful termination',
    ),
    field(
      'conditions',
      arrayOf(obj(() => namespaceConditionSchema)),
      'omitempty',
      "Represents the latest available observations of a namespace's current state.",
    ),
  ],
};

/** core/v1 `Namespace`. kevents serves namespaces read-only: every valid name is an Active namespace. */
export const namespaceSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.Namespace',
  goType: 'Namespace',
  description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
  gvk: { group: '', version: 'v1', kind: 'Namespace' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => objectMetaSchema),
      'always',
      "Standard object's metadata.",
    ),
    field(
      'spec',
      obj(() => namespaceSpecSchema),
      'always',
      'Spec defines the behavior of the Namespace.',
    ),
    field(
      'status',
      obj(() => namespaceStatusSchema),
      'always',
      'Status describes the current status of a Namespace.',
    ),
  ],
};

/** core/v1 `NamespaceList`. */
export const namespaceListSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.NamespaceList',
  goType: 'NamespaceList',
  description: 'NamespaceList is a list of Namespaces.',
  gvk: { group: '', version: 'v1', kind: 'NamespaceList' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => listMetaSchema),
      'always',
      'Standard list metadata.',
    ),
    field(
      'items',
      arrayOf(obj(() => namespaceSchema)),
      'always',
      'Items is the list of Namespace objects in the list.',
      { required: true },
    ),
  ],
};
