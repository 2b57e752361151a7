import { describe, expect, it } from '@jest/globals';
import type { StorageWatchEvent } from '../interface.js';
import type { ConformanceContext } from './conformance.js';
import {
  brief,
  expectStorageError,
  keyOf,
  objectOf,
  rvOf,
  rvs,
  sleep,
  testObject,
  type TestObject,
  WatchReader,
} from './helpers.js';

type Ev = StorageWatchEvent<TestObject>;

/** watch: start points, initial events, predicates, bookmarks, Expired, ordering, stop. */
export function defineWatchConformance(ctx: ConformanceContext): void {
  const T = ctx.eventTimeoutMs;

  describe('watch', () => {
    it('from now delivers ADDED, MODIFIED and DELETED in order, for its resource only', async () => {
      const s = await ctx.open();
      await s.create(keyOf('ns', 'old'), testObject('ns', 'old'));
      const w = await s.watch<TestObject>({ resource: 'events' });
      const r = new WatchReader(w);
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      await s.create(keyOf('ns', 'a', 'leases'), testObject('ns', 'a'));
      const u = await s.update(keyOf('ns', 'a'), { ...c, note: 'v2' });
      const d = await s.delete(keyOf('ns', 'a'));
      const evs = await r.take(3, T);
      expect(evs.map(brief)).toEqual([`ADDED ns/a@${rvs(c)}`, `MODIFIED ns/a@${rvs(u)}`, `DELETED ns/a@${rvs(d)}`]);
      expect(objectOf(evs[0])).toEqual(c);
      expect(objectOf(evs[1])).toEqual(u);
      expect(objectOf(evs[2])).toEqual(d);
      expect(objectOf(evs[2]).note).toBe('v2');
      await r.expectQuiet(ctx.quietMs);
      w.stop();
    });

    it('from "0" or "" without initial events starts now', async () => {
      const s = await ctx.open();
      await s.create(keyOf('ns', 'old'), testObject('ns', 'old'));
      for (const resourceVersion of ['0', '']) {
        const w = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion });
        const r = new WatchReader(w);
        await r.expectQuiet(ctx.quietMs);
        await s.create(keyOf('ns', `new${resourceVersion}`), testObject('ns', `new${resourceVersion}`));
        expect((await r.take(1, T)).map((e) => objectOf(e).metadata.name)).toEqual([`new${resourceVersion}`]);
        w.stop();
      }
    });

    it('watches one namespace', async () => {
      const s = await ctx.open();
      const w = await s.watch<TestObject>({ resource: 'events', namespace: 'a' });
      const r = new WatchReader(w);
      for (const ns of ['ab', 'a', 'b', 'a-b', 'a'])
        await s.create(keyOf(ns, `x-${ns}-${Math.random()}`), testObject(ns, 'x'));
      expect((await r.take(2, T)).map((e) => objectOf(e).metadata.namespace)).toEqual(['a', 'a']);
      await r.expectQuiet(ctx.quietMs);
    });

    it('from a resourceVersion replays later history in order, then goes live', async () => {
      const s = await ctx.open();
      const c1 = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const c2 = await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
      const u1 = await s.update(keyOf('ns', 'a'), { ...c1, note: 'v2' });
      const d2 = await s.delete(keyOf('ns', 'b'));
      const w = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: rvs(c1) });
      const r = new WatchReader(w);
      expect((await r.take(3, T)).map(brief)).toEqual([
        `ADDED ns/b@${rvs(c2)}`,
        `MODIFIED ns/a@${rvs(u1)}`,
        `DELETED ns/b@${rvs(d2)}`,
      ]);
      const c3 = await s.create(keyOf('ns', 'c'), testObject('ns', 'c'));
      expect((await r.take(1, T)).map(brief)).toEqual([`ADDED ns/c@${rvs(c3)}`]);
      w.stop();
      const atEnd = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: rvs(c3) });
      await new WatchReader(atEnd).expectQuiet(ctx.quietMs);
      atEnd.stop();
    });

    it("from an empty store's list resourceVersion sees every later write, in order (an informer's first list and watch)", async () => {
      const s = await ctx.open();
      const listed = await s.list({ resource: 'events' });
      const b = await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
      const a = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const w = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: listed.resourceVersion });
      const r = new WatchReader(w);
      expect((await r.take(2, T)).map(brief)).toEqual([`ADDED ns/b@${rvs(b)}`, `ADDED ns/a@${rvs(a)}`]);
      await r.expectQuiet(ctx.quietMs);
      w.stop();
    });

    it('with sendInitialEvents sends ADDED for the current state, then the initial-events-end BOOKMARK, then changes', async () => {
      const s = await ctx.open();
      const a = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const b = await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
      await s.create(keyOf('other', 'c'), testObject('other', 'c'));
      const gone = await s.create(keyOf('ns', 'gone'), testObject('ns', 'gone'));
      await s.delete(keyOf('ns', 'gone'));
      const now = await s.currentResourceVersion();
      for (const resourceVersion of [undefined, '0', rvs(gone)]) {
        const w = await s.watch<TestObject>(
          { resource: 'events', namespace: 'ns' },
          { resourceVersion, sendInitialEvents: true, initialEventsEndBookmark: true, allowBookmarks: true },
        );
        const r = new WatchReader(w);
        const initial = await r.take(3, T, true);
        const added = initial.slice(0, 2);
        expect(added.map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
        expect(added.map(objectOf).sort((x, y) => (x.metadata.name! < y.metadata.name! ? -1 : 1))).toEqual([a, b]);
        expect(added.map((e) => e.resourceVersion).sort()).toEqual(
          [a.metadata.resourceVersion, b.metadata.resourceVersion].sort(),
        );
        expect(initial[2]).toEqual({ type: 'BOOKMARK', resourceVersion: now, initialEventsEnd: true });
        w.stop();
      }
      const w = await s.watch<TestObject>(
        { resource: 'events', namespace: 'ns' },
        { sendInitialEvents: true, predicate: (o) => o.metadata.name === 'b' },
      );
      const r = new WatchReader(w);
      expect((await r.take(1, T)).map(brief)).toEqual([`ADDED ns/b@${rvs(b)}`]);
      const u = await s.update(keyOf('ns', 'b'), { ...b, note: 'x' });
      expect((await r.take(1, T)).map(brief)).toEqual([`MODIFIED ns/b@${rvs(u)}`]);
      w.stop();
    });

    it('applies predicates with Kubernetes transitions: stops matching is DELETED, starts matching is ADDED', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a', { reason: 'Other' }));
      const w = await s.watch<TestObject>({ resource: 'events' }, { predicate: (o) => o.reason === 'Match' });
      const r = new WatchReader(w);
      const v1 = await s.update(keyOf('ns', 'a'), {
        ...c,
        note: 'still other',
        metadata: { ...c.metadata, resourceVersion: '' },
      });
      const v2 = await s.update(keyOf('ns', 'a'), { ...v1, reason: 'Match' });
      const v3 = await s.update(keyOf('ns', 'a'), { ...v2, note: 'matching change' });
      const v4 = await s.update(keyOf('ns', 'a'), { ...v3, reason: 'Other' });
      await s.update(keyOf('ns', 'a'), { ...v4, note: 'unseen' });
      const v6 = await s.create(keyOf('ns', 'b'), testObject('ns', 'b', { reason: 'Match' }));
      const v7 = await s.delete(keyOf('ns', 'b'));
      await s.delete(keyOf('ns', 'a'));
      const evs = await r.take(5, T);
      expect(evs.map(brief)).toEqual([
        `ADDED ns/a@${rvs(v2)}`,
        `MODIFIED ns/a@${rvs(v3)}`,
        `DELETED ns/a@${rvs(v4)}`,
        `ADDED ns/b@${rvs(v6)}`,
        `DELETED ns/b@${rvs(v7)}`,
      ]);
      expect(objectOf(evs[2])).toEqual({
        ...v3,
        metadata: { ...v3.metadata, resourceVersion: v4.metadata.resourceVersion },
      });
      await r.expectQuiet(ctx.quietMs);
    });

    it('sends BOOKMARKs with the current resourceVersion when allowed, and none otherwise', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      await s.create(keyOf('ns', 'b', 'leases'), testObject('ns', 'b'));
      const now = await s.currentResourceVersion();
      const w = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: rvs(c), allowBookmarks: true });
      const r = new WatchReader(w);
      const [b1, b2] = await r.take(2, T + ctx.bookmarkIntervalMs * 3, true);
      expect(b1).toEqual({ type: 'BOOKMARK', resourceVersion: now });
      expect(b2).toEqual({ type: 'BOOKMARK', resourceVersion: now });
      const d = await s.create(keyOf('ns', 'd'), testObject('ns', 'd'));
      let e = await r.next(T);
      while (e !== 'timeout' && e !== 'done' && e.type === 'BOOKMARK') e = await r.next(T);
      expect(e !== 'timeout' && e !== 'done' && brief(e)).toBe(`ADDED ns/d@${rvs(d)}`);
      w.stop();
      const quiet = await s.watch<TestObject>({ resource: 'events' });
      const qr = new WatchReader(quiet);
      expect(await qr.next(ctx.bookmarkIntervalMs * 4)).toBe('timeout');
      quiet.stop();
    });

    it('fails with Expired for a resourceVersion older than the retained history', async () => {
      const s = await ctx.open({ tooLargeResourceVersionWaitMs: ctx.refusalWaitMs });
      const c1 = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const c2 = await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
      await s.create(keyOf('ns', 'c'), testObject('ns', 'c'));
      await s.compact(rvs(c2));
      const e = await expectStorageError(s.watch({ resource: 'events' }, { resourceVersion: rvs(c1) }), 'Expired');
      expect(e.message).toBe(`too old resource version: ${rvs(c1)} (${rvs(c2)})`);
      const w = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: rvs(c2) });
      expect((await new WatchReader(w).take(1, T)).map((x) => objectOf(x).metadata.name)).toEqual(['c']);
      w.stop();
      const initial = await s.watch<TestObject>(
        { resource: 'events' },
        { resourceVersion: rvs(c1), sendInitialEvents: true },
      );
      expect(await new WatchReader(initial).take(3, T)).toHaveLength(3);
      initial.stop();
      await expectStorageError(
        s.watch({ resource: 'events' }, { resourceVersion: String(rvOf(c2) + 100) }),
        'TooLargeResourceVersion',
      );
    });

    it('ends a watch that falls behind the retained history with Expired', async () => {
      if (!ctx.supportsHistoryLimit) return;
      const s = await ctx.open({ historyLimit: 5 });
      const w = await s.watch<TestObject>({ resource: 'events' });
      const r = new WatchReader(w);
      for (let i = 0; i < 20; i++) await s.create(keyOf('ns', `x${i}`), testObject('ns', `x${i}`));
      const seen: string[] = [];
      let err: unknown;
      try {
        for (;;) {
          const e = await r.next(T);
          if (e === 'timeout' || e === 'done') break;
          seen.push(brief(e));
        }
      } catch (e) {
        err = e;
      }
      expect(seen.length).toBeLessThan(20);
      expect((err as { code?: string } | undefined)?.code).toBe('Expired');
      expect((err as Error).message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    });

    it('delivers every write of 20 concurrent writers in resourceVersion order to every watcher', async () => {
      const s = await ctx.open();
      const all = await s.watch<TestObject>({ resource: 'events' });
      const ns0 = await s.watch<TestObject>({ resource: 'events', namespace: 'ns0' });
      const writer = async (w: number): Promise<number[]> => {
        const rvs: number[] = [];
        for (let i = 0; i < 50; i++) {
          const key = keyOf(`ns${w % 2}`, `w${w}`);
          const o =
            i === 0
              ? await s.create(key, testObject(key.namespace, key.name, { count: 0 }))
              : await s.guaranteedUpdate<TestObject>(key, (cur) => ({ ...cur!, count: i }));
          rvs.push(rvOf(o));
        }
        return rvs;
      };
      const rvs = (await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)))).flat();
      expect(new Set(rvs).size).toBe(1000);
      const evs = await new WatchReader(all).take(1000, T * 5);
      const seen = evs.map((e) => rvOf(e.resourceVersion));
      expect(seen).toEqual([...rvs].sort((a, b) => a - b));
      const byWriter = new Map<string, number[]>();
      for (const e of evs) {
        const o = objectOf(e);
        byWriter.set(o.metadata.name!, [...(byWriter.get(o.metadata.name!) ?? []), o.count!]);
      }
      for (const counts of byWriter.values()) expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i));
      const half = await new WatchReader(ns0).take(500, T * 5);
      expect(half.every((e) => objectOf(e).metadata.namespace === 'ns0')).toBe(true);
      all.stop();
      ns0.stop();
    });

    it('hands out the same events in batches: writes made while the consumer was busy arrive together, in order', async () => {
      const s = await ctx.open();
      const from = await s.create(keyOf('ns', 'before'), testObject('ns', 'before'));
      const w = await s.watch<TestObject>(
        { resource: 'events' },
        { resourceVersion: rvs(from), sendInitialEvents: false },
      );
      const written: number[] = [];
      for (let i = 0; i < 30; i++) written.push(rvOf(await s.create(keyOf('ns', `b${i}`), testObject('ns', `b${i}`))));
      const it = w.batches()[Symbol.asyncIterator]();
      const seen: number[] = [];
      let batches = 0;
      const deadline = Date.now() + T;
      while (seen.length < 30 && Date.now() < deadline) {
        const next = await it.next();
        if (next.done === true) break;
        expect(next.value.length).toBeGreaterThan(0);
        batches++;
        for (const e of next.value) seen.push(rvOf(e.resourceVersion));
      }
      expect(seen).toEqual(written);
      expect(batches).toBeLessThan(30);
      const live = await s.create(keyOf('ns', 'live'), testObject('ns', 'live'));
      const next = await it.next();
      expect(next.done).toBe(false);
      expect((next.value as readonly Ev[]).map((e) => rvOf(e.resourceVersion))).toEqual([rvOf(live)]);
      w.stop();
      expect((await it.next()).done).toBe(true);
    });

    it('ends the iteration on stop(), on abort and on close', async () => {
      const s = await ctx.open();
      const w1 = await s.watch<TestObject>({ resource: 'events' });
      const r1 = new WatchReader(w1);
      expect(await r1.next(20)).toBe('timeout');
      w1.stop();
      expect(await r1.next(T)).toBe('done');

      const ac = new AbortController();
      const w2 = await s.watch<TestObject>({ resource: 'events' }, { signal: ac.signal });
      const r2 = new WatchReader(w2);
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      expect((await r2.take(1, T)).map((e) => e.type)).toEqual(['ADDED']);
      ac.abort();
      expect(await r2.next(T)).toBe('done');

      const aborted = new AbortController();
      aborted.abort();
      const w3 = await s.watch<TestObject>({ resource: 'events' }, { signal: aborted.signal, sendInitialEvents: true });
      expect(await new WatchReader(w3).next(T)).toBe('done');

      const w4 = await s.watch<TestObject>({ resource: 'events' });
      let n = 0;
      const loop = (async () => {
        for await (const _ of w4) n++;
      })();
      await sleep(10);
      await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
      await sleep(10);
      await s.close();
      await loop;
      expect(n).toBe(1);
    });

    it('hands out read-only events: mutating one throws and changes nothing stored or seen', async () => {
      const s = await ctx.open();
      const w1 = await s.watch<TestObject>({ resource: 'events' });
      const w2 = await s.watch<TestObject>({ resource: 'events' });
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const [e1] = await new WatchReader(w1).take(1, T);
      expect(() => {
        objectOf(e1!).note = 'mutated';
      }).toThrow(TypeError);
      expect(() => {
        objectOf(e1!).metadata.name = 'b';
      }).toThrow(TypeError);
      const [e2] = await new WatchReader(w2).take(1, T);
      expect(objectOf(e2!).note).toBe('hello');
      expect((await s.get<TestObject>(keyOf('ns', 'a'))).note).toBe('hello');
    });
  });
}
