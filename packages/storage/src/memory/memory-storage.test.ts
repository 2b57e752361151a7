import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MemoryStorage } from '../index.js';
import { expectStorageError, keyOf, rvs, runStorageConformance, testObject, WatchReader } from '../testing/index.js';
import type { TestObject } from '../testing/index.js';

runStorageConformance('MemoryStorage', async (tuning) => ({ storage: new MemoryStorage(tuning) }));

describe('MemoryStorage', () => {
  it('reads revisions: the resourceVersion at once, the object (as get and list give it) on demand', async () => {
    const s = new MemoryStorage();
    for (let i = 0; i < 30; i++) await s.create(keyOf(`ns${i % 3}`, `k${i}`), testObject(`ns${i % 3}`, `k${i}`));
    await s.update(keyOf('ns1', 'k1'), testObject('ns1', 'k1', { note: 'changed' }));
    await s.delete(keyOf('ns2', 'k2'));
    const got = await s.get(keyOf('ns1', 'k1'));
    const rev = await s.getRevision(keyOf('ns1', 'k1'));
    expect(String(rev.resourceVersion)).toBe(got.metadata.resourceVersion);
    expect(rev.decode()).toEqual(got);
    expect(rev.decodeShared!()).toEqual(got);
    expect(rev.decode()).not.toBe(rev.decode());
    await expectStorageError(s.getRevision(keyOf('ns2', 'k2')), 'NotFound');
    for (const prefix of [{ resource: 'events' }, { resource: 'events', namespace: 'ns2' }]) {
      let token: string | undefined;
      do {
        const opts = { limit: 4, continue: token };
        const [page, revs] = await Promise.all([s.list(prefix, opts), s.listRevisions(prefix, opts)]);
        expect(revs.items.map((r) => r.decode())).toEqual(page.items);
        expect(revs.items.map((r) => r.decodeShared!())).toEqual(page.items);
        expect(revs.items.map((r) => String(r.resourceVersion))).toEqual(
          page.items.map((o) => o.metadata.resourceVersion),
        );
        expect({ ...revs, items: [] }).toEqual({ ...page, items: [] });
        token = page.continue;
      } while (token);
    }
    await s.close();
  });

  it('compacts changes older than historyMaxAgeMs', async () => {
    let now = 1_000_000;
    const s = new MemoryStorage({ historyMaxAgeMs: 1_000, clock: () => now });
    const a = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    now += 600;
    const b = await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
    now += 600;
    const w = await s.watch({ resource: 'events' }, { resourceVersion: rvs(a) });
    expect((await new WatchReader(w).take(1, 1_000))[0].resourceVersion).toBe(b.metadata.resourceVersion);
    now += 600;
    await expectStorageError(s.watch({ resource: 'events' }, { resourceVersion: rvs(a) }), 'Expired');
    expect((await s.list({ resource: 'events' })).items).toHaveLength(2);
    await s.close();
  });

  it('forgets deleted keys once their deletion is compacted, and can recreate them', async () => {
    const s = new MemoryStorage({ historyLimit: 100 });
    for (let i = 0; i < 3_000; i++) await s.create(keyOf(`ns${i % 7}`, `k${i}`), testObject(`ns${i % 7}`, `k${i}`));
    const page = await s.list({ resource: 'events' }, { limit: 10 });
    expect(page.remainingItemCount).toBe(2_990);
    for (let i = 0; i < 3_000; i += 2) await s.delete(keyOf(`ns${i % 7}`, `k${i}`));
    await s.compact(await s.currentResourceVersion());
    for (let i = 0; i < 10; i += 2)
      await s.create(keyOf(`ns${i % 7}`, `k${i}`), testObject(`ns${i % 7}`, `k${i}`, { note: 'again' }));
    const all = await s.list({ resource: 'events' });
    expect(all.items).toHaveLength(1_505);
    expect(new Set(all.items.map((o) => o.metadata.name)).size).toBe(1_505);
    const ns0 = await s.list({ resource: 'events', namespace: 'ns0' });
    expect(ns0.items.every((o) => o.metadata.namespace === 'ns0')).toBe(true);
    await s.close();
  });

  it('counts remainingItemCount exactly when the history is shorter than the rest of the list', async () => {
    // 600 keys in 3 namespaces and a history of 150 changes: the count after a page comes from
    // the history (creations after the list, deletions not yet compacted), not from a walk.
    const s = new MemoryStorage({ historyLimit: 150 });
    const name = (i: number): string => `k${String(i).padStart(4, '0')}`;
    for (let i = 0; i < 600; i++) await s.create(keyOf(`ns${i % 3}`, name(i)), testObject(`ns${i % 3}`, name(i)));
    for (let i = 0; i < 600; i += 7) await s.delete(keyOf(`ns${i % 3}`, name(i)));
    const liveNow = async (namespace: string | undefined): Promise<string[]> =>
      (await s.list({ resource: 'events', ...(namespace === undefined ? {} : { namespace }) })).items.map(
        (o) => `${o.metadata.namespace}/${o.metadata.name}`,
      );
    for (const namespace of [undefined, 'ns1']) {
      const expected = await liveNow(namespace);
      const prefix = { resource: 'events', ...(namespace === undefined ? {} : { namespace }) };
      const first = await s.list(prefix, { limit: 25 });
      expect(first.remainingItemCount).toBe(expected.length - 25);
      // Writes after the first page: new keys inside and after the page, deletions, a recreation.
      await s.create(keyOf('ns1', 'k0000a'), testObject('ns1', 'k0000a'));
      await s.create(keyOf('ns1', 'k9999'), testObject('ns1', 'k9999'));
      await s.delete(keyOf('ns1', name(589)));
      await s.delete(keyOf('ns0', name(591)));
      await s.create(keyOf('ns1', name(7)), testObject('ns1', name(7)));
      const second = await s.list(prefix, { limit: 25, continue: first.continue! });
      expect(second.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(expected.slice(25, 50));
      expect(second.remainingItemCount).toBe(expected.length - 50);
      await s.delete(keyOf('ns1', 'k0000a'));
      await s.delete(keyOf('ns1', 'k9999'));
      await s.create(keyOf('ns1', name(589)), testObject('ns1', name(589)));
      await s.create(keyOf('ns0', name(591)), testObject('ns0', name(591)));
      await s.delete(keyOf('ns1', name(7)));
    }
    await s.close();
  });

  it('answers Unavailable after close', async () => {
    const s = new MemoryStorage();
    await s.ready();
    await s.close();
    await expectStorageError(s.ready(), 'Unavailable');
    await expectStorageError(s.get(keyOf('ns', 'a')), 'Unavailable');
    await expectStorageError(s.create(keyOf('ns', 'a'), testObject('ns', 'a')), 'Unavailable');
  });

  it('rejects a malformed resourceVersion', async () => {
    const s = new MemoryStorage();
    const e = await expectStorageError(s.list({ resource: 'events' }, { resourceVersion: 'abc' }), 'InvalidObject');
    expect(e.message).toBe('invalid resource version: "abc"');
    await s.close();
  });

  it('lets the event loop turn during a long list, which stays exact at its resourceVersion while writes compact history', async () => {
    const s = new MemoryStorage({ historyLimit: 10, watchBatchIntervalMs: 0 });
    const n = 5_000;
    for (let i = 0; i < n; i++)
      await s.create(keyOf('ns', `k${String(i).padStart(4, '0')}`), testObject('ns', `k${String(i).padStart(4, '0')}`));
    const before = (await s.list({ resource: 'events' })).items.map((o) => [
      o.metadata.name,
      o.metadata.resourceVersion,
    ]);
    let turns = 0;
    let writing = true;
    const writer = (async () => {
      // Writes between the list's slices: updates, deletions and creations, far more than the history keeps.
      for (let i = 0; writing; i++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turns++;
        for (let j = 0; j < 6; j++) {
          const w = i * 6 + j;
          const name = `k${String(n - 1 - ((w * 7) % n)).padStart(4, '0')}`;
          if (w % 3 === 0) await s.delete(keyOf('ns', name)).catch(() => undefined);
          else if (w % 3 === 1) await s.create(keyOf('ns', `new${w}`), testObject('ns', `new${w}`));
          else
            await s.guaranteedUpdate(keyOf('ns', name), (cur) => ({ ...cur!, note: `u${w}` }), {
              ignoreNotFound: true,
            });
        }
      }
    })();
    const listed = await s.list({ resource: 'events' });
    writing = false;
    await writer;
    expect(turns).toBeGreaterThan(2);
    expect(listed.items.map((o) => [o.metadata.name, o.metadata.resourceVersion])).toEqual(before);
    expect(listed.items.every((o) => (o as TestObject).note === 'hello')).toBe(true);
    // Once the list is done, history is trimmed back to its limit.
    await s.create(keyOf('ns', 'last'), testObject('ns', 'last'));
    await expectStorageError(s.watch({ resource: 'events' }, { resourceVersion: listed.resourceVersion }), 'Expired');
    await s.close();
  });

  it('counts remainingItemCount exactly at any retained resourceVersion, whatever was written since', async () => {
    const op = fc.record({
      kind: fc.constantFrom('create', 'create', 'delete', 'update'),
      ns: fc.constantFrom('a', 'b', 'c'),
      name: fc.integer({ min: 0, max: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 20, maxLength: 150 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 5, max: 400 }),
        async (ops, readBack, limit, historyLimit) => {
          const s = new MemoryStorage({ historyLimit, watchBatchIntervalMs: 0, tooLargeResourceVersionWaitMs: 0 });
          for (const { kind, ns, name } of ops) {
            const key = keyOf(ns, `k${name}`);
            if (kind === 'create') await s.create(key, testObject(ns, `k${name}`)).catch(() => undefined);
            else if (kind === 'delete') await s.delete(key).catch(() => undefined);
            else
              await s.guaranteedUpdate(key, (cur) => ({ ...cur!, note: String(Math.random()) })).catch(() => undefined);
          }
          const newest = Number(await s.currentResourceVersion());
          const at = String(Math.max(0, newest - readBack));
          for (const namespace of [undefined, 'a', 'b']) {
            const prefix = { resource: 'events', namespace };
            let all;
            try {
              all = await s.list(prefix, { resourceVersion: at, resourceVersionMatch: 'Exact' });
            } catch {
              continue; // compacted
            }
            let page = await s.list(prefix, { resourceVersion: at, limit });
            let seen = page.items.length;
            while (page.continue !== undefined) {
              expect(page.remainingItemCount).toBe(all.items.length - seen);
              page = await s.list(prefix, { continue: page.continue, limit });
              seen += page.items.length;
            }
            expect(seen).toBe(all.items.length);
          }
          await s.close();
        },
      ),
      { numRuns: 300 },
    );
  });
});
