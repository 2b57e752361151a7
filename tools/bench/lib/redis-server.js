import { fileURLToPath } from 'node:url';

/**
 * Starts a private redis-server (no persistence, a free port) with the storage-redis package's
 * test helper; `npm run build` first. Resolves to `{ url, stop() }`.
 */
export async function startRedisServer() {
  const testing = fileURLToPath(new URL('../../../packages/storage-redis/dist/testing/index.js', import.meta.url));
  const { RedisServer } = await import(testing);
  return RedisServer.start();
}
