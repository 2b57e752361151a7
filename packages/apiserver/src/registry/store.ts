import { timeNow } from '@kevents/api';
import type { KubeObject, ManagedFieldsEntry } from '@kevents/api';
import { isStorageError, optimisticLockErrorMsg, uidConflictError } from '@kevents/storage';
import type { KeyPrefix, ListOptions, ListResult, ObjectKey, Preconditions, Storage } from '@kevents/storage';
import { FieldPath, forbidden, GoLiteral, invalid as invalidField } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import {
  alreadyExists,
  ApiError,
  badRequest,
  conflict,
  fromStorageError,
  invalid,
  notFound,
} from '../errors/api-error.js';
import { beforeCreate, beforeUpdate, checkNamespace } from './before.js';
import { DryRunnableStorage } from './dry-runnable-storage.js';
import type { UpdateStep } from './dry-runnable-storage.js';
import { generateName as defaultGenerateName } from './generate-name.js';
import type { NameGenerator } from './generate-name.js';
import type { ResourceStrategy } from './strategy.js';
import type { VersionedView } from './view.js';
import { deepEqual } from '@kevents/validation';
import { generationOnDeletion } from './generation.js';
import { checkStoredValues, maxObjectValues, withinObjectValues } from './object-values.js';
import { checkPreconditions } from './preconditions.js';

/** Builds the new object from the current one (undefined when it does not exist). */
export type Transform<T> = (current: T | undefined) => T;

/** What an update did: the object now stored (or that would be), and whether it was created. */
export interface UpdateResult<T> {
  readonly object: T;
  readonly created: boolean;
}

/** What a delete did: `deleted` is false when finalizers keep the object (deletion is pending). */
export interface DeleteResult<T> {
  readonly object: T;
  readonly deleted: boolean;
}

/** Options of {@link Store}. */
export interface StoreOptions {
  /** Makes names from `generateName` (tests pass a deterministic one). */
  readonly generateName?: NameGenerator;
  /** How often a generated name is retried when it collides (`RetryGenerateName`). */
  readonly maxNameGenerationAttempts?: number;
  /**
   * The most values (object members and array elements) a stored object may hold, managedFields
   * included (413 past it); default `maxObjectValues` (10,000). `buildApiServer` sets it from its
   * own `maxObjectValues`.
   */
  readonly maxObjectValues?: number;
}

const withoutRV = <T extends KubeObject>(o: T): T => ({
  ...o,
  metadata: { ...o.metadata, resourceVersion: undefined },
});

/**
 * How an update ends without a write: nothing changed (`object` is the stored object), or the
 * last finalizer of an object being deleted went (`object` is the update), which deletes it.
 */
interface EndedUpdate<T> {
  readonly object: T;
  readonly deleteNext: boolean;
}

/**
 * The generic store of one resource as served through one view, over the Storage contract:
 * Kubernetes' `genericregistry.Store`. It applies the strategy (prepare, validate), the generic
 * metadata rules, preconditions, generateName retries, create-on-update, dry runs, no-op
 * updates (no write), and graceful deletion with finalizers. Errors are {@link ApiError}s named
 * after the view's group resource.
 */
export class Store<T extends KubeObject = KubeObject> {
  readonly #generate: NameGenerator;
  readonly #maxAttempts: number;
  readonly #maxValues: number;
  /** Every read and write of the store: dry runs are decided there alone. */
  readonly #storage: DryRunnableStorage;

  readonly storage: Storage;
  /** The storage resource (`events`): every view of a resource shares it. */
  readonly resource: string;
  readonly strategy: ResourceStrategy<T>;
  readonly view: VersionedView<T>;

  constructor(
    storage: Storage,
    resource: string,
    strategy: ResourceStrategy<T>,
    view: VersionedView<T>,
    options: StoreOptions = {},
  ) {
    this.storage = storage;
    this.#storage = new DryRunnableStorage(storage);
    this.resource = resource;
    this.strategy = strategy;
    this.view = view;
    this.#generate = options.generateName ?? defaultGenerateName;
    this.#maxAttempts = options.maxNameGenerationAttempts ?? 8;
    this.#maxValues = options.maxObjectValues ?? maxObjectValues;
  }

  key(namespace: string, name: string): ObjectKey {
    return { resource: this.resource, namespace, name };
  }

  prefix(namespace: string | undefined): KeyPrefix {
    return namespace === undefined ? { resource: this.resource } : { resource: this.resource, namespace };
  }

  #fail(err: unknown, name = ''): ApiError {
    return fromStorageError(err, this.view.gr, name);
  }

  /**
   * Whether an update would store what is stored already (GuaranteedUpdate compares the encoded
   * bytes): equal objects, or equal encodings through the view, which writes Go's field order and
   * omitempty rules (an empty map, list or string left out). Views convert without loss, as
   * Kubernetes' versions round-trip, so equal encodings mean equal stored objects.
   */
  #unchanged(next: T, current: T): boolean {
    const a = withoutRV(next);
    const b = withoutRV(current);
    return deepEqual(a, b) || this.view.toJSON(a, false) === this.view.toJSON(b, false);
  }

  /**
   * kube-apiserver's `IgnoreManagedFieldsTimestampsTransformer`: a write whose managedFields
   * differ from the stored ones only in entry times (an apply or update that repeats what is
   * stored), and that changes nothing else, keeps the stored entries, so nothing is written and
   * the resourceVersion stays.
   */
  #onlyManagedFieldsTimesChanged(next: T, current: T): boolean {
    if (!sameEntriesButTimes(next.metadata.managedFields, current.metadata.managedFields)) return false;
    const restored = { ...next, metadata: { ...next.metadata, managedFields: current.metadata.managedFields } };
    return this.#unchanged(restored, current);
  }

  #invalid(name: string, errs: readonly FieldError[]): ApiError {
    return invalid(this.strategy.qualifiedKind, name, errs);
  }

  async get(namespace: string, name: string, resourceVersion?: string): Promise<T> {
    try {
      return await this.#storage.get<T>(this.key(namespace, name), { resourceVersion });
    } catch (err) {
      throw this.#fail(err, name);
    }
  }

  async list(namespace: string | undefined, options: ListOptions<T>): Promise<ListResult<T>> {
    try {
      return await this.#storage.list<T>(this.prefix(namespace), options);
    } catch (err) {
      throw this.#fail(err);
    }
  }

  /**
   * Applies `BeforeCreate`, the strategy and validation to a decoded new object; one that would
   * be stored with more than its `maxObjectValues` values, managedFields included, is a 413 (so every
   * stored object can be sent back whole, as a PUT or a patch's result, and pass the same bound).
   */
  prepareCreate(obj: T, namespace: string, decodedValues?: number): void {
    beforeCreate(obj, namespace, this.#generate);
    this.strategy.prepareForCreate?.(obj);
    const errs = this.strategy.validate(obj, this.view);
    if (errs.length) throw this.#invalid(obj.metadata.name ?? '', errs);
    if (!withinObjectValues(decodedValues, this.#maxValues)) checkStoredValues(obj, this.#maxValues);
  }

  /**
   * Creates a decoded object in `namespace` (201 semantics); with `dryRun`, checks without writing.
   * `decodedValues`, when the caller knows it, is how many values the body held without
   * managedFields of its own: a small enough count spares counting the object to store.
   */
  async create(obj: T, namespace: string, dryRun: boolean, decodedValues?: number): Promise<T> {
    const generated = !obj.metadata.name && !!obj.metadata.generateName;
    this.prepareCreate(obj, namespace, decodedValues);
    return this.#storeNew(obj, namespace, dryRun, generated);
  }

  /** Stores a prepared new object, retrying generated names on collision (`RetryGenerateName`). */
  async #storeNew(obj: T, namespace: string, dryRun: boolean, generated: boolean): Promise<T> {
    const prefix = obj.metadata.generateName;
    for (let attempt = 1; ; attempt++) {
      const key = this.key(namespace, obj.metadata.name ?? '');
      try {
        return await this.#storage.create(key, obj, dryRun);
      } catch (err) {
        if (isStorageError(err, 'AlreadyExists') && generated) {
          if (attempt >= this.#maxAttempts) {
            throw alreadyExists(
              this.view.gr,
              key.name,
              ', the server was not able to generate a unique name for the object',
            );
          }
          obj.metadata.name = this.#generate(prefix!);
          continue;
        }
        throw this.#fail(err, key.name);
      }
    }
  }

  /**
   * `Store.Update`: read, transform, check the body's uid and resourceVersion against the
   * stored object (409), keep system fields, validate, and write only when something changed.
   * A missing object is created when `allowCreate` (PUT on a strategy that allows it). Removing
   * the last finalizer of an object whose deletion is pending deletes it.
   */
  async update(
    namespace: string,
    name: string,
    transform: Transform<T>,
    opts: { allowCreate: boolean; dryRun: boolean },
  ): Promise<UpdateResult<T>> {
    const key = this.key(namespace, name);
    let created = false;
    const tryUpdate = (current: T | undefined): UpdateStep<T, EndedUpdate<T>> => {
      if (!current && !opts.allowCreate) throw notFound(this.view.gr, name);
      const next = transform(current);
      next.metadata ??= {};
      if (next.metadata.name !== name) {
        throw badRequest(
          `the name of the object (${next.metadata.name ?? ''}) does not match the name on the URL (${name})`,
        );
      }
      if (!current) {
        created = true;
        if (next.metadata.uid) throw this.#fail(uidConflictError(key, next.metadata.uid, ''), name);
        next.metadata.resourceVersion = undefined;
        this.prepareCreate(next, namespace);
        return { write: next };
      }
      created = false;
      checkNamespace(next, namespace);
      const uid = next.metadata.uid;
      if (uid && uid !== current.metadata.uid) {
        throw this.#fail(uidConflictError(key, uid, current.metadata.uid ?? ''), name);
      }
      const rv = next.metadata.resourceVersion;
      if (rv && rv !== current.metadata.resourceVersion) throw conflict(this.view.gr, name, optimisticLockErrorMsg);
      if (!rv && !this.strategy.allowUnconditionalUpdate) {
        // Kubernetes names the resource here, and prints the uint64 zero as Go's %#v does.
        const kind = { group: this.view.gr.group, kind: this.view.gr.resource };
        const path = FieldPath.root('metadata').child('resourceVersion');
        throw invalid(kind, name, [invalidField(path, new GoLiteral('0x0', 0), 'must be specified for an update')]);
      }
      beforeUpdate(next, current);
      this.strategy.prepareForUpdate?.(next, current);
      next.metadata.resourceVersion = current.metadata.resourceVersion;
      const errs = this.strategy.validateUpdate(next, current, this.view);
      if (current.metadata.deletionTimestamp) {
        const added = (next.metadata.finalizers ?? []).filter((f) => !(current.metadata.finalizers ?? []).includes(f));
        if (added.length) {
          errs.push(
            forbidden(
              FieldPath.root('metadata').child('finalizers'),
              `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
            ),
          );
        }
      }
      if (errs.length) throw this.#invalid(name, errs);
      if (current.metadata.deletionTimestamp && !next.metadata.finalizers?.length) {
        return { end: { object: next, deleteNext: true } };
      }
      if (this.#unchanged(next, current) || this.#onlyManagedFieldsTimesChanged(next, current)) {
        return { end: { object: current, deleteNext: false } };
      }
      checkStoredValues(next, this.#maxValues);
      return { write: next };
    };
    try {
      const out = await this.#storage.guaranteedUpdate(
        key,
        tryUpdate,
        { ignoreNotFound: opts.allowCreate },
        opts.dryRun,
      );
      if ('written' in out) return { object: out.written, created };
      const { object, deleteNext } = out.ended;
      if (deleteNext) await this.#deleteEmptied(key, object, opts.dryRun);
      return { object, created: false };
    } catch (err) {
      throw this.#fail(err, name);
    }
  }

  /**
   * `deleteWithoutFinalizers` after an update emptied the finalizers: the update answers its own
   * object (as Kubernetes does: clients expect the updated object), and a concurrent update that
   * deleted it first (NotFound) is no error.
   */
  async #deleteEmptied(key: ObjectKey, seen: T, dryRun: boolean): Promise<void> {
    try {
      await this.#storage.delete<T>(key, { preconditions: preconditionsOf(seen) }, dryRun);
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
    }
  }

  /** Deletes an object whose last finalizer went (`deleteWithoutFinalizers`): preconditioned on what was read. */
  async #deleteNow(key: ObjectKey, seen: T, dryRun: boolean): Promise<T> {
    try {
      return await this.#storage.delete<T>(key, { preconditions: preconditionsOf(seen) }, dryRun);
    } catch (err) {
      throw this.#fail(err, key.name);
    }
  }

  /**
   * `Store.Delete`: checks the preconditions; an object with finalizers is marked for deletion
   * (`deletionTimestamp` now, `deletionGracePeriodSeconds` 0) and kept, anything else is deleted.
   * A dry run checks the same and writes nothing.
   */
  async delete(
    namespace: string,
    name: string,
    opts: { preconditions?: Preconditions; dryRun: boolean },
  ): Promise<DeleteResult<T>> {
    const key = this.key(namespace, name);
    try {
      const current = await this.#storage.get<T>(key);
      this.#beforeDelete(current, opts.preconditions);
      if (current.metadata.finalizers?.length) {
        if (current.metadata.deletionTimestamp) return { object: current, deleted: false };
        const out = await this.#storage.guaranteedUpdate<T, T>(
          key,
          (cur) => {
            if (!cur) throw notFound(this.view.gr, name);
            checkPreconditions(key, cur, opts.preconditions);
            if (!cur.metadata.finalizers?.length) return { end: cur };
            return { write: markDeleting(structuredClone(cur)) };
          },
          {},
          opts.dryRun,
        );
        if ('written' in out) return { object: out.written, deleted: false };
        return { object: await this.#deleteNow(key, out.ended, opts.dryRun), deleted: true };
      }
      const preconditions = opts.preconditions ? { preconditions: opts.preconditions } : {};
      const deleted = await this.#storage.delete<T>(key, preconditions, opts.dryRun);
      return { object: deleted, deleted: true };
    } catch (err) {
      throw this.#fail(err, name);
    }
  }

  /** `rest.BeforeDelete`: the DeleteOptions preconditions, checked first, worded as Kubernetes does. */
  #beforeDelete(obj: T, p: Preconditions | undefined): void {
    const gr = { group: this.strategy.qualifiedKind.group, resource: this.strategy.qualifiedKind.kind };
    const { uid = '', resourceVersion = '', name = '' } = obj.metadata;
    if (p?.uid && p.uid !== uid) {
      throw conflict(
        gr,
        name,
        `the UID in the precondition (${p.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
      );
    }
    if (p?.resourceVersion && p.resourceVersion !== resourceVersion) {
      throw conflict(
        gr,
        name,
        `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
      );
    }
  }

  /**
   * `Store.DeleteCollection`: lists with the options, then deletes (or marks) each item in list
   * order, answering the items. The DeleteOptions pass to each delete, as Kubernetes'
   * DeleteCollection passes them: a dry run writes nothing, and the client's preconditions are
   * checked against each item, the first that fails ending the call with its 409 (items before
   * it stay deleted, as in kube with one worker). Without them each item is deleted with its own
   * uid as precondition, and items deleted or replaced since the list are skipped.
   * {@link deleteCollectionTurnItems} deletes are made per turn of the event loop.
   */
  async deleteCollection(
    namespace: string | undefined,
    options: ListOptions<T>,
    deleteOptions: { dryRun: boolean; preconditions?: Preconditions },
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const page = await this.list(namespace, options);
    const { dryRun } = deleteOptions;
    const client = deleteOptions.preconditions?.uid || deleteOptions.preconditions?.resourceVersion;
    const items: T[] = [];
    for (let i = 0; i < page.items.length; i++) {
      const obj = page.items[i]!;
      if (i > 0 && i % deleteCollectionTurnItems === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const r = await this.delete(obj.metadata.namespace ?? '', obj.metadata.name ?? '', {
          preconditions: client ? deleteOptions.preconditions! : { uid: obj.metadata.uid },
          dryRun,
        });
        items.push(r.object);
      } catch (err) {
        const reason = err instanceof ApiError ? err.status.reason : undefined;
        if (reason === 'NotFound' || (reason === 'Conflict' && !client)) continue;
        throw err;
      }
    }
    return { items, resourceVersion: page.resourceVersion };
  }
}

/**
 * The most deletes of a collection made in one turn of the event loop before other requests are
 * let in: a memory store's delete resolves without waiting, so 5,000 of them (~45 µs each) held
 * the event loop 230 ms in one turn; 64 hold it ~3 ms.
 */
export const deleteCollectionTurnItems = 64;

/** Two lists of managedFields entries that are equal but for at least one entry's `time`. */
function sameEntriesButTimes(a: ManagedFieldsEntry[] | undefined, b: ManagedFieldsEntry[] | undefined): boolean {
  if (!a || !b || a.length !== b.length || a.length === 0) return false;
  if (a.every((e, i) => e.time === b[i]!.time)) return false;
  return a.every((e, i) => deepEqual({ ...e, time: undefined }, { ...b[i]!, time: undefined }));
}

/** The uid and resourceVersion of an object read, as the preconditions of a write that follows. */
function preconditionsOf(seen: KubeObject): Preconditions {
  return { uid: seen.metadata.uid, resourceVersion: seen.metadata.resourceVersion };
}

function markDeleting<T extends KubeObject>(obj: T): T {
  generationOnDeletion(obj);
  obj.metadata.deletionTimestamp ??= timeNow();
  obj.metadata.deletionGracePeriodSeconds ??= 0;
  return obj;
}
