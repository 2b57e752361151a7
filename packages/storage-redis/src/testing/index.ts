export {
  RedisClusterSet,
  RedisSentinelSet,
  RedisServer,
  haveRedisServer,
  redisCommand,
  redisServerBinary,
  waitReplicated,
} from './redis-process.js';
export { freePort, waitFor } from '@kevents/api/testing';
export type { WaitForOptions } from '@kevents/api/testing';
export type { RedisServerOptions } from './redis-process.js';
export { redisTlsArgs, writeTlsFiles } from './tls-files.js';
export type { TlsFiles } from './tls-files.js';
export { SilentProxy } from './silent-proxy.js';
