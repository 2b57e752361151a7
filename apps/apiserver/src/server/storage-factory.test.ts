import { describe, expect, it } from '@jest/globals';
import { createStorage } from './storage-factory.js';

describe('createStorage', () => {
  it('builds the in-process store for memory', async () => {
    const s = await createStorage({ storage: 'memory', historyLimit: 10 });
    expect(s.description).toMatch(/memory/);
    await s.close();
  });

  it('refuses an unknown storage', async () => {
    await expect(createStorage({ storage: 'etcd://x', historyLimit: 10 })).rejects.toThrow(
      '--storage=etcd://x: unknown storage; use memory, redis://, rediss://, redis+sentinel:// or redis+cluster:// (see docs/operations.md)',
    );
  });

  it('refuses the Redis TLS files where they cannot apply or are incomplete', async () => {
    await expect(createStorage({ storage: 'memory', historyLimit: 10, caFile: '/ca.crt' })).rejects.toThrow(
      '--storage-cafile, --storage-certfile and --storage-keyfile apply to a TLS Redis --storage (rediss://...)',
    );
    await expect(
      createStorage({ storage: 'rediss://127.0.0.1:1', historyLimit: 10, certFile: '/client.crt' }),
    ).rejects.toThrow('--storage-certfile and --storage-keyfile must be given together');
    await expect(
      createStorage({ storage: 'rediss://127.0.0.1:1', historyLimit: 10, caFile: '/nonexistent/ca.crt' }),
    ).rejects.toThrow(
      "--storage-cafile=/nonexistent/ca.crt: ENOENT: no such file or directory, open '/nonexistent/ca.crt'",
    );
  });
});
