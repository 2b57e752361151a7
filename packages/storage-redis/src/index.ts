export { RedisStorage, RedisKeys, createRedisStorage } from './redis-storage.js';
export { parseRedisUrl, redact, redisDefaults } from './options.js';
export type { RedisConnectionEvent, RedisStorageOptions, RedisTarget, RedisTlsOptions } from './options.js';
