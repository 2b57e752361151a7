// First: a clear error on a Node.js too old for undici, before undici is evaluated.
import './node-version.js';
export { ControllerRuntimeError, ApiError, isNotFound, isConflict, isExpired } from './errors.js';
export type { ControllerRuntimeErrorCode } from './errors.js';
export { RestClient } from './client/rest-client.js';
export type { RestClientOptions, RestRequest } from './client/rest-client.js';
export { ResourceClient } from './client/resource-client.js';
export { maxWatchLineBytes } from './client/watch-lines.js';
export type { ResourceRef, ObjectList, ListOptions, Preconditions, WatchHandle } from './client/resource-client.js';
export { Indexer, objectKey, splitKey } from './cache/indexer.js';
export type { IndexFunc } from './cache/indexer.js';
export { Informer } from './cache/informer.js';
export type { EventHandler, InformerOptions, InformerStats } from './cache/informer.js';
export {
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './queue/rate-limiter.js';
export type { RateLimiter } from './queue/rate-limiter.js';
export { WorkQueue } from './queue/work-queue.js';
export type { WorkQueueOptions } from './queue/work-queue.js';
export { TerminalError, isTerminalError } from './reconcile/reconciler.js';
export type { Reconciler, Result } from './reconcile/reconciler.js';
export { Controller } from './controller/controller.js';
export type { ControllerOptions } from './controller/controller.js';
export { LeaderElector, leaderElectionDefaults } from './leaderelection/leader-elector.js';
export type { LeaderElectorOptions } from './leaderelection/leader-elector.js';
export { Manager } from './manager/manager.js';
export type { ManagerOptions } from './manager/manager.js';
export { RuntimeMetrics, defaultRuntimeMetrics, Counter, Gauge, Histogram } from './metrics/metrics.js';
