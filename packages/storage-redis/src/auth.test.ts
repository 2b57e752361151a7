import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectStorageError, keyOf, testObject } from '@kevents/storage/testing';
import { createRedisStorage, type RedisConnectionEvent } from './index.js';
import { redisCommand, RedisServer } from './testing/index.js';

/** A Redis with a password on the default user and an ACL user limited to kevents' keys. */
let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
  expect(await redisCommand(server.port, 'ACL SETUSER kevents on >kevents-secret ~{acl}:* &* +@all')).toBe('+OK');
  expect(await redisCommand(server.port, 'CONFIG SET requirepass default-secret')).toBe('+OK');
});
afterAll(async () => {
  await server?.stop();
});

const roundTrip = async (url: string, prefix: string): Promise<void> => {
  const s = await createRedisStorage({ url, prefix });
  try {
    await s.ready();
    const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    expect((await s.get(keyOf('ns', 'a'))).metadata.resourceVersion).toBe(c.metadata.resourceVersion);
    expect(s.description).not.toContain('secret');
  } finally {
    await s.close();
  }
};

describe('RedisStorage with credentials', () => {
  it('authenticates with the password of the default user', async () => {
    await roundTrip(`redis://:default-secret@127.0.0.1:${server.port}`, 'pw');
  });

  it('authenticates as an ACL user that may touch only its own keys', async () => {
    await roundTrip(`redis://kevents:kevents-secret@127.0.0.1:${server.port}`, 'acl');
  });

  it('is unavailable, with the reason, on a wrong password or a key outside the ACL', async () => {
    const events: RedisConnectionEvent[] = [];
    const wrong = await createRedisStorage({
      url: `redis://kevents:nope@127.0.0.1:${server.port}`,
      prefix: 'acl',
      connectWaitMs: 300,
      onConnection: (e) => events.push(e),
    });
    try {
      const wrongpass = 'redis unavailable: WRONGPASS invalid username-password pair or user is disabled.';
      expect(
        (await expectStorageError(wrong.create(keyOf('ns', 'a'), testObject('ns', 'a')), 'Unavailable')).message,
      ).toBe(wrongpass);
      expect((await expectStorageError(wrong.ready(), 'Unavailable')).message).toBe(wrongpass);
      expect(events[0]).toEqual({
        state: 'lost',
        reason: 'WRONGPASS invalid username-password pair or user is disabled.',
      });
      expect(events.length).toBeLessThan(3); // once per distinct reason, not once per retry
    } finally {
      await wrong.close();
    }
    const outside = await createRedisStorage({
      url: `redis://kevents:kevents-secret@127.0.0.1:${server.port}`,
      prefix: 'other',
      connectWaitMs: 300,
    });
    try {
      const e = await expectStorageError(outside.create(keyOf('ns', 'a'), testObject('ns', 'a')), 'Internal');
      expect(e.message).toMatch(/NOPERM/);
    } finally {
      await outside.close();
    }
  });
});
