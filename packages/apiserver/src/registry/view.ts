import type { KubeObject, ObjectSchema, ProtobufType, StoredTextPlan } from '@kevents/api';
import type { GroupResource } from '../errors/api-error.js';

/**
 * One group version a resource is served at (Kubernetes' versioned API of a kind). Every view of
 * a resource reads and writes the same stored objects, kept in the resource's internal form; a
 * view converts between that form and its wire JSON and maps its field-selector labels onto the
 * internal ones.
 */
export interface VersionedView<T extends KubeObject = KubeObject> {
  readonly group: string;
  readonly version: string;
  /** `events.k8s.io/v1`, or `v1` for the core group. */
  readonly groupVersion: string;
  readonly kind: string;
  readonly listKind: string;
  /** The plural resource name in URLs (`events`). */
  readonly resource: string;
  readonly singularName: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** The hash discovery publishes for the stored version (`storageVersionHash`). */
  readonly storageVersionHash?: string;
  readonly gr: GroupResource;
  readonly schema: ObjectSchema;
  readonly listSchema: ObjectSchema;
  /** `/apis/<group>/<version>` or `/api/v1`. */
  readonly pathPrefix: string;
  /**
   * The Go type kube-apiserver holds the resource in (`core.Event`, `coordination.Lease`), named
   * where its messages print an object's type; `unstructured.Unstructured` (a custom resource's) when unset.
   */
  readonly goType?: string;
  /**
   * The protobuf messages of the view's kind and list (`@kevents/api` protobufTypes): with them the
   * view reads and writes `application/vnd.kubernetes.protobuf`, as kube-apiserver does for
   * built-in kinds; without (a custom resource's) JSON and YAML only.
   */
  readonly protobuf?: { readonly object: ProtobufType; readonly list: ProtobufType };
  /** Converts a decoded external object to the stored form (taking ownership of it). */
  toInternal(external: Record<string, unknown>): T;
  /** The wire JSON of a stored object, with kind and apiVersion. */
  toExternal(internal: T): Record<string, unknown>;
  /** The same without kind and apiVersion, as list items are sent. */
  toListItem(internal: T): Record<string, unknown>;
  /**
   * The wire JSON text of a stored object in one pass (with kind and apiVersion, or without for
   * list items). Reads `internal` without changing it: parts of it may be frozen and shared with
   * other objects (`StoredRevision.decodeShared`).
   */
  toJSON(internal: T, withTypeMeta: boolean): string;
  /**
   * Turns a list item's text (from `toJSON(internal, false)`) into the object's text with kind
   * and apiVersion (what `toJSON(internal, true)` gives). Views that have it let cached item
   * texts answer single-object reads too.
   */
  withTypeMeta?(itemJSON: string): string;
  /**
   * What `toJSON(internal, false)` is in terms of the stored object's members, for stores that
   * write that text from their stored form (`StoredRevision.encodeText`, the memory store):
   * declare it only where it says exactly what `toJSON` writes (a test comparing the two over
   * many objects is the way to know). Objects the plan cannot say are encoded by `toJSON`.
   */
  readonly storedText?: StoredTextPlan;
  /**
   * Whether {@link toExternal} keeps shapes: stored objects of one `createShape` (member names,
   * lists as they are, each scalar's type and whether it is zero) always convert to wire objects
   * of one `createShape`, as a conversion that renames, moves, drops or fills in members by their
   * presence and zeroness alone does. A create's managedFields depend only on the wire object's
   * shape, so the field manager then finds them by the stored object's shape without converting
   * it. Declare it only where it holds (a property test that changes an object's values and not
   * its shape, and compares the wire shapes, is the way to know); unset, every create converts.
   */
  readonly externalFollowsShape?: boolean;
  /** Maps a field-selector label of this view to an internal label; undefined when unsupported. */
  fieldLabel(label: string): string | undefined;
}
