import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { isStorageError } from '@kevents/storage';
import { keyOf, objectOf, rvOf, runStorageConformance, testObject, type TestObject } from '@kevents/storage/testing';
import { createSqlStorage, type SqliteThreadBackend } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// As on PostgreSQL: a write's commit is an fsync, slower than the suite's default 100 ms wait on a busy disk.
runStorageConformance(
  'SqlStorage (SQLite)',
  async (tuning) => ({
    storage: await createSqlStorage({ url: `sqlite://${join(dir, `conf${++n}`, 'events.db')}`, ...tuning }),
  }),
  { tooLargeResourceVersionWaitMs: 2_000 },
);

describe('SqlStorage on SQLite', () => {
  it('keeps objects, resourceVersions and history across a restart', async () => {
    const url = `sqlite://${join(dir, 'restart', 'events.db')}`;
    const s1 = await createSqlStorage({ url });
    const a = await s1.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    const b = await s1.create(keyOf('ns', 'b'), testObject('ns', 'b'));
    await s1.close();
    const s2 = await createSqlStorage({ url });
    expect(await s2.get(keyOf('ns', 'a'))).toEqual(a);
    expect(await s2.currentResourceVersion()).toBe(b.metadata.resourceVersion);
    const c = await s2.create(keyOf('ns', 'c'), testObject('ns', 'c'));
    expect(Number(c.metadata.resourceVersion)).toBe(Number(b.metadata.resourceVersion) + 1);
    const w = await s2.watch({ resource: 'events' }, { resourceVersion: a.metadata.resourceVersion! });
    const seen: string[] = [];
    for await (const e of w) {
      seen.push(`${e.type} ${e.resourceVersion}`);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([`ADDED ${b.metadata.resourceVersion}`, `ADDED ${c.metadata.resourceVersion}`]);
    await s2.close();
  });

  it('starts a database an older kevents left unwritten at resourceVersion 1, and a written one from where it is', async () => {
    const url = `sqlite://${join(dir, 'first-rv', 'events.db')}`;
    let s = await createSqlStorage({ url });
    // What the first migration left before kevents started the counter at 1.
    await (s.backend as SqliteThreadBackend).maintenance('UPDATE kevents_meta SET rv = 0, compacted = 0 WHERE id = 1');
    await s.close();
    s = await createSqlStorage({ url });
    expect(await s.currentResourceVersion()).toBe('1');
    expect((await s.create(keyOf('ns', 'a'), testObject('ns', 'a'))).metadata.resourceVersion).toBe('2');
    await s.close();
    s = await createSqlStorage({ url });
    expect(await s.currentResourceVersion()).toBe('2');
    await s.close();
  });

  it('answers Unavailable ("the disk is full") when the database cannot grow, half-writes nothing, and writes again once there is room', async () => {
    const s = await createSqlStorage({ url: `sqlite://${join(dir, 'full', 'events.db')}`, historyLimit: 10 });
    const big = 'x'.repeat(4_000);
    const first = await s.create(keyOf('ns', 'first'), testObject('ns', 'first', { note: big }));
    // Stand-in for a full disk: the file may not grow past its current size.
    const db = s.backend as SqliteThreadBackend;
    const pages = Number((await db.maintenance('PRAGMA page_count'))[0]!['page_count']);
    await db.maintenance(`PRAGMA max_page_count = ${pages + 2}`);
    let err: unknown;
    const created: string[] = [];
    for (let i = 0; i < 50 && err === undefined; i++) {
      try {
        await s.create(keyOf('ns', `e${i}`), testObject('ns', `e${i}`, { note: big }));
        created.push(`e${i}`);
      } catch (e) {
        err = e;
      }
    }
    expect(isStorageError(err, 'Unavailable')).toBe(true);
    expect((err as Error).message).toMatch(/^sqlite: the disk is full: /);
    expect((await s.list({ resource: 'events' })).items).toHaveLength(created.length + 1);
    expect(await s.currentResourceVersion()).toBe(String(rvOf(first) + created.length));
    await db.maintenance('PRAGMA max_page_count = 1073741823'); // room again
    await s.create(keyOf('ns', 'after'), testObject('ns', 'after', { note: big }));
    await s.close();
  });

  it("gives concurrent watches' initial events one frozen object per stored state, and a new one after a change", async () => {
    const s = await createSqlStorage({ url: `sqlite://${join(dir, 'shared', 'events.db')}` });
    for (const name of ['a', 'b', 'c']) await s.create(keyOf('ns', name), testObject('ns', name));
    const initial = async (): Promise<TestObject[]> => {
      const w = await s.watch<TestObject>({ resource: 'events' }, { sendInitialEvents: true });
      const objects: TestObject[] = [];
      for await (const e of w) {
        objects.push(objectOf(e));
        if (objects.length === 3) break;
      }
      return objects;
    };
    const [one, two] = await Promise.all([initial(), initial()]);
    expect(one.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    one.forEach((o, i) => {
      expect(two[i]).toBe(o);
      expect(Object.isFrozen(o.metadata)).toBe(true);
    });
    const b = await s.update(keyOf('ns', 'b'), {
      ...testObject('ns', 'b', { note: 'changed' }),
      metadata: { ...one[1]!.metadata },
    });
    const three = await initial();
    expect(three[0]).toBe(one[0]);
    expect(three[1]).not.toBe(one[1]);
    expect(three[1]!.metadata.resourceVersion).toBe(b.metadata.resourceVersion);
    await s.close();
  });

  it('refuses a second process on the same file, and a relative path', async () => {
    const url = `sqlite://${join(dir, 'locked', 'events.db')}`;
    const s1 = await createSqlStorage({ url });
    await s1.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    await expect(createSqlStorage({ url })).rejects.toThrow(/in use by another process/);
    await s1.close();
    await expect(createSqlStorage({ url: 'sqlite://relative/events.db' })).rejects.toThrow(
      'sqlite://relative/events.db: a SQLite URL names an absolute path: sqlite:///ABS/PATH.db (three slashes)',
    );
  });
});

describe('remainingItemCount from the per-namespace counts', () => {
  it('is exact on every page of a cluster-wide and a namespace list, whatever the namespaces sort like', async () => {
    const s = await createSqlStorage({ url: `sqlite://${join(dir, 'counts', 'events.db')}` });
    const keys = ['a/1', 'a/2', 'a-b/1', 'ab/1', 'ab/2', 'ab/3', 'b/1', 'A/1'];
    for (const k of keys) {
      const [ns, name] = k.split('/') as [string, string];
      await s.create(keyOf(ns, name), testObject(ns, name));
    }
    await s.delete(keyOf('ab', '2'));
    const total = keys.length - 1;
    let page = await s.list({ resource: 'events' }, { limit: 1 });
    for (let seen = 1; ; seen++) {
      if (page.continue === undefined) {
        expect(seen).toBe(total);
        break;
      }
      expect(page.remainingItemCount).toBe(total - seen);
      page = await s.list({ resource: 'events' }, { limit: 1, continue: page.continue });
    }
    const ns = await s.list({ resource: 'events', namespace: 'ab' }, { limit: 1 });
    expect(ns.remainingItemCount).toBe(1);
    await s.close();
  });

  it('is left out of a continued page with more than 10,000 keys left in its namespace', async () => {
    const s = await createSqlStorage({ url: `sqlite://${join(dir, 'cap', 'events.db')}` });
    await Promise.all(
      Array.from({ length: 10_050 }, (_, i) =>
        s.create(keyOf('big', `e${String(i).padStart(5, '0')}`), testObject('big', `e${i}`)),
      ),
    );
    const first = await s.list({ resource: 'events', namespace: 'big' }, { limit: 10 });
    expect(first.remainingItemCount).toBe(10_040);
    const second = await s.list({ resource: 'events', namespace: 'big' }, { limit: 10, continue: first.continue });
    expect(second.remainingItemCount).toBeUndefined();
    expect(second.continue).toBeDefined();
    await s.close();
  });
});
