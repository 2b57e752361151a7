import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectStorageError, keyOf, runStorageConformance, testObject } from '@kevents/storage/testing';
import { createRedisStorage } from './index.js';
import { freePort, RedisServer, redisTlsArgs, writeTlsFiles, type TlsFiles } from './testing/index.js';

/** A redis-server that speaks TLS (and plain TCP on another port, for the harness) and asks for client certificates. */
let dir: string;
let tls: TlsFiles;
let redis: RedisServer;
let tlsPort: number;
let n = 0;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kevents-redis-tls-'));
  tls = await writeTlsFiles(dir);
  tlsPort = await freePort();
  redis = await RedisServer.start({ args: redisTlsArgs(tlsPort, tls) });
}, 30_000);
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const url = (): string => `rediss://127.0.0.1:${tlsPort}`;
const clientTls = () => ({ ca: tls.ca, cert: tls.clientCert, key: tls.clientKey });

// A write, the Stream's read and the counter's polls must fit the suite's wait for a future
// resourceVersion: its default 100 ms was too short once on a loaded CI machine (through Sentinel).
runStorageConformance(
  'RedisStorage (TLS with a client certificate)',
  async (tuning) => ({
    storage: await createRedisStorage({ url: url(), prefix: `tls${++n}`, tls: clientTls(), ...tuning }),
  }),
  { tooLargeResourceVersionWaitMs: 2_000 },
);

describe('RedisStorage over TLS', () => {
  it('is unavailable, not hung, when the server is not trusted or wants a client certificate', async () => {
    for (const options of [{ ca: tls.ca }, { cert: tls.clientCert, key: tls.clientKey }, undefined]) {
      const s = await createRedisStorage({
        url: url(),
        prefix: 'tls-bad',
        connectWaitMs: 500,
        ...(options === undefined ? {} : { tls: options }),
      });
      try {
        await expectStorageError(s.ready(), 'Unavailable');
        await expectStorageError(s.create(keyOf('ns', 'a'), testObject('ns', 'a')), 'Unavailable');
      } finally {
        await s.close();
      }
    }
  });

  it('refuses TLS settings with a plain URL', async () => {
    await expect(createRedisStorage({ url: redis.url, tls: clientTls() })).rejects.toThrow(
      `TLS settings were given, but redis://127.0.0.1:${redis.port} does not use TLS: use rediss://, rediss+sentinel://, rediss+cluster:// or ?tls=true`,
    );
  });
});
