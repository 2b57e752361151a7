export { freePort, waitFor, ChildRun, ApiserverChild, RedisChild, haveRedisServer } from './processes.js';
export { TcpProxy } from './tcp-proxy.js';
export { testKubeConfig, testClients, testEvent, eventsResource, leasesResource } from './clients.js';
