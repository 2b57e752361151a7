// First: a clear error on a Node.js too old for undici, before undici is evaluated.
import '../node-version.js';
export { freePort, waitFor } from '@kevents/api/testing';
export type { WaitForOptions } from '@kevents/api/testing';
export {
  ChildRun,
  ApiserverChild,
  RedisChild,
  haveRedisServer,
  apiserverMain,
  apiserverMainEnv,
  nodeChildEnv,
} from './processes.js';
export type { ApiserverChildOptions } from './processes.js';
export { TcpProxy } from './tcp-proxy.js';
export { testKubeConfig, testClients, testEvent, eventsResource, leasesResource } from './clients.js';
