export type {
  Storage,
  ObjectKey,
  KeyPrefix,
  Preconditions,
  Predicate,
  ListOptions,
  ListResult,
  WatchOptions,
  StorageWatchEvent,
  Watcher,
  WriteOptions,
  UpdateFunction,
  GuaranteedUpdateOptions,
} from './interface.js';
export {
  StorageError,
  optimisticLockErrorMsg,
  expiredContinueMessage,
  notFoundError,
  alreadyExistsError,
  conflictError,
  uidConflictError,
  tooOldResourceVersionError,
  unavailableError,
  isStorageError,
} from './errors.js';
export type { StorageErrorCode } from './errors.js';
