import type { KubeObject } from '@kevents/api';
import { alreadyExistsError, isStorageError } from '@kevents/storage';
import type {
  GuaranteedUpdateOptions,
  KeyPrefix,
  ListOptions,
  ListResult,
  ObjectKey,
  Storage,
  WriteOptions,
} from '@kevents/storage';
import { checkPreconditions } from './preconditions.js';

/**
 * What the update function of {@link DryRunnableStorage.guaranteedUpdate} decides for the current
 * object: `write` an object, or `end` the update without a write, answering a value of its own.
 */
export type UpdateStep<T, E> = { readonly write: T } | { readonly end: E };

/** Decides an update from the current object (undefined when it does not exist and that is allowed). */
export type StepFunction<T, E> = (current: T | undefined) => UpdateStep<T, E>;

/** What {@link DryRunnableStorage.guaranteedUpdate} did: the object written, or the value the update ended with. */
export type UpdateOutcome<T, E> = { readonly written: T } | { readonly ended: E };

/**
 * Ends the storage's guaranteedUpdate loop without a write. The Storage contract ends an update
 * only by an error its update function throws; this one never leaves
 * {@link DryRunnableStorage.guaranteedUpdate}, which answers it as {@link UpdateOutcome} `ended`.
 */
class EndWithoutWrite extends Error {
  constructor() {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super('update ended without a write');
    Error.stackTraceLimit = limit;
  }
}

/**
 * The writes of a Store over the Storage contract with dry runs in one place: Kubernetes'
 * `DryRunnableStorage` (`pkg/registry/generic/registry/dryrun.go`). With `dryRun` a write reads
 * and checks what the storage would (existence, preconditions, the update function) and answers
 * a copy of what would be stored, writing nothing; without it the call goes to the storage.
 */
export class DryRunnableStorage {
  readonly storage: Storage;

  constructor(storage: Storage) {
    this.storage = storage;
  }

  get<T extends KubeObject>(key: ObjectKey, options?: { resourceVersion?: string }): Promise<T> {
    return this.storage.get<T>(key, options);
  }

  list<T extends KubeObject>(prefix: KeyPrefix, options?: ListOptions<T>): Promise<ListResult<T>> {
    return this.storage.list<T>(prefix, options);
  }

  /** Stores a new object; a dry run fails with AlreadyExists as the storage would, else answers a copy. */
  async create<T extends KubeObject>(key: ObjectKey, obj: T, dryRun: boolean): Promise<T> {
    if (!dryRun) return this.storage.create<T>(key, obj);
    if ((await this.#getOrUndefined(key)) !== undefined) throw alreadyExistsError(key);
    return structuredClone(obj);
  }

  /** Deletes an object; a dry run reads it (NotFound) and checks the preconditions. */
  async delete<T extends KubeObject>(key: ObjectKey, options: WriteOptions, dryRun: boolean): Promise<T> {
    if (!dryRun) return this.storage.delete<T>(key, options);
    const current = await this.storage.get<T>(key);
    checkPreconditions(key, current, options.preconditions);
    return current;
  }

  /**
   * `GuaranteedUpdate` with an update function that answers a value: an object to write, or the
   * end of the update without a write. A dry run reads the object (NotFound unless
   * `ignoreNotFound`), checks the preconditions and calls the function once.
   */
  async guaranteedUpdate<T extends KubeObject, E>(
    key: ObjectKey,
    tryUpdate: StepFunction<T, E>,
    options: GuaranteedUpdateOptions,
    dryRun: boolean,
  ): Promise<UpdateOutcome<T, E>> {
    if (dryRun) {
      const current = options.ignoreNotFound ? await this.#getOrUndefined<T>(key) : await this.storage.get<T>(key);
      if (current !== undefined) checkPreconditions(key, current, options.preconditions);
      const step = tryUpdate(current);
      return 'write' in step ? { written: structuredClone(step.write) } : { ended: step.end };
    }
    let ended: { readonly end: E } | undefined;
    try {
      const written = await this.storage.guaranteedUpdate<T>(
        key,
        (current) => {
          const step = tryUpdate(current);
          if ('write' in step) return step.write;
          ended = step;
          throw new EndWithoutWrite();
        },
        options,
      );
      return { written };
    } catch (err) {
      if (err instanceof EndWithoutWrite && ended !== undefined) return { ended: ended.end };
      throw err;
    }
  }

  async #getOrUndefined<T extends KubeObject>(key: ObjectKey): Promise<T | undefined> {
    try {
      return await this.storage.get<T>(key);
    } catch (err) {
      if (isStorageError(err, 'NotFound')) return undefined;
      throw err;
    }
  }
}
