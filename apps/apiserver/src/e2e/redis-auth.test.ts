import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { redisCommand, RedisServer } from '@kevents/storage-redis/testing';
import { ApiserverProcess } from '../testing/apiserver-process.js';
import { sampleEvent } from '../testing/e2e-informer.js';

/**
 * The built apiserver on a Redis that wants credentials (an ACL user limited to kevents' keys).
 * How RedisStorage itself authenticates is tested in packages/storage-redis/src/auth.test.ts.
 */
let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
  expect(await redisCommand(server.port, 'ACL SETUSER kevents on >kevents-secret ~{acl}:* &* +@all')).toBe('+OK');
  expect(await redisCommand(server.port, 'CONFIG SET requirepass default-secret')).toBe('+OK');
});
afterAll(async () => {
  await server?.stop();
});

describe('kevents-apiserver with Redis credentials', () => {
  it('logs why the apiserver cannot reach Redis', async () => {
    const a = await ApiserverProcess.start(`redis://kevents:nope@127.0.0.1:${server.port}?prefix=acl`, [], '/livez');
    try {
      expect((await fetch(`${a.url}/readyz`)).status).toBe(500);
      const created = await fetch(`${a.url}/apis/events.k8s.io/v1/namespaces/ns/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sampleEvent('x', 'ns')),
      });
      expect(created.status).toBe(503);
      expect(((await created.json()) as { message: string }).message).toContain('WRONGPASS');
      expect(a.log).toContain(
        'storage: redis unavailable: WRONGPASS invalid username-password pair or user is disabled.',
      );
    } finally {
      await a.stop();
    }
  }, 30_000);
});
