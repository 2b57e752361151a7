export type {
  Storage,
  ObjectKey,
  KeyPrefix,
  Preconditions,
  FieldRequirement,
  Predicate,
  ListOptions,
  ListResult,
  WatchOptions,
  StorageWatchEvent,
  Watcher,
  WatchSink,
  WriteOptions,
  UpdateFunction,
  GuaranteedUpdateOptions,
  StoredRevision,
  RevisionPage,
  RevisionReads,
} from './interface.js';
export { hasRevisionReads } from './interface.js';
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
  expiredListMessage,
  resourceVersionPreconditionError,
  invalidContinueError,
  expiredContinueError,
  expiredListError,
  tooLargeResourceVersionError,
  invalidResourceVersionError,
  isStorageError,
} from './errors.js';
export type { StorageErrorCode } from './errors.js';
export {
  encodeContinue,
  decodeContinue,
  encodeListContinue,
  decodeListContinue,
  listKeyPrefix,
  keyAfter,
  continueTokenVersion,
} from './continue.js';
export type { ContinueToken } from './continue.js';
export { parseResourceVersion, isUnsetResourceVersion } from './resource-version.js';
export { listStart, readListRetrying } from './list-start.js';
export type { ListKind, ListStart } from './list-start.js';
export { MemoryStorage } from './memory/memory-storage.js';
export type { MemoryStorageOptions } from './memory/options.js';
export { toBody, fromBody, withResourceVersion } from './body.js';
export { watchEventFor } from './watch-event.js';
export type { LoggedChange } from './watch-event.js';
export { CursorWatcher, openCursorWatch } from './cursor-watcher.js';
export { InitialTurns, initialTurns } from './initial-turns.js';
export { SharedDecodes } from './shared-decodes.js';
export { openInitialPages, initialPageSize } from './initial-pages.js';
export { remoteWatchStart, waitForResourceVersion } from './watch-start.js';
export type { RemoteWatchReads, FeedWakeups } from './watch-start.js';
export type { InitialPages } from './initial-pages.js';
export { WakeList } from './wake-list.js';
export { ChangeWindow, contiguousAfter, windowChangeSource } from './change-window.js';
export type { ChangeSource, CursorWatchStart } from './cursor-watcher.js';
