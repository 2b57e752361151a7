import { spawnSync } from 'node:child_process';

/**
 * Starts a private redis-server (no persistence, a free port) with the storage-redis package's
 * test helper; `npm run build` first. Resolves to `{ url, pid, stop() }`; `pid` is read from
 * `INFO server` (undefined when redis-cli cannot say), so a benchmark can pin the process.
 */
export async function startRedisServer() {
  const { RedisServer } = await import('@kevents/storage-redis/testing');
  const server = await RedisServer.start();
  const info = spawnSync('redis-cli', ['-p', String(server.port), 'info', 'server'], { encoding: 'utf8' });
  const pid = Number(/process_id:(\d+)/.exec(info.stdout ?? '')?.[1]) || undefined;
  return { url: server.url, pid, stop: () => server.stop() };
}
