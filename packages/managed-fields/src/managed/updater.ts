import type { FieldSet } from '../fieldpath/set.js';
import { FieldSet as NewSet } from '../fieldpath/set.js';
import { equalValues } from '../value/compare.js';
import type { Comparison } from '../typed/compare.js';
import { compare, excludeFields } from '../typed/compare.js';
import { ensureNamedFieldsAreMembers } from '../typed/ensure-named-fields.js';
import { merge } from '../typed/merge.js';
import { reconcileFieldSetWithSchema } from '../typed/reconcile-schema.js';
import { removeItems } from '../typed/remove.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { ConflictsError, conflictsFromManagers } from './conflicts.js';
import { MissingVersionError } from './converter.js';
import type { TypedValue, VersionConverter } from './converter.js';
import type { ManagedFields, VersionedSet } from './versioned-set.js';
import type { Atom } from '../schema/types.js';

/** Options of an {@link Updater}. */
export interface UpdaterOptions {
  readonly converter: VersionConverter;
  /**
   * Fields no manager gets to own, by API version (`IgnoredFields`; kube's strategies' "reset
   * fields", such as `status` on the main resource when a status subresource exists).
   */
  readonly ignoredFields?: ReadonlyMap<string, FieldSet>;
  /** Return the merged object even when an apply changes nothing (`ReturnInputOnNoop`). */
  readonly returnInputOnNoop?: boolean;
}

/** The result of {@link Updater.apply}: `object` is undefined when the apply changes nothing. */
export interface ApplyResult {
  readonly object: TypedValue | undefined;
  readonly managers: ManagedFields;
}

/**
 * Structured-merge-diff's `merge.Updater`: computes who owns what after an update, and merges
 * an applied configuration with conflict detection and pruning. Managers are keyed by
 * identifier; the maps passed in are not modified.
 */
export class Updater {
  private readonly options: UpdaterOptions;

  constructor(options: UpdaterOptions) {
    this.options = options;
  }

  private convert(object: TypedValue, version: string): TypedValue {
    return this.options.converter.convert(object, version);
  }

  private exclude(set: FieldSet, version: string): FieldSet {
    const ignored = this.options.ignoredFields?.get(version);
    return ignored ? set.recursiveDifference(ignored) : set;
  }

  private update(
    oldObject: TypedValue,
    newObject: TypedValue,
    version: string,
    managers: ManagedFields,
    workflow: string,
    force: boolean,
  ): { managers: ManagedFields; comparison: Comparison } {
    const conflicts: ManagedFields = new Map();
    const removed: ManagedFields = new Map();
    const first = excludeFields(
      compare(oldObject.value, newObject.value, oldObject.type),
      this.options.ignoredFields?.get(version),
    );
    const versions = new Map<string, Comparison>([[version, first]]);
    const changedAt = new Map<string, FieldSet>([[version, first.modified.union(first.added)]]);
    for (const [manager, managerSet] of [...managers]) {
      if (manager === workflow) continue;
      let cmp = versions.get(managerSet.apiVersion);
      if (!cmp) {
        let oldV: TypedValue;
        let newV: TypedValue;
        try {
          oldV = this.convert(oldObject, managerSet.apiVersion);
          newV = this.convert(newObject, managerSet.apiVersion);
        } catch (err) {
          if (err instanceof MissingVersionError) {
            managers.delete(manager);
            continue;
          }
          throw err;
        }
        cmp = excludeFields(
          compare(oldV.value, newV.value, oldV.type),
          this.options.ignoredFields?.get(managerSet.apiVersion),
        );
        versions.set(managerSet.apiVersion, cmp);
        changedAt.set(managerSet.apiVersion, cmp.modified.union(cmp.added));
      }
      const changed = changedAt.get(managerSet.apiVersion)!;
      if (managerSet.set.intersects(changed))
        conflicts.set(manager, {
          set: managerSet.set.intersection(changed),
          apiVersion: managerSet.apiVersion,
          applied: false,
        });
      if (managerSet.set.intersects(cmp.removed))
        removed.set(manager, { set: cmp.removed, apiVersion: managerSet.apiVersion, applied: false });
    }
    if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
    for (const [manager, c] of conflicts) {
      const m = managers.get(manager)!;
      managers.set(manager, { ...m, set: m.set.difference(c.set) });
    }
    for (const [manager, r] of removed) {
      const m = managers.get(manager);
      if (m) managers.set(manager, { ...m, set: m.set.difference(r.set) });
    }
    for (const [manager, m] of [...managers]) if (m.set.empty()) managers.delete(manager);
    return { managers, comparison: versions.get(version)! };
  }

  /**
   * Ownership after a create, update or non-apply patch (`Updater.Update`): fields the new object
   * adds or changes go to `manager`, and are taken from every other manager; removed fields
   * leave every owner. Never fails on conflicts.
   */
  updateManagers(
    liveObject: TypedValue,
    newObject: TypedValue,
    version: string,
    managers: ManagedFields,
    manager: string,
  ): ManagedFields {
    const { managers: out, comparison } = this.update(
      liveObject,
      newObject,
      version,
      this.reconcile(liveObject, managers),
      manager,
      true,
    );
    const previous = out.get(manager)?.set ?? new NewSet();
    const set = this.exclude(
      previous.difference(comparison.removed).union(comparison.modified).union(comparison.added),
      version,
    );
    if (set.empty()) out.delete(manager);
    else out.set(manager, { set, apiVersion: version, applied: false });
    return out;
  }

  /**
   * Merges an applied configuration (`Updater.Apply`): the manager now owns exactly the fields of
   * `config`; fields it applied before and dropped are removed unless another manager owns them;
   * changing a field another manager owns throws {@link ConflictsError} unless `force`, which
   * takes the fields over.
   */
  apply(
    liveObject: TypedValue,
    config: TypedValue,
    version: string,
    managers: ManagedFields,
    manager: string,
    force: boolean,
  ): ApplyResult {
    const m = this.reconcile(liveObject, managers);
    const merged = merge(liveObject.value, config.value, liveObject.type);
    let newObject: TypedValue = { value: merged, type: liveObject.type };
    const lastSet = m.get(manager);
    const set = this.exclude(toFieldSet(config.value, config.type), version);
    m.set(manager, { set, apiVersion: version, applied: true });
    newObject = this.prune(newObject, m, manager, lastSet);
    const { managers: out } = this.update(liveObject, newObject, version, m, manager, force);
    if (!this.options.returnInputOnNoop && equalValues(liveObject.value ?? null, newObject.value ?? null)) {
      return { object: undefined, managers: out };
    }
    return { object: newObject, managers: out };
  }

  /**
   * Each manager's set reconciled with the live object's type at the manager's version
   * (`reconcileManagedFieldsWithSchemaChanges`): fields named below what the schema makes atomic
   * are owned as the atomic field. A manager at a version no longer served is dropped.
   */
  private reconcile(liveObject: TypedValue, managers: ManagedFields): ManagedFields {
    const out: ManagedFields = new Map();
    const types = new Map<string, Atom | undefined>();
    for (const [manager, vs] of managers) {
      if (!types.has(vs.apiVersion)) {
        try {
          types.set(vs.apiVersion, this.convert(liveObject, vs.apiVersion).type);
        } catch (err) {
          if (!(err instanceof MissingVersionError)) throw err;
          types.set(vs.apiVersion, undefined);
        }
      }
      const type = types.get(vs.apiVersion);
      if (type === undefined) continue;
      const reconciled = reconcileFieldSetWithSchema(vs.set, type);
      out.set(manager, reconciled ? { ...vs, set: reconciled } : vs);
    }
    return out;
  }

  private prune(
    merged: TypedValue,
    managers: ManagedFields,
    applyingManager: string,
    lastSet: VersionedSet | undefined,
  ): TypedValue {
    if (!lastSet || lastSet.set.empty()) return merged;
    const version = lastSet.apiVersion;
    let converted: TypedValue;
    try {
      converted = this.convert(merged, version);
    } catch (err) {
      if (err instanceof MissingVersionError) return merged;
      throw err;
    }
    const t = converted.type;
    let pruned: TypedValue = {
      value: removeItems(converted.value, ensureNamedFieldsAreMembers(lastSet.set, t), t),
      type: t,
    };
    pruned = this.addBackOwnedItems(converted, pruned, version, managers);
    pruned = this.addBackDanglingItems(converted, pruned, lastSet);
    return this.convert(pruned, managers.get(applyingManager)!.apiVersion);
  }

  private addBackOwnedItems(
    merged: TypedValue,
    pruned: TypedValue,
    prunedVersion: string,
    managers: ManagedFields,
  ): TypedValue {
    const setsAtVersion = new Map<string, FieldSet[]>();
    for (const vs of managers.values()) {
      const known = setsAtVersion.get(vs.apiVersion);
      if (known) known.push(vs.set);
      else setsAtVersion.set(vs.apiVersion, [vs.set]);
    }
    const managedAtVersion = new Map<string, FieldSet>();
    for (const [version, sets] of setsAtVersion) managedAtVersion.set(version, NewSet.unionOf(sets));
    const order = [...managedAtVersion.keys()].sort((a, b) => (a === prunedVersion ? -1 : b === prunedVersion ? 1 : 0));
    for (const version of order) {
      try {
        merged = this.convert(merged, version);
        pruned = this.convert(pruned, version);
      } catch (err) {
        if (err instanceof MissingVersionError) continue;
        throw err;
      }
      const t = merged.type;
      const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(merged.value, t), t);
      const prunedSet = ensureNamedFieldsAreMembers(toFieldSet(pruned.value, t), t);
      const managed = ensureNamedFieldsAreMembers(managedAtVersion.get(version)!, t);
      pruned = { value: removeItems(merged.value, mergedSet.difference(prunedSet.union(managed)), t), type: t };
    }
    return pruned;
  }

  private addBackDanglingItems(merged: TypedValue, pruned: TypedValue, lastSet: VersionedSet): TypedValue {
    let convertedPruned: TypedValue;
    try {
      convertedPruned = this.convert(pruned, lastSet.apiVersion);
    } catch (err) {
      if (err instanceof MissingVersionError) return merged;
      throw err;
    }
    const t = merged.type;
    const prunedSet = ensureNamedFieldsAreMembers(toFieldSet(convertedPruned.value, convertedPruned.type), t);
    const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(merged.value, t), t);
    const last = ensureNamedFieldsAreMembers(lastSet.set, t);
    return { value: removeItems(merged.value, mergedSet.difference(prunedSet).intersection(last), t), type: t };
  }
}
