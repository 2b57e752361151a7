import { encodeObject, fieldExtensions, schemaExtensions } from '@kevents/api';
import type { KubeObject, ManagedFieldsEntry } from '@kevents/api';
import {
  FieldManager,
  formatTime,
  fromObjectSchema,
  identityConverter,
  versionConverter,
} from '@kevents/managed-fields';
import type { ExtensionsLookup, JsonObject, JsonValue, ServedVersion, VersionConverter } from '@kevents/managed-fields';
import { CreateShapes } from './create-shapes.js';
import type { ResourceDefinition } from './resource.js';
import type { VersionedView } from './view.js';

export { createShape } from './create-shapes.js';

/** Kubernetes' list and map extensions of a definition (`field` undefined) or of one of its fields. */
const extensions: ExtensionsLookup = (id, field) =>
  field === undefined ? schemaExtensions(id) : fieldExtensions(id, field);

const freeze = <V>(v: V): V => {
  if (v !== null && typeof v === 'object') {
    for (const child of Object.values(v)) freeze(child);
    Object.freeze(v);
  }
  return v;
};

/**
 * The field manager of one view of a resource (kube's `RequestScope.FieldManager`): it keeps
 * `metadata.managedFields` of the stored objects written through the view. Objects go to the
 * library as the view's wire JSON (what kube's type converter sees: Go's zero values where the
 * kind's fields are not omitempty); the stored form only takes the entries back.
 */
export class ViewFieldManager<T extends KubeObject = KubeObject> {
  readonly view: VersionedView<T>;
  readonly manager: FieldManager;
  /** The kind's zero value at the view's version (kube's `creater.New`), shared and frozen. */
  readonly empty: JsonObject;
  /** The entries of creates by manager and {@link createShape} (times left to each create). */
  readonly #creates = new CreateShapes<readonly ManagedFieldsEntry[]>(createShapeLimits);

  constructor(view: VersionedView<T>, manager: FieldManager, empty: JsonObject) {
    this.view = view;
    this.manager = manager;
    this.empty = empty;
  }

  /** The view's wire JSON of a stored-form object. */
  external(obj: T): JsonObject {
    return this.view.toExternal(obj) as JsonObject;
  }

  /**
   * Records a create, an update or a non-apply patch (`UpdateNoErrors`): `next` (stored form,
   * about to be written) gets the managedFields kube would give it against `current` (the
   * stored object, or none on create). `currentExternal` saves a conversion when the caller has
   * the view's JSON of `current` already.
   */
  update(current: T | undefined, next: T, manager: string, currentExternal?: JsonObject): void {
    if (current === undefined && next.metadata.managedFields === undefined) return this.#create(next, manager);
    const live = current === undefined ? this.empty : (currentExternal ?? this.external(current));
    const out = this.manager.updateNoErrors(live, this.external(next), manager);
    setEntries(next, managedFieldsOf(out));
  }

  /**
   * A create without managedFields of its own: the manager owns what the object sets against the
   * kind's zero value. That depends only on the object's shape ({@link createShape}), so the
   * entries are computed once per shape and manager (controllers write the same shape again and
   * again) and stamped with this create's time. A view whose wire shape follows the stored
   * object's ({@link VersionedView.externalFollowsShape}) is looked up by the stored object's
   * shape, and converted only when its shape is new.
   */
  #create(next: T, manager: string): void {
    const entriesOf = (ext: JsonObject) =>
      freeze(managedFieldsOf(this.manager.updateNoErrors(this.empty, ext, manager)) ?? []);
    let entries: readonly ManagedFieldsEntry[];
    if (this.view.externalFollowsShape === true)
      entries = this.#creates.get(manager, next, () => entriesOf(this.external(next)));
    else {
      const ext = this.external(next);
      entries = this.#creates.get(manager, ext, () => entriesOf(ext));
    }
    if (entries.length === 0) return setEntries(next, undefined);
    const time = entryTime();
    const out: ManagedFieldsEntry[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      out[i] = e.time === undefined ? { ...e } : { ...e, time };
    }
    setEntries(next, out);
  }

  /**
   * Server-side apply (`FieldManager.Apply`) of a configuration (the view's wire JSON) to the
   * stored object, or to the kind's zero value when there is none (create-on-apply). Returns
   * the view's wire JSON of the object to store, with its managedFields. Throws the library's
   * `ConflictsError`, `ApplyBadRequestError` and `FieldManagerError`.
   */
  apply(current: T | undefined, config: JsonObject, manager: string, force: boolean): JsonObject {
    const live = current === undefined ? this.empty : this.external(current);
    return this.manager.apply(live, config, manager, force);
  }
}

let lastSecond = -1;
let lastTime = '';
/** Now as an entry's time (`metav1.Time`: RFC 3339 seconds), formatted once a second. */
function entryTime(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTime = formatTime(new Date(second * 1000));
  }
  return lastTime;
}

/** How many create shapes a view remembers, and trie nodes in all (it starts over past either). */
const createShapeLimits = { shapes: 1024, nodes: 1 << 16 };

function managedFieldsOf(obj: JsonObject): ManagedFieldsEntry[] | undefined {
  const meta = obj['metadata'];
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const mf = (meta as JsonObject)['managedFields'];
  return Array.isArray(mf) && mf.length > 0 ? (mf as unknown as ManagedFieldsEntry[]) : undefined;
}

function setEntries(obj: KubeObject, entries: ManagedFieldsEntry[] | undefined): void {
  if (entries) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

/**
 * The field managers of every view of a resource, made once at registration: each view's typed
 * schema from its ObjectSchema and Kubernetes' list/map extensions, and, for a resource served at
 * several versions (Events: `events.k8s.io/v1` and core `v1`), a converter between them through
 * the stored form, so entries written at one version are kept and compared at the other.
 */
export function fieldManagersOf<T extends KubeObject>(
  def: ResourceDefinition<T>,
): Map<VersionedView<T>, ViewFieldManager<T>> {
  const types = new Map(def.views.map((v) => [v, fromObjectSchema(v.schema, { extensions })]));
  let converter: VersionConverter = identityConverter;
  if (def.views.length > 1) {
    const versions = new Map<string, ServedVersion>();
    for (const v of def.views) {
      versions.set(v.groupVersion, {
        type: types.get(v)!,
        toHub: (object) => v.toInternal(structuredClone(object) as Record<string, unknown>),
        fromHub: (hub) => v.toExternal(hub as T) as JsonValue,
      });
    }
    converter = versionConverter(versions);
  }
  const out = new Map<VersionedView<T>, ViewFieldManager<T>>();
  for (const v of def.views) {
    const empty = freeze(encodeObject({ kind: v.kind, apiVersion: v.groupVersion }, v.schema) as JsonObject);
    const manager = new FieldManager({
      groupVersion: v.groupVersion,
      kind: v.kind,
      type: types.get(v)!,
      converter,
      emptyObject: () => structuredClone(empty),
    });
    out.set(v, new ViewFieldManager(v, manager, empty));
  }
  return out;
}
