import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { TestDatabase } from '@kevents/storage-sql/testing';
import { createStorage } from './storage-factory.js';

describe('createStorage', () => {
  it('builds the in-process store for memory', async () => {
    const s = await createStorage({ storage: 'memory', historyLimit: 10 });
    expect(s.description).toMatch(/memory/);
    await s.close();
  });

  it('refuses an unknown storage', async () => {
    await expect(createStorage({ storage: 'etcd://x', historyLimit: 10 })).rejects.toThrow(
      '--storage=etcd://x: unknown storage; use memory, redis://, rediss://, redis+sentinel://, redis+cluster://, sqlite:///ABS/PATH.db or postgres:// (see docs/operations.md)',
    );
  });

  it('refuses the Redis TLS files where they cannot apply or are incomplete', async () => {
    await expect(createStorage({ storage: 'memory', historyLimit: 10, caFile: '/ca.crt' })).rejects.toThrow(
      '--storage-cafile, --storage-certfile and --storage-keyfile apply to a TLS Redis or PostgreSQL --storage (rediss://..., postgres://...?sslmode=...)',
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

  it('builds the SQLite store for sqlite:///ABS/PATH.db, creating the folder, and refuses TLS files and relative paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kevents-factory-'));
    try {
      const file = join(dir, 'a', 'b', 'events.db');
      const s = await createStorage({ storage: `sqlite://${file}`, historyLimit: 10 });
      expect(s.description).toBe(`sqlite://${file}`);
      await s.close();
      expect(existsSync(file)).toBe(true);
      await expect(createStorage({ storage: `sqlite://${file}`, historyLimit: 10, caFile: '/ca.crt' })).rejects.toThrow(
        '--storage-cafile, --storage-certfile and --storage-keyfile do not apply to SQLite',
      );
      await expect(createStorage({ storage: 'sqlite://events.db', historyLimit: 10 })).rejects.toThrow(
        '--storage=sqlite://events.db: sqlite://events.db: a SQLite URL names an absolute path: sqlite:///ABS/PATH.db (three slashes)',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds the PostgreSQL store for postgres://, and names the server without its password when it cannot', async () => {
    const db = await TestDatabase.create();
    try {
      const s = await createStorage({ storage: db.url, historyLimit: 10 });
      expect(s.description).toBe(db.url);
      await s.ready();
      await s.close();
    } finally {
      await db.drop();
    }
    await expect(
      createStorage({ storage: 'postgres://kevents:secret@127.0.0.1:5432/db', historyLimit: 10, caFile: '/ca.crt' }),
    ).rejects.toThrow("--storage-cafile=/ca.crt: ENOENT: no such file or directory, open '/ca.crt'");
    await expect(
      createStorage({ storage: 'postgres://kevents:secret@127.0.0.1:1/db?sslmode=nope', historyLimit: 10 }),
    ).rejects.toThrow(
      '--storage=postgres://kevents:***@127.0.0.1:1/db: sslmode=nope: use one of disable, prefer, require, verify-ca, verify-full',
    );
  });
});
