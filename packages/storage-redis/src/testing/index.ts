export {
  RedisClusterSet,
  RedisSentinelSet,
  RedisServer,
  freePort,
  haveRedisServer,
  redisCommand,
  redisServerBinary,
  waitFor,
  waitReplicated,
} from './redis-process.js';
export type { RedisServerOptions } from './redis-process.js';
export { redisTlsArgs, writeTlsFiles } from './tls-files.js';
export type { TlsFiles } from './tls-files.js';
export { SilentProxy } from './silent-proxy.js';
