export { runStorageConformance } from './conformance.js';
export type { ConformanceContext, ConformanceOptions, StoreFactory, StoreTuning } from './conformance.js';
export {
  WatchReader,
  brief,
  expectStorageError,
  keyOf,
  objectOf,
  rvOf,
  rvs,
  sleep,
  testObject,
  uidOf,
} from './helpers.js';
export type { TestObject } from './helpers.js';
