import type { ManagedFieldsEntry } from '@kevents/api';
import { FieldSet } from '../fieldpath/set.js';
import { makePath } from '../fieldpath/path.js';
import type { Atom } from '../schema/types.js';
import { TypedValueError } from '../typed/errors.js';
import { validate } from '../typed/validate.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonObject, JsonValue } from '../value/json-value.js';
import { ConflictsError } from './conflicts.js';
import { identityConverter } from './converter.js';
import type { TypedValue, VersionConverter } from './converter.js';
import { ApplyBadRequestError, FieldManagerError } from './errors.js';
import { allowedConflictsFromLastApplied, buildLastApplied, hasLastApplied, setLastApplied } from './last-applied.js';
import { buildManagerIdentifier } from './manager-identifier.js';
import {
  ManagedFieldsError,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
} from './managed-fields-entries.js';
import type { Managed } from './managed-fields-entries.js';
import { Updater } from './updater.js';

/** `DefaultMaxUpdateManagers`: Update entries beyond this fold into `ancient-changes`. */
export const defaultMaxUpdateManagers = 10;

/**
 * The fields no manager owns (`NewStripMetaManager`): apiVersion, kind, metadata itself and the
 * metadata the server sets.
 */
export const strippedFields: FieldSet = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  makePath('metadata', 'name'),
  makePath('metadata', 'namespace'),
  makePath('metadata', 'creationTimestamp'),
  makePath('metadata', 'selfLink'),
  makePath('metadata', 'uid'),
  makePath('metadata', 'clusterName'),
  makePath('metadata', 'generation'),
  makePath('metadata', 'managedFields'),
  makePath('metadata', 'resourceVersion'),
);

/** Options of a {@link FieldManager}: one per resource, version and subresource, as kube's. */
export interface FieldManagerOptions {
  /** The group version requests are served at (`v1`, `events.k8s.io/v1`). */
  readonly groupVersion: string;
  /** The kind applied objects must carry. */
  readonly kind: string;
  /** The typed schema of objects at `groupVersion`. */
  readonly type: Atom;
  /** Conversion to the versions other managers wrote in; identity by default (one served version). */
  readonly converter?: VersionConverter;
  /** `''` for the main resource, else the subresource name recorded in entries. */
  readonly subresource?: string;
  /** Fields no manager may own, by API version (kube's strategies' `GetResetFields`). */
  readonly resetFields?: ReadonlyMap<string, FieldSet>;
  /** The cap on Update entries; 10 as kube. */
  readonly maxUpdateManagers?: number;
  /** The clock for entry times (a Date; kept to the second). */
  readonly now?: () => Date;
  /**
   * The zero-value object of the kind at `groupVersion` (kube's `creater.New(gvk)` as its JSON:
   * non-omitempty fields present with zero values). Used as the live object before the first
   * apply; defaults to `{}`.
   */
  readonly emptyObject?: () => JsonObject;
}

/** RFC 3339 at second precision, as `metav1.Time` marshals. */
export function formatTime(d: Date): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

function metadataOf(obj: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(obj) && isJsonObject(obj['metadata']) ? obj['metadata'] : undefined;
}

function managedFieldsOf(obj: JsonValue | undefined): ManagedFieldsEntry[] | null | undefined {
  const meta = metadataOf(obj);
  if (!meta || !Object.hasOwn(meta, 'managedFields')) return undefined;
  return meta['managedFields'] as unknown as ManagedFieldsEntry[] | null;
}

/** A deep copy of the object without `metadata.managedFields` (which are not copied first). */
function withoutManagedFields(obj: JsonValue | undefined): JsonObject {
  if (!isJsonObject(obj)) return {};
  const meta = metadataOf(obj);
  if (meta === undefined || !Object.hasOwn(meta, 'managedFields')) return structuredClone(obj);
  const { managedFields: _, ...rest } = meta;
  return structuredClone({ ...obj, metadata: rest });
}

function setManagedFields(obj: JsonObject, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  const meta = metadataOf(obj);
  if (!entries) {
    if (meta) delete meta['managedFields'];
    return;
  }
  const m = meta ?? (obj['metadata'] = {});
  m['managedFields'] = entries as unknown as JsonValue;
}

function copyManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

function describe(obj: JsonValue | undefined): string {
  const meta = metadataOf(obj);
  const ns = typeof meta?.['namespace'] === 'string' ? meta['namespace'] : '';
  const name = typeof meta?.['name'] === 'string' ? meta['name'] : '';
  return `${ns}/${name}`;
}

/**
 * kube's field manager (`managedfields.NewDefaultFieldManager`): keeps `metadata.managedFields`
 * on every write. Its layers, outermost first, are kube's: version check, last-applied updater,
 * last-applied manager (client-side to server-side apply upgrade), skip-non-applied, cap of
 * Update managers, manager identifiers, entry times, stripped metadata, structured merge.
 * Objects are wire JSON at `groupVersion`; results are new objects (inputs are not modified),
 * but the `fieldsV1` of their managedFields entries are shared between results and frozen.
 */
export class FieldManager {
  private readonly updater: Updater;
  private readonly subresource: string;
  private readonly maxUpdateManagers: number;
  private readonly now: () => Date;

  private readonly options: FieldManagerOptions;

  constructor(options: FieldManagerOptions) {
    this.options = options;
    this.updater = new Updater({
      converter: options.converter ?? identityConverter,
      ...(options.resetFields ? { ignoredFields: options.resetFields } : {}),
    });
    this.subresource = options.subresource ?? '';
    this.maxUpdateManagers = options.maxUpdateManagers ?? defaultMaxUpdateManagers;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Records a create, update or non-apply patch (`FieldManager.Update`): `newObj` is the object
   * about to be stored, `liveObj` the stored one (the kind's empty object on create). The
   * request's own `managedFields` win when set and valid (`[]` clears them); fields the write
   * changed go to `manager`. Returns `newObj` with the new managedFields. Throws on objects that
   * do not fit the schema; see {@link updateNoErrors}.
   */
  update(liveObj: JsonObject, newObj: JsonObject, manager: string): JsonObject {
    const managed = this.decodeLiveOrNew(liveObj, newObj);
    const object = withoutManagedFields(newObj);
    const result = this.skipNonAppliedUpdate(liveObj, object, managed, manager);
    setManagedFields(object, result);
    return object;
  }

  /**
   * `UpdateNoErrors`: {@link update}, but on failure the new object keeps the live object's
   * managedFields, as kube-apiserver does for every create, update and patch.
   */
  updateNoErrors(liveObj: JsonObject, newObj: JsonObject, manager: string): JsonObject {
    try {
      return this.update(liveObj, newObj, manager);
    } catch {
      const object = withoutManagedFields(newObj);
      const live = managedFieldsOf(liveObj);
      if (live !== undefined)
        (metadataOf(object) ?? (object['metadata'] = {}))['managedFields'] = structuredClone(
          live,
        ) as unknown as JsonValue;
      return object;
    }
  }

  /**
   * Applies a configuration (`FieldManager.Apply`) to the live object (the kind's empty object
   * on create-on-apply). Returns the object to store with its managedFields. Throws
   * {@link ConflictsError} (answer with `conflictStatus`), {@link ApplyBadRequestError} (400) or
   * {@link FieldManagerError}.
   */
  apply(liveObj: JsonObject, appliedObj: JsonObject, manager: string, force: boolean): JsonObject {
    let managed: Managed;
    try {
      managed = decodeManagedFields(managedFieldsOf(liveObj));
    } catch (err) {
      if (err instanceof ManagedFieldsError)
        throw new FieldManagerError(`failed to decode managed fields: ${err.message}`);
      throw err;
    }
    // versionCheckManager
    const apiVersion = appliedObj['apiVersion'];
    const kind = appliedObj['kind'];
    if (apiVersion !== this.options.groupVersion || kind !== this.options.kind) {
      throw new ApplyBadRequestError(`invalid object type: ${gvkString(apiVersion, kind)}`);
    }
    // lastAppliedUpdater around lastAppliedManager
    const { object, managed: out } = this.lastAppliedApply(liveObj, appliedObj, managed, manager, force);
    if (manager === 'kubectl' && hasLastApplied(object)) setLastApplied(object, buildLastApplied(appliedObj));
    setManagedFields(object, out);
    return object;
  }

  private decodeLiveOrNew(liveObj: JsonObject, newObj: JsonObject): Managed {
    const decodeOrEmpty = (entries: ManagedFieldsEntry[] | null | undefined): Managed => {
      try {
        return decodeManagedFields(entries);
      } catch {
        return emptyManaged();
      }
    };
    if (this.subresource !== '') return decodeOrEmpty(managedFieldsOf(liveObj));
    const requested = managedFieldsOf(newObj);
    if (isResetManagedFields(requested)) return emptyManaged();
    try {
      const managed = decodeManagedFields(requested);
      if (managed.fields.size > 0) return managed;
    } catch {
      // fall back to the live object's
    }
    return decodeOrEmpty(managedFieldsOf(liveObj));
  }

  private lastAppliedApply(
    liveObj: JsonObject,
    appliedObj: JsonObject,
    managed: Managed,
    manager: string,
    force: boolean,
  ): { object: JsonObject; managed: Managed } {
    try {
      return this.skipNonAppliedApply(liveObj, appliedObj, managed, manager, force);
    } catch (err) {
      if (manager !== 'kubectl' || !(err instanceof ConflictsError)) throw err;
      const allowed = allowedConflictsFromLastApplied(liveObj, this.options.type, this.options.groupVersion);
      if (!allowed) throw err;
      const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw new ConflictsError(remaining);
      return this.skipNonAppliedApply(liveObj, appliedObj, managed, manager, true);
    }
  }

  private skipNonAppliedUpdate(liveObj: JsonObject, newObj: JsonObject, managed: Managed, manager: string): Managed {
    if (managed.fields.size === 0) {
      const uid = metadataOf(liveObj)?.['uid'];
      if (typeof uid === 'string' && uid !== '') return managed;
    }
    return this.capUpdate(liveObj, newObj, managed, manager);
  }

  private skipNonAppliedApply(
    liveObj: JsonObject,
    appliedObj: JsonObject,
    managed: Managed,
    manager: string,
    force: boolean,
  ): { object: JsonObject; managed: Managed } {
    let live = liveObj;
    let m = managed;
    if (m.fields.size === 0) {
      const empty = this.options.emptyObject?.() ?? {};
      m = this.capUpdate(empty, withoutManagedFields(liveObj), m, 'before-first-apply');
      live = withoutManagedFields(liveObj);
    }
    return this.managedApply(live, appliedObj, m, manager, force);
  }

  /** capManagersManager around buildManagerInfo, managedFieldsUpdater, stripMeta, structured merge. */
  private capUpdate(liveObj: JsonObject, newObj: JsonObject, managed: Managed, manager: string): Managed {
    const id = buildManagerIdentifier({
      manager: manager || 'unknown',
      operation: 'Update',
      apiVersion: this.options.groupVersion,
      subresource: this.subresource,
    });
    const self = 'current-operation';
    const out = copyManaged(managed);
    const fields = this.updater.updateManagers(
      this.typed(liveObj, true, 'live'),
      this.typed(newObj, true, 'new'),
      this.options.groupVersion,
      out.fields,
      self,
    );
    this.strip(fields, self);
    const vs = fields.get(self);
    if (vs) {
      fields.delete(self);
      const previous = fields.get(id);
      fields.set(id, previous ? { ...vs, set: vs.set.union(previous.set) } : vs);
      out.times.set(id, formatTime(this.now()));
    }
    return this.capManagers({ fields, times: out.times });
  }

  private managedApply(
    liveObj: JsonObject,
    appliedObj: JsonObject,
    managed: Managed,
    manager: string,
    force: boolean,
  ): { object: JsonObject; managed: Managed } {
    const id = buildManagerIdentifier({
      manager: manager || 'unknown',
      operation: 'Apply',
      apiVersion: this.options.groupVersion,
      subresource: this.subresource,
    });
    if (managedFieldsOf(appliedObj) !== undefined) throw new ApplyBadRequestError('metadata.managedFields must be nil');
    let config: TypedValue;
    try {
      validate(appliedObj, this.options.type);
      config = { value: appliedObj, type: this.options.type };
    } catch (err) {
      if (err instanceof TypedValueError) {
        throw new ApplyBadRequestError(
          `failed to create typed patch object (${describe(appliedObj)}; ${gvkString(appliedObj['apiVersion'], appliedObj['kind'])}): ${err.message}`,
        );
      }
      throw err;
    }
    const live = this.typed(withoutManagedFields(liveObj), true, 'live');
    let result;
    try {
      result = this.updater.apply(live, config, this.options.groupVersion, managed.fields, id, force);
    } catch (err) {
      if (err instanceof TypedValueError) throw new FieldManagerError(`failed to merge config: ${err.message}`);
      throw err;
    }
    const times = new Map(managed.times);
    this.strip(result.managers, id);
    let object: JsonObject;
    if (result.object) {
      times.set(id, formatTime(this.now()));
      object = isJsonObject(result.object.value) ? result.object.value : {};
    } else object = withoutManagedFields(liveObj);
    return { object, managed: { fields: result.managers, times } };
  }

  private typed(obj: JsonObject, allowDuplicates: boolean, what: string): TypedValue {
    try {
      validate(obj, this.options.type, { allowDuplicates });
    } catch (err) {
      if (err instanceof TypedValueError) {
        throw new FieldManagerError(
          `failed to convert ${what} object (${describe(obj)}; ${gvkString(obj['apiVersion'], obj['kind'])}) to smd typed: ${err.message}`,
        );
      }
      throw err;
    }
    return { value: obj, type: this.options.type };
  }

  private strip(fields: Map<string, { set: FieldSet; apiVersion: string; applied: boolean }>, manager: string): void {
    const vs = fields.get(manager);
    if (!vs) return;
    const set = vs.set.difference(strippedFields);
    if (set.empty()) fields.delete(manager);
    else fields.set(manager, { ...vs, set });
  }

  /** `capUpdateManagers`: folds the oldest Update entries, per API version, into `ancient-changes`. */
  private capManagers(managed: Managed): Managed {
    const fields = managed.fields;
    const updaters = [...fields.entries()].filter(([, vs]) => !vs.applied).map(([id]) => id);
    if (updaters.length <= this.maxUpdateManagers) return managed;
    const secs = (id: string): number => {
      const t = managed.times.get(id);
      return t ? Math.floor(Date.parse(t) / 1000) || 0 : 0;
    };
    updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
    const versionToFirst = new Map<string, string>();
    let length = updaters.length;
    for (let i = 0; i < updaters.length && length > this.maxUpdateManagers; i++) {
      const manager = updaters[i]!;
      const vs = fields.get(manager)!;
      const time = managed.times.get(manager);
      const bucket = buildManagerIdentifier({
        manager: 'ancient-changes',
        operation: 'Update',
        apiVersion: vs.apiVersion,
      });
      const first = versionToFirst.get(vs.apiVersion);
      if (first !== undefined) {
        if (!fields.has(bucket)) {
          const s = fields.get(first)!;
          fields.delete(first);
          fields.set(bucket, s);
        }
        fields.set(bucket, {
          set: vs.set.union(fields.get(bucket)!.set),
          apiVersion: vs.apiVersion,
          applied: vs.applied,
        });
        fields.delete(manager);
        length--;
        managed.times.set(bucket, time);
      } else versionToFirst.set(vs.apiVersion, manager);
    }
    return managed;
  }
}

/** `schema.GroupVersionKind.String()`: `group/version, Kind=kind` (`/v1, Kind=Event` for core). */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const group = slash >= 0 ? av.slice(0, slash) : '';
  const version = slash >= 0 ? av.slice(slash + 1) : av;
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}
