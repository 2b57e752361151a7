import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { encodeContinue, type ListResult } from '@kevents/storage';
import { keyOf, testObject, type TestObject } from '@kevents/storage/testing';
import { createRedisStorage, type RedisStorage } from './index.js';
import { RedisServer } from './testing/index.js';

// A namespace list reads the range [`<ns>/`, `<ns>0`) of the resource's one index. These
// namespaces sort around each other: `a-b` and `a.` before `a/`, `a0` right at the upper bound,
// `ab` after it; the names sit at the edges of the name alphabet.
const namespaces = ['a', 'a-b', 'a.', 'a0', 'ab', 'b'];
const names = ['0', '00', '-', 'a', 'z', 'zz', 'x.y'];

let server: RedisServer;
let redis: Redis;
let n = 0;
beforeAll(async () => {
  server = await RedisServer.start();
  redis = new Redis(server.url);
});
/** Every storage a test opened: closed here too, so a failing test does not keep Jest running. */
const opened: RedisStorage[] = [];
afterAll(async () => {
  await Promise.allSettled(opened.map((s) => s.close()));
  redis?.disconnect();
  await server?.stop();
});

const open = async (extra: { legacyNamespaceIndex?: boolean } = {}): Promise<RedisStorage> => {
  const s = await createRedisStorage({ url: server.url, prefix: `nsr${++n}`, ...extra });
  opened.push(s);
  return s;
};
const keysOf = (l: ListResult<TestObject>): string[] =>
  l.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
const inNs = (ns: string) => (k: string) => k.startsWith(`${ns}/`);

/** Every page of a namespace list, `limit` at a time, checking remainingItemCount on the way. */
async function pages(s: RedisStorage, ns: string, limit: number, resourceVersion?: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  let first = true;
  for (;;) {
    const l = await s.list<TestObject>(
      { resource: 'events', namespace: ns },
      token === undefined ? { limit, ...(resourceVersion ? { resourceVersion } : {}) } : { limit, continue: token },
    );
    out.push(...keysOf(l));
    if (l.continue === undefined) {
      expect(l.remainingItemCount).toBeUndefined();
      return out;
    }
    if (first) expect(out.length + l.remainingItemCount!).toBeGreaterThan(out.length);
    first = false;
    token = l.continue;
  }
}

describe('namespace lists as ranges of the one index', () => {
  it('lists exactly a namespace among namespaces that prefix each other, whole and paged', async () => {
    const s = await open();
    const all: string[] = [];
    for (const ns of namespaces)
      for (const name of names) {
        await s.create(keyOf(ns, name), testObject(ns, name));
        all.push(`${ns}/${name}`);
      }
    await s.create(keyOf('a', 'other-resource', 'leases'), testObject('a', 'other-resource'));
    all.sort();
    for (const ns of namespaces) {
      const want = all.filter(inNs(ns));
      expect(want).toHaveLength(names.length);
      expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: ns }))).toEqual(want);
      for (const limit of [1, 2, 6, 7, 8]) expect(await pages(s, ns, limit)).toEqual(want);
      const first = await s.list<TestObject>({ resource: 'events', namespace: ns }, { limit: 3 });
      expect(first.remainingItemCount).toBe(names.length - 3);
    }
    expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: 'c' }))).toEqual([]);
    expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: 'a/' }))).toEqual([]);
    await s.close();
  });

  it('undoes changes made after an exact resourceVersion only within the namespace', async () => {
    const s = await open();
    for (const ns of namespaces) await s.create(keyOf(ns, 'z'), testObject(ns, 'z'));
    const rv = await s.currentResourceVersion();
    for (const ns of namespaces) {
      await s.delete(keyOf(ns, 'z'));
      await s.create(keyOf(ns, '0'), testObject(ns, '0'));
    }
    for (const ns of namespaces) {
      const exact = await s.list<TestObject>(
        { resource: 'events', namespace: ns },
        { resourceVersion: rv, resourceVersionMatch: 'Exact' },
      );
      expect(keysOf(exact)).toEqual([`${ns}/z`]);
      expect(await pages(s, ns, 1, rv)).toEqual([`${ns}/z`]);
      expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: ns }))).toEqual([`${ns}/0`]);
    }
    await s.close();
  });

  it("reads a continue token's start as a name inside the listed namespace, in byte order (kube: relative to the list's key prefix)", async () => {
    const s = await open();
    for (const ns of namespaces) for (const name of ['0', 'z']) await s.create(keyOf(ns, name), testObject(ns, name));
    const rv = Number(await s.currentResourceVersion());
    for (const [ns, start] of [
      ['ab', 'a-b/0'],
      ['ab', '0'],
      ['a0', 'a/z'],
      ['a', 'A'],
      ['a', '-\u0000'],
      ['b', '0\u0000'],
      // Past every name of the namespace: an empty page, not the next namespace.
      ['a', 'z\u0000'],
      ['a', '\u00e9'],
    ] as const) {
      const expected = ['0', 'z']
        .filter((name) => Buffer.compare(Buffer.from(name), Buffer.from(start)) >= 0)
        .map((name) => `${ns}/${name}`);
      for (const at of [rv, -1]) {
        const l = await s.list<TestObject>(
          { resource: 'events', namespace: ns },
          { continue: encodeContinue(start, at) },
        );
        expect(keysOf(l)).toEqual(expected);
      }
    }
    await s.close();
  });

  it('equals a filter of the cluster-wide list over random creates and deletes (now and at an earlier resourceVersion)', async () => {
    const op = fc.record({
      create: fc.boolean(),
      ns: fc.constantFrom(...namespaces),
      name: fc.constantFrom(...names),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { maxLength: 40 }),
        fc.nat(40),
        fc.integer({ min: 1, max: 5 }),
        async (ops, cut, limit) => {
          const s = await open();
          try {
            const model = new Set<string>();
            // resourceVersion "0" would mean "any": start at 1.
            await s.create(keyOf('a', 'x', 'leases'), testObject('a', 'x'));
            let mid = await s.currentResourceVersion();
            let midModel = new Set<string>();
            for (const [i, o] of ops.entries()) {
              if (i === cut) [mid, midModel] = [await s.currentResourceVersion(), new Set(model)];
              const k = `${o.ns}/${o.name}`;
              if (o.create && !model.has(k)) {
                await s.create(keyOf(o.ns, o.name), testObject(o.ns, o.name));
                model.add(k);
              } else if (!o.create && model.has(k)) {
                await s.delete(keyOf(o.ns, o.name));
                model.delete(k);
              }
            }
            if (cut >= ops.length) [mid, midModel] = [await s.currentResourceVersion(), new Set(model)];
            const all = keysOf(await s.list<TestObject>({ resource: 'events' }));
            expect(all).toEqual([...model].sort());
            const allMid = keysOf(
              await s.list<TestObject>({ resource: 'events' }, { resourceVersion: mid, resourceVersionMatch: 'Exact' }),
            );
            expect(allMid).toEqual([...midModel].sort());
            for (const ns of namespaces) {
              expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: ns }))).toEqual(
                all.filter(inNs(ns)),
              );
              expect(await pages(s, ns, limit)).toEqual(all.filter(inNs(ns)));
              const atMid = await s.list<TestObject>(
                { resource: 'events', namespace: ns },
                { resourceVersion: mid, resourceVersionMatch: 'Exact' },
              );
              expect(keysOf(atMid)).toEqual(allMid.filter(inNs(ns)));
              expect(await pages(s, ns, limit, mid)).toEqual(allMid.filter(inNs(ns)));
            }
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('the legacy per-namespace index', () => {
  const legacyKeys = (p: number): Promise<string[]> => redis.keys(`{nsr${p}}:i:events:*`);

  it('is neither written nor read by default', async () => {
    const s = await open();
    const p = n;
    // What an earlier version left behind: a namespace index that no longer matches.
    await redis.zadd(`{nsr${p}}:i:events:a`, 0, 'a/ghost');
    await s.create(keyOf('a', 'x'), testObject('a', 'x'));
    await s.create(keyOf('ab', 'x'), testObject('ab', 'x'));
    await s.delete(keyOf('ab', 'x'));
    expect(await legacyKeys(p)).toEqual([`{nsr${p}}:i:events:a`]);
    expect(await redis.zrange(`{nsr${p}}:i:events:a`, 0, -1)).toEqual(['a/ghost']);
    expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: 'a' }))).toEqual(['a/x']);
    expect((await s.list<TestObject>({ resource: 'events', namespace: 'a' }, { limit: 1 })).continue).toBeUndefined();
    await s.close();
  });

  it('is kept equal to the namespace with legacyNamespaceIndex (option or URL parameter)', async () => {
    const opened: [RedisStorage, number][] = [];
    opened.push([await open({ legacyNamespaceIndex: true }), n]);
    n++;
    opened.push([await createRedisStorage({ url: `${server.url}?legacyNamespaceIndex=true`, prefix: `nsr${n}` }), n]);
    for (const [s, p] of opened) {
      for (const ns of ['a', 'ab', 'a-b'])
        for (const name of ['x', 'y']) await s.create(keyOf(ns, name), testObject(ns, name));
      await s.delete(keyOf('a', 'y'));
      await s.update(keyOf('ab', 'x'), testObject('ab', 'x', { note: 'changed' }));
      await s.create(keyOf('c', 'x', 'leases'), testObject('c', 'x'));
      expect((await legacyKeys(p)).sort()).toEqual([
        `{nsr${p}}:i:events:a`,
        `{nsr${p}}:i:events:a-b`,
        `{nsr${p}}:i:events:ab`,
      ]);
      expect(await redis.zrange(`{nsr${p}}:i:events:a`, 0, -1)).toEqual(['a/x']);
      expect(await redis.zrange(`{nsr${p}}:i:events:ab`, 0, -1)).toEqual(['ab/x', 'ab/y']);
      expect(await redis.zrange(`{nsr${p}}:i:leases:c`, 0, -1)).toEqual(['c/x']);
      expect(keysOf(await s.list<TestObject>({ resource: 'events', namespace: 'a' }))).toEqual(['a/x']);
      await s.close();
    }
  });
});
