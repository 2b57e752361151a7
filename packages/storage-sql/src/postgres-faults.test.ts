import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isStorageError } from '@kevents/storage';
import { keyOf, testObject, WatchReader, type TestObject } from '@kevents/storage/testing';
import { createSqlStorage, type SqlStorage } from './index.js';
import { PostgresProcess, TestDatabase } from './testing/index.js';

/** The store against a PostgreSQL of its own that the test stops and starts. */
let pg: PostgresProcess;
let s: SqlStorage;
beforeAll(async () => {
  pg = await PostgresProcess.start();
  const db = await TestDatabase.create(pg.url());
  s = await createSqlStorage({ url: db.url });
}, 60_000);
afterAll(async () => {
  await s?.close();
  pg?.destroy();
});

/** Runs `op` until it does not fail with Unavailable, for at most `ms`. */
async function whenAvailable<T>(op: () => Promise<T>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (!isStorageError(err, 'Unavailable') || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('SqlStorage when PostgreSQL goes away', () => {
  it('answers Unavailable at once while it is down, recovers by itself, and a watch resumes with no change lost', async () => {
    const before = await s.create(keyOf('ns', 'before'), testObject('ns', 'before'));
    const w = new WatchReader(
      await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: before.metadata.resourceVersion! }),
    );
    pg.stop('immediate');
    for (const op of [
      () => s.create(keyOf('ns', 'down'), testObject('ns', 'down')),
      () => s.get(keyOf('ns', 'before')),
      () => s.list({ resource: 'events' }),
      () => s.ready(),
    ]) {
      const t0 = Date.now();
      const err = await op().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isStorageError(err, 'Unavailable')).toBe(true);
      expect((err as Error).message).toMatch(/^postgres: /);
      expect(Date.now() - t0).toBeLessThan(6_000);
    }
    pg.restart();
    const after = await whenAvailable(() => s.create(keyOf('ns', 'after'), testObject('ns', 'after')), 20_000);
    await s.ready();
    const seen = (await w.take(1, 10_000)).map((e) => e.type !== 'BOOKMARK' && e.object.metadata.name);
    expect(seen).toEqual(['after']);
    expect(Number(after.metadata.resourceVersion)).toBe(Number(before.metadata.resourceVersion) + 1);
  }, 60_000);
});
