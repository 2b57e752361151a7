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
});
