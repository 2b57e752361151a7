import { afterAll, describe, expect, it } from '@jest/globals';
import { keyOf, rvOf, WatchReader, type TestObject } from '@kevents/storage/testing';
import fc from 'fast-check';
import pg from 'pg';
import { compactBody, expandBody } from './compact-body.js';
import { createSqlStorage } from './index.js';
import { coreEvent as coreEventOf, migratePostgresTo, testDatabases, type TestDatabase } from './testing/index.js';

const databases = testDatabases();
afterAll(() => databases.dropAll());
const freshDb = (): Promise<TestDatabase> => databases.fresh();

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const coreEvent = (ns: string, name: string, extra: Record<string, unknown> = {}): TestObject =>
  coreEventOf<TestObject>(ns, name, extra);

describe('compact bodies on PostgreSQL (schema 4)', () => {
  it('kevents_body_json expands every compact body as expandBody does', async () => {
    const db = await freshDb();
    const s = await createSqlStorage({ url: db.url });
    await s.close();
    const samples = fc.sample(
      fc.oneof(
        fc.jsonValue(),
        fc.constant(coreEvent('ns', 'a')),
        fc.dictionary(fc.constantFrom('name', 'f:name', 'fieldsV1', 'x"uid', 'f:kind\\'), fc.jsonValue(), {
          maxKeys: 5,
        }),
      ),
      { numRuns: 300, seed: 42 },
    );
    const bodies = samples.map((v) => compactBody(JSON.stringify(v))).filter((b) => !b.includes('\u0000'));
    const rows = await withClient(db.url, (c) =>
      c.query<{ j: string }>(
        'SELECT kevents_body_json(b) AS j FROM unnest($1::text[]) WITH ORDINALITY t(b, i) ORDER BY i',
        [bodies],
      ),
    );
    expect(rows.rows.map((r) => r.j)).toEqual(bodies.map(expandBody));
    expect(bodies.some((b) => [...b].some((ch) => ch < ' '))).toBe(true);
  });

  it('stores bodies compact in the objects table and the change log, and reads them back as written', async () => {
    const db = await freshDb();
    const s = await createSqlStorage({ url: db.url });
    try {
      const watcher = await s.watch({ resource: 'events' });
      const w = new WatchReader(watcher);
      const created = await s.create(keyOf('ns', 'e1'), coreEvent('ns', 'e1'));
      const updated = await s.update(keyOf('ns', 'e1'), { ...created, count: 2 } as TestObject);
      const raw = await withClient(db.url, async (c) => ({
        object: (await c.query<{ body: string }>('SELECT body FROM kevents_objects')).rows[0]!.body,
        changes: (await c.query<{ body: string }>('SELECT body FROM kevents_changes ORDER BY rv')).rows.map(
          (r) => r.body,
        ),
      }));
      const { resourceVersion: _, ...meta } = updated.metadata;
      const json = JSON.stringify({ ...updated, metadata: meta });
      expect(raw.object).toBe(compactBody(json));
      expect(raw.object.length).toBeLessThan(json.length * 0.75);
      expect(raw.changes.every((b) => b.startsWith('{\u0001{'))).toBe(true);
      expect(await s.get(keyOf('ns', 'e1'))).toEqual(updated);
      expect((await s.list({ resource: 'events' })).items).toEqual([updated]);
      const seen = await w.take(2, 5_000);
      expect(seen.map((e) => [e.type, e.type === 'BOOKMARK' ? undefined : e.object])).toEqual([
        ['ADDED', created],
        ['MODIFIED', updated],
      ]);
      // A list at the first resourceVersion reads the replaced body from the change log.
      const old = await s.list(
        { resource: 'events' },
        { resourceVersion: created.metadata.resourceVersion!, resourceVersionMatch: 'Exact' },
      );
      expect(old.items).toEqual([created]);
      expect(await s.delete(keyOf('ns', 'e1'))).toEqual({
        ...updated,
        metadata: { ...updated.metadata, resourceVersion: expect.any(String) },
      });
      watcher.stop();
    } finally {
      await s.close();
    }
  });

  it('reads a database written before schema 4 (JSON bodies), with the no-op update of an unchanged object', async () => {
    const db = await freshDb();
    const a = coreEvent('ns', 'old-a');
    const b = coreEvent('ns', 'old-b', { reason: 'Killing' });
    const body = (o: TestObject): string => JSON.stringify(o);
    await withClient(db.url, async (c) => {
      await migratePostgresTo(c, 3);
      const op = (o: TestObject) => ({
        op: 'c',
        r: 'events',
        n: 'ns',
        k: `ns/${o.metadata.name}`,
        b: body(o),
        u: o.metadata.uid,
        e: '',
        f: ['pod-uid', 'web-1'],
      });
      await c.query('SELECT kevents_write($1::jsonb, 1000)', [JSON.stringify([op(a), op(b)])]);
    });
    const s = await createSqlStorage({ url: db.url });
    try {
      const stored = await s.get<TestObject>(keyOf('ns', 'old-a'));
      expect(stored).toEqual({ ...a, metadata: { ...a.metadata, resourceVersion: '2' } });
      // Unchanged: no new resourceVersion, by update and by guaranteed update.
      expect(rvOf(await s.update(keyOf('ns', 'old-a'), stored))).toBe(2);
      expect(rvOf(await s.guaranteedUpdate<TestObject>(keyOf('ns', 'old-a'), (cur) => cur!))).toBe(2);
      const changed = await s.update(keyOf('ns', 'old-b'), {
        ...(await s.get<TestObject>(keyOf('ns', 'old-b'))),
        count: 5,
      } as TestObject);
      expect(rvOf(changed)).toBe(4);
      const rows = await withClient(
        db.url,
        async (c) =>
          (await c.query<{ key: string; body: string }>('SELECT key, body FROM kevents_objects ORDER BY key')).rows,
      );
      expect(rows.map((r) => [r.key, r.body.startsWith('{"metadata"')])).toEqual([
        ['ns/old-a', true],
        ['ns/old-b', false],
      ]);
      const old = await s.list({ resource: 'events' }, { resourceVersion: '3', resourceVersionMatch: 'Exact' });
      expect(old.items.map((o) => [o.metadata.name, (o as TestObject).count])).toEqual([
        ['old-a', 1],
        ['old-b', 1],
      ]);
      expect((await s.list({ resource: 'events' })).items.map((o) => (o as TestObject).count)).toEqual([1, 5]);
    } finally {
      await s.close();
    }
  });
});
