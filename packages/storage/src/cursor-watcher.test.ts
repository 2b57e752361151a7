import { describe, expect, it } from '@jest/globals';
import { MemoryStorage } from './index.js';
import type { StorageWatchEvent } from './index.js';
import { keyOf, testObject, type TestObject } from './testing/index.js';

const rvsOf = (batch: readonly StorageWatchEvent<TestObject>[]): string[] => batch.map((e) => e.resourceVersion);

describe('Watcher.consume (CursorWatcher)', () => {
  it('pushes batches in order and waits while the sink asks it to', async () => {
    const s = new MemoryStorage({ watchBatchIntervalMs: 0 });
    const w = await s.watch<TestObject>({ resource: 'events' });
    const seen: string[][] = [];
    let release: (() => void) | undefined;
    const done = w.consume((batch) => {
      seen.push(rvsOf(batch));
      if (seen.length === 1) return new Promise<void>((r) => (release = r));
      return undefined;
    });
    const a = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    expect(seen).toEqual([[a.metadata.resourceVersion]]);
    const b = await s.create(keyOf('ns', 'b'), testObject('ns', 'b'));
    const c = await s.create(keyOf('ns', 'c'), testObject('ns', 'c'));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toHaveLength(1);
    release!();
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([[a.metadata.resourceVersion], [b.metadata.resourceVersion, c.metadata.resourceVersion]]);
    w.stop();
    await expect(done).resolves.toBeUndefined();
    await s.close();
  });

  it('ends with the error a sink throws, and stops the watch', async () => {
    const s = new MemoryStorage({ watchBatchIntervalMs: 0 });
    const w = await s.watch<TestObject>({ resource: 'events' });
    const done = w.consume(() => {
      throw new Error('client gone');
    });
    await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    await expect(done).rejects.toThrow('client gone');
    await expect(w.consume(() => undefined)).rejects.toThrow('a watcher is consumed once');
    await s.close();
  });

  it('ends with Expired when the history it still needs was compacted while the sink waited', async () => {
    const s = new MemoryStorage({ watchBatchIntervalMs: 0, historyLimit: 5 });
    const w = await s.watch<TestObject>({ resource: 'events' });
    let release: (() => void) | undefined;
    const done = w.consume(() => new Promise<void>((r) => (release = r)));
    for (let i = 0; i < 20; i++) await s.create(keyOf('ns', `k${i}`), testObject('ns', `k${i}`));
    release!();
    await expect(done).rejects.toMatchObject({ code: 'Expired' });
    await s.close();
  });

  it('gives the watches woken together at one cursor, prefix and predicate one shared batch', async () => {
    const s = new MemoryStorage({ watchBatchIntervalMs: 0 });
    const watches = await Promise.all([1, 2, 3].map(() => s.watch<TestObject>({ resource: 'events' })));
    const seen: (readonly StorageWatchEvent<TestObject>[])[][] = watches.map(() => []);
    const done = watches.map((w, i) =>
      w.consume((batch) => {
        seen[i]!.push(batch);
      }),
    );
    const a = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
    expect(seen.map((bs) => bs.map(rvsOf))).toEqual([1, 2, 3].map(() => [[a.metadata.resourceVersion]]));
    expect(seen[1]![0]).toBe(seen[0]![0]);
    expect(seen[2]![0]).toBe(seen[0]![0]);
    expect(Object.isFrozen(seen[0]![0])).toBe(true);
    for (const w of watches) w.stop();
    await Promise.all(done);
    await s.close();
  });

  it('gives each watch woken together exactly its own events, whatever its cursor, prefix and predicate', async () => {
    // An interval long enough for the writes and watches below to fall in it on a loaded machine
    // (at 40 ms a CI run once delivered the second write before the test made the third).
    const s = new MemoryStorage({ watchBatchIntervalMs: 400 });
    const team = (t: string) => (o: TestObject) => o.reason === t;
    const red = team('red');
    const got = new Map<string, string[]>();
    const done: Promise<void>[] = [];
    const open = async (name: string, from: string, ns: string | undefined, predicate?: (o: TestObject) => boolean) => {
      const w = await s.watch<TestObject>(
        { resource: 'events', ...(ns === undefined ? {} : { namespace: ns }) },
        { resourceVersion: from, ...(predicate ? { predicate } : {}) },
      );
      got.set(name, []);
      done.push(
        w.consume((batch) => {
          for (const e of batch)
            got
              .get(name)!
              .push(`${e.type} ${e.type === 'BOOKMARK' ? '' : e.object.metadata.name} ${e.resourceVersion}`);
        }),
      );
      return w;
    };
    // A first write wakes at once; those within the next 400 ms are woken together.
    const first = await s.create(keyOf('a', 'seed'), testObject('a', 'seed', { reason: 'red' }));
    const rv0 = first.metadata.resourceVersion!;
    const watches = [
      await open('all', rv0, undefined),
      await open('ns-a', rv0, 'a'),
      await open('red-1', rv0, undefined, red),
      await open('ns-b', rv0, 'b'),
      await open('blue', rv0, undefined, team('blue')),
      await open('red-2', rv0, undefined, red),
      await open('ns-b-red', rv0, 'b', red),
    ];
    const c1 = await s.create(keyOf('a', 'x'), testObject('a', 'x', { reason: 'red' }));
    await new Promise((r) => setTimeout(r, 5));
    expect(got.get('all')).toEqual([`ADDED x ${c1.metadata.resourceVersion}`]);
    // Within the interval: these are woken together with the others, at other cursors.
    const c2 = await s.create(keyOf('b', 'y'), testObject('b', 'y', { reason: 'blue' }));
    const rv2 = c2.metadata.resourceVersion!;
    watches.push(await open('all-late', rv2, undefined), await open('red-late', rv2, undefined, red));
    const c3 = await s.update(keyOf('a', 'x'), { ...c1, reason: 'blue' });
    const c4 = await s.create(keyOf('b', 'z'), testObject('b', 'z', { reason: 'red' }));
    expect(got.get('all')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 600));
    const [r1, r3, r4] = [c1, c3, c4].map((o) => o.metadata.resourceVersion!);
    expect(Object.fromEntries(got)).toEqual({
      all: [`ADDED x ${r1}`, `ADDED y ${rv2}`, `MODIFIED x ${r3}`, `ADDED z ${r4}`],
      'ns-a': [`ADDED x ${r1}`, `MODIFIED x ${r3}`],
      'red-1': [`ADDED x ${r1}`, `DELETED x ${r3}`, `ADDED z ${r4}`],
      'ns-b': [`ADDED y ${rv2}`, `ADDED z ${r4}`],
      blue: [`ADDED y ${rv2}`, `ADDED x ${r3}`],
      'red-2': [`ADDED x ${r1}`, `DELETED x ${r3}`, `ADDED z ${r4}`],
      'ns-b-red': [`ADDED z ${r4}`],
      'all-late': [`MODIFIED x ${r3}`, `ADDED z ${r4}`],
      'red-late': [`DELETED x ${r3}`, `ADDED z ${r4}`],
    });
    for (const w of watches) w.stop();
    await Promise.all(done);
    await s.close();
  });

  it('catches up with older changes one batch per turn of the event loop, not all in the turn it starts', async () => {
    const s = new MemoryStorage({ watchBatchIntervalMs: 0 });
    const first = await s.create(keyOf('ns', 'k0'), testObject('ns', 'k0'));
    for (let i = 1; i < 3000; i++) await s.create(keyOf('ns', `k${i}`), testObject('ns', `k${i}`));
    let turn = 0;
    const ticker = setInterval(() => turn++, 0);
    const perTurn = new Map<number, number>();
    let seen = 0;
    const w = await s.watch<TestObject>({ resource: 'events' }, { resourceVersion: first.metadata.resourceVersion! });
    const done = w.consume((batch) => {
      perTurn.set(turn, (perTurn.get(turn) ?? 0) + batch.length);
      seen += batch.length;
    });
    const seenAtOnce = seen;
    for (let i = 0; i < 200 && seen < 2999; i++) await new Promise((r) => setTimeout(r, 5));
    clearInterval(ticker);
    // Nothing is read in the turn that opens the watch; then at most 256 changes per turn.
    expect(seenAtOnce).toBe(0);
    expect(seen).toBe(2999);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(256);
    expect(perTurn.size).toBeGreaterThanOrEqual(12);
    // Once caught up, a change is handed over in the turn that wakes the watch.
    await s.create(keyOf('ns', 'late'), testObject('ns', 'late'));
    expect(seen).toBe(3000);
    w.stop();
    await done;
    await s.close();
  });
});
