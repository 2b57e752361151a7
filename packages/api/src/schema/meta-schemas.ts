import { field, str, int64, bool, time, obj, mapOf, arrayOf, anyJSON } from './types.js';
import type { FieldSchema, ObjectSchema } from './types.js';

export const ownerReferenceSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
  goType: 'OwnerReference',
  description: 'OwnerReference contains enough information to let you identify an owning object.',
  fields: [
    field('apiVersion', str(), 'always', 'API version of the referent.', { required: true }),
    field('kind', str(), 'always', 'Kind of the referent.', { required: true }),
    field('name', str(), 'always', 'Name of the referent.', { required: true }),
    field('uid', str(), 'always', 'UID of the referent.', { required: true }),
    field('controller', bool, 'omitempty', 'If true, this reference points to the managing controller.'),
    field(
      'blockOwnerDeletion',
      bool,
      'omitempty',
      'If true, the owner cannot be deleted from the key-value store until this reference is removed.',
    ),
  ],
};

export const managedFieldsEntrySchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
  goType: 'ManagedFieldsEntry',
  description:
    'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
  fields: [
    field('manager', str(), 'omitempty', 'Manager is an identifier of the workflow managing these fields.'),
    field(
      'operation',
      str(),
      'omitempty',
      "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.",
    ),
    field(
      'apiVersion',
      str(),
      'omitempty',
      'APIVersion defines the version of this resource that this field set applies to.',
    ),
    field('time', time, 'omitempty', 'Time is the timestamp of when the ManagedFields entry was added.'),
    field(
      'fieldsType',
      str(),
      'omitempty',
      'FieldsType is the discriminator for the different fields format and version.',
    ),
    field(
      'fieldsV1',
      anyJSON,
      'omitempty',
      'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
    ),
    field('subresource', str(), 'omitempty', 'Subresource is the name of the subresource used to update that object.'),
  ],
};

export const objectMetaSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  goType: 'ObjectMeta',
  description:
    'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  fields: [
    field(
      'name',
      str(),
      'omitempty',
      'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.',
    ),
    field(
      'generateName',
      str(),
      'omitempty',
      'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.',
    ),
    field(
      'namespace',
      str(),
      'omitempty',
      'Namespace defines the space within which each name must be unique. Cannot be updated.',
    ),
    field(
      'selfLink',
      str(),
      'omitempty',
      'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
    ),
    field(
      'uid',
      str(),
      'omitempty',
      'UID is the unique in time and space value for this object. Populated by the system. Read-only.',
      { goName: 'UID' },
    ),
    field(
      'resourceVersion',
      str(),
      'omitempty',
      'An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only.',
    ),
    field(
      'generation',
      int64,
      'omitempty',
      'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.',
    ),
    field(
      'creationTimestamp',
      time,
      'always',
      'CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only. Null for lists.',
    ),
    field(
      'deletionTimestamp',
      time,
      'omitempty',
      'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Populated by the system when a graceful deletion is requested. Read-only.',
    ),
    field(
      'deletionGracePeriodSeconds',
      int64,
      'omitnil',
      'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Read-only.',
    ),
    field(
      'labels',
      mapOf(str()),
      'omitempty',
      'Map of string keys and values that can be used to organize and categorize (scope and select) objects.',
    ),
    field(
      'annotations',
      mapOf(str()),
      'omitempty',
      'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.',
    ),
    field(
      'ownerReferences',
      arrayOf(obj(() => ownerReferenceSchema)),
      'omitempty',
      'List of objects depended by this object.',
    ),
    field('finalizers', arrayOf(str()), 'omitempty', 'Must be empty before the object is deleted from the registry.'),
    field(
      'managedFields',
      arrayOf(obj(() => managedFieldsEntrySchema)),
      'omitempty',
      'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
    ),
  ],
};

export const listMetaSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  goType: 'ListMeta',
  description:
    'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
  fields: [
    field(
      'selfLink',
      str(),
      'omitempty',
      'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
    ),
    field(
      'resourceVersion',
      str(),
      'omitempty',
      "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed.",
    ),
    field(
      'continue',
      str(),
      'omitempty',
      'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.',
    ),
    field(
      'remainingItemCount',
      int64,
      'omitempty',
      'remainingItemCount is the number of subsequent items in the list which are not included in this list response.',
    ),
  ],
};

export const preconditionsSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions',
  goType: 'Preconditions',
  description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
  fields: [
    field('uid', str(), 'omitempty', 'Specifies the target UID.', { goName: 'UID' }),
    field('resourceVersion', str(), 'omitempty', 'Specifies the target ResourceVersion'),
  ],
};

export const deleteOptionsSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  goType: 'DeleteOptions',
  description: 'DeleteOptions may be provided when deleting an API object.',
  fields: [
    field('kind', str(), 'omitempty', 'Kind is a string value representing the REST resource this object represents.'),
    field(
      'apiVersion',
      str(),
      'omitempty',
      'APIVersion defines the versioned schema of this representation of an object.',
    ),
    field('gracePeriodSeconds', int64, 'omitempty', 'The duration in seconds before the object should be deleted.'),
    field(
      'preconditions',
      obj(() => preconditionsSchema),
      'omitempty',
      'Must be fulfilled before a deletion is carried out.',
    ),
    field('orphanDependents', bool, 'omitempty', 'Deprecated: please use the PropagationPolicy.'),
    field('propagationPolicy', str(), 'omitempty', 'Whether and how garbage collection will be performed.'),
    field('dryRun', arrayOf(str()), 'omitempty', 'When present, indicates that modifications should not be persisted.'),
    field(
      'ignoreStoreReadErrorWithClusterBreakingPotential',
      bool,
      'omitempty',
      'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.',
    ),
  ],
};

/**
 * `metav1.TypeMeta`'s fields (kind, apiVersion), first in every top-level kind. Kubernetes'
 * newer API docs end both descriptions with a "More info" link (`moreInfo`).
 */
export function typeMetaFields(moreInfo = false): FieldSchema[] {
  const conventions = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';
  return [
    field(
      'kind',
      str(),
      'omitempty',
      `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.${moreInfo ? ` More info: ${conventions}#types-kinds` : ''}`,
    ),
    field(
      'apiVersion',
      str(),
      'omitempty',
      `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.${moreInfo ? ` More info: ${conventions}#resources` : ''}`,
    ),
  ];
}
