/**
 * @kevents/managed-fields: server-side apply and `metadata.managedFields` as Kubernetes does them
 * (sigs.k8s.io/structured-merge-diff v6 and k8s.io/apimachinery's managedfields), as a pure
 * library over JSON objects and typed schemas. See README.md.
 */
export type { JsonValue, JsonObject } from './value/json-value.js';
export { compareValues, equalValues, compareStrings } from './value/compare.js';
export { goJSON, goJSONString } from './value/go-json.js';
export type { GoJSONFlavor } from './value/go-json.js';

export type { PathElement, KeyField } from './fieldpath/path-element.js';
export {
  fieldElement,
  keyElement,
  keyElementOf,
  valueElement,
  indexElement,
  comparePathElements,
  pathElementsEqual,
  pathElementString,
} from './fieldpath/path-element.js';
export type { Path } from './fieldpath/path.js';
export { makePath, pathString, pathsEqual } from './fieldpath/path.js';
export { FieldSet } from './fieldpath/set.js';
export type { SetNode } from './fieldpath/set.js';
export {
  serializePathElement,
  deserializePathElement,
  PathElementSyntaxError,
  UnknownPathElementTypeError,
} from './fieldpath/serialize-path-element.js';
export { setToFieldsV1, setToFieldsV1JSON, fieldsV1ToSet, FieldsV1Error } from './fieldpath/fields-v1.js';

export type { Atom, Scalar, ElementRelationship, MapType, ListType, StructField } from './schema/types.js';
export { unknownType } from './schema/types.js';
export {
  scalarType,
  structType,
  structField,
  mapType,
  atomicList,
  setList,
  mapList,
  withElementRelationship,
} from './schema/builders.js';
export { deduced, untypedAtomic } from './schema/deduced.js';
export { fromSMDSchema, SchemaError } from './schema/smd-schema.js';
export {
  fromObjectSchema,
  listRelationship,
  mapRelationship,
  SchemaExtensionError,
} from './schema/from-object-schema.js';
export type { ExtensionsLookup, FromObjectSchemaOptions } from './schema/from-object-schema.js';

export { TypedValueError } from './typed/errors.js';
export type { TypedValueProblem } from './typed/errors.js';
export { validate } from './typed/validate.js';
export type { ValidateOptions } from './typed/validate.js';
export { toFieldSet } from './typed/to-field-set.js';
export { merge } from './typed/merge.js';
export { compare, excludeFields, isSameComparison } from './typed/compare.js';
export type { Comparison } from './typed/compare.js';
export { removeItems, extractItems } from './typed/remove.js';
export type { ExtractItemsOptions } from './typed/remove.js';
export { ensureNamedFieldsAreMembers } from './typed/ensure-named-fields.js';

export type { VersionedSet, ManagedFields } from './managed/versioned-set.js';
export type { TypedValue, VersionConverter, ServedVersion } from './managed/converter.js';
export { identityConverter, versionConverter, MissingVersionError } from './managed/converter.js';
export { Updater } from './managed/updater.js';
export type { UpdaterOptions, ApplyResult } from './managed/updater.js';
export { buildManagerIdentifier, parseManagerIdentifier } from './managed/manager-identifier.js';
export type { ManagerInfo } from './managed/manager-identifier.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  emptyManaged,
  isResetManagedFields,
  ManagedFieldsError,
} from './managed/managed-fields-entries.js';
export type { Managed } from './managed/managed-fields-entries.js';
export {
  ConflictsError,
  conflictsFromManagers,
  conflictMessage,
  conflictStatus,
  printManager,
} from './managed/conflicts.js';
export type { Conflict, ConflictStatusFields } from './managed/conflicts.js';
export { ApplyBadRequestError, FieldManagerError } from './managed/errors.js';
export { FieldManager, defaultMaxUpdateManagers, strippedFields, formatTime } from './managed/field-manager.js';
export type { FieldManagerOptions } from './managed/field-manager.js';
export {
  lastAppliedConfigAnnotation,
  buildLastApplied,
  hasLastApplied,
  setLastApplied,
  allowedConflictsFromLastApplied,
} from './managed/last-applied.js';
export { prefixFromUserAgent, managerOrUserAgent, fieldManagerMaxLength } from './managed/user-agent.js';
export { ignoreManagedFieldsTimestamps } from './managed/timestamps.js';
