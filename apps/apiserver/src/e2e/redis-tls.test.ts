import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, RedisServer, redisTlsArgs, writeTlsFiles, type TlsFiles } from '@kevents/storage-redis/testing';
import { ApiserverProcess } from '../testing/apiserver-process.js';
import { sampleEvent } from '../testing/e2e-informer.js';

/**
 * The built apiserver on a redis-server that speaks TLS and asks for client certificates.
 * RedisStorage over TLS itself is tested in packages/storage-redis/src/tls.test.ts.
 */
let dir: string;
let tls: TlsFiles;
let redis: RedisServer;
let tlsPort: number;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kevents-apiserver-tls-'));
  tls = await writeTlsFiles(dir);
  tlsPort = await freePort();
  redis = await RedisServer.start({ args: redisTlsArgs(tlsPort, tls) });
}, 30_000);
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const url = (): string => `rediss://127.0.0.1:${tlsPort}`;

describe('kevents-apiserver on Redis over TLS', () => {
  it('serves the apiserver with --storage-cafile, --storage-certfile and --storage-keyfile', async () => {
    const a = await ApiserverProcess.start(`${url()}?prefix=tls-api`, [
      `--storage-cafile=${tls.caFile}`,
      `--storage-certfile=${tls.clientCertFile}`,
      `--storage-keyfile=${tls.clientKeyFile}`,
    ]);
    try {
      const ready = await fetch(`${a.url}/readyz`);
      expect(ready.status).toBe(200);
      const created = await fetch(`${a.url}/apis/events.k8s.io/v1/namespaces/ns/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sampleEvent('over-tls', 'ns')),
      });
      expect(created.status).toBe(201);
      expect(a.log).toContain(`rediss://127.0.0.1:${tlsPort}`);
    } finally {
      await a.stop();
    }
    // Without the client certificate Redis refuses the handshake: the apiserver lives, but is not ready.
    const b = await ApiserverProcess.start(`${url()}?prefix=tls-api`, [`--storage-cafile=${tls.caFile}`], '/livez');
    try {
      const ready = await fetch(`${b.url}/readyz?verbose`);
      expect(ready.status).toBe(500);
      expect(await ready.text()).toContain('[-]storage failed');
    } finally {
      await b.stop();
    }
  }, 60_000);
});
