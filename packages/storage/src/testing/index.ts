export { runStorageConformance } from './conformance.js';
export type { ConformanceContext, ConformanceOptions, StoreFactory, StoreTuning } from './conformance.js';
export { WatchReader, brief, expectStorageError, keyOf, rvOf, sleep, testObject } from './helpers.js';
export type { TestObject } from './helpers.js';
