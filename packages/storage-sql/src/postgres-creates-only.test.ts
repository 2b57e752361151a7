import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { compactBody } from './compact-body.js';
import { coreEvent, migratePostgresTo, TestDatabase, testDatabases } from './testing/index.js';

const databases = testDatabases();
afterAll(() => databases.dropAll());

/** A database migrated to `version` by hand, and a client on it. */
async function databaseAt(version: number): Promise<pg.Client> {
  const db: TestDatabase = await databases.fresh();
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await migratePostgresTo(c, version);
  return c;
}

interface Op {
  readonly op: 'c' | 'd';
  readonly ns: string;
  readonly name: string;
}

const op = ({ op: kind, ns, name }: Op): Record<string, unknown> => {
  const o = coreEvent(ns, name, { reason: `r-${name}` });
  return {
    op: kind,
    r: 'events',
    n: ns,
    k: `${ns}/${name}`,
    b: kind === 'd' ? '' : compactBody(JSON.stringify(o)),
    u: kind === 'd' ? '' : o.metadata.uid,
    e: '',
    f: kind === 'd' ? [] : [`uid-${name}`, name === 'e' ? null : `pod-${name}`],
  };
};

/** Everything a batch leaves behind, but the change log's write times. */
async function state(c: pg.Client): Promise<unknown> {
  const q = async (sql: string): Promise<unknown[]> => (await c.query(sql)).rows;
  return {
    meta: await q('SELECT rv, compacted FROM kevents_meta'),
    objects: await q(
      'SELECT resource, key, namespace, rv, uid, body, f_uid, f_name FROM kevents_objects ORDER BY resource, key',
    ),
    changes: await q(
      'SELECT rv, type, resource, key, namespace, body, prev_rv, prev_body FROM kevents_changes ORDER BY rv',
    ),
    counts: await q('SELECT resource, namespace, n FROM kevents_counts WHERE n <> 0 ORDER BY resource, namespace'),
  };
}

const reset = async (c: pg.Client): Promise<void> => {
  await c.query('TRUNCATE kevents_objects, kevents_changes, kevents_counts');
  await c.query('UPDATE kevents_meta SET rv = 1, compacted = 1');
};

describe('kevents_write, schema 5: the set-based path for a batch of creates only', () => {
  let loop: pg.Client;
  let sets: pg.Client;
  beforeAll(async () => {
    loop = await databaseAt(4);
    sets = await databaseAt(5);
  });
  afterAll(async () => {
    await loop?.end();
    await sets?.end();
  });

  const write = async (c: pg.Client, ops: readonly Op[], history: number): Promise<unknown> =>
    (await c.query('SELECT kevents_write($1::jsonb, $2::bigint) AS r', [JSON.stringify(ops.map(op)), history])).rows[0]
      .r;

  it('answers each create in batch order: the next resourceVersion, or exists for a stored key or one earlier in the batch', async () => {
    await reset(sets);
    await write(sets, [{ op: 'c', ns: 'a', name: 'x' }], 100);
    const r = await write(
      sets,
      [
        { op: 'c', ns: 'a', name: 'y' },
        { op: 'c', ns: 'a', name: 'x' },
        { op: 'c', ns: 'b', name: 'y' },
        { op: 'c', ns: 'a', name: 'y' },
        { op: 'c', ns: 'a', name: 'z' },
      ],
      100,
    );
    expect(r).toEqual([
      ['ok', 3],
      ['exists', 0],
      ['ok', 4],
      ['exists', 0],
      ['ok', 5],
    ]);
    const s = (await state(sets)) as { meta: unknown; counts: unknown; changes: { rv: string; key: string }[] };
    expect(s.meta).toEqual([{ rv: '5', compacted: '1' }]);
    expect(s.counts).toEqual([
      { resource: 'events', namespace: 'a', n: '3' },
      { resource: 'events', namespace: 'b', n: '1' },
    ]);
    expect(s.changes.map((ch) => [ch.rv, ch.key])).toEqual([
      ['2', 'a/x'],
      ['3', 'a/y'],
      ['4', 'b/y'],
      ['5', 'a/z'],
    ]);
    expect(await write(sets, [], 100)).toEqual([]);
    expect(((await state(sets)) as { meta: unknown }).meta).toEqual([{ rv: '5', compacted: '1' }]);
  });

  it('leaves the same answers and rows as the loop of schema 4, for any batches', async () => {
    const anyOp = fc.record({
      op: fc.constantFrom<'c' | 'd'>('c', 'c', 'c', 'c', 'c', 'd'),
      ns: fc.constantFrom('a', 'b'),
      name: fc.constantFrom('e', 'f', 'g', 'h'),
    });
    const batches = fc.array(fc.array(anyOp, { maxLength: 8 }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(batches, fc.constantFrom(3, 1000), async (bs, history) => {
        await reset(loop);
        await reset(sets);
        for (const b of bs) expect(await write(sets, b, history)).toEqual(await write(loop, b, history));
        expect(await state(sets)).toEqual(await state(loop));
      }),
      { numRuns: 60 },
    );
  });
});
