import { describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '../index.js';
import { expectStorageError, keyOf, rvs, runStorageConformance, testObject, WatchReader } from '../testing/index.js';

runStorageConformance('MemoryStorage', async (tuning) => ({ storage: new MemoryStorage(tuning) }));

describe('MemoryStorage', () => {
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
    for (let i = 0; i < 10; i += 2) await s.create(keyOf(`ns${i % 7}`, `k${i}`), testObject(`ns${i % 7}`, `k${i}`, { note: 'again' }));
    const all = await s.list({ resource: 'events' });
    expect(all.items).toHaveLength(1_505);
    expect(new Set(all.items.map((o) => o.metadata.name)).size).toBe(1_505);
    const ns0 = await s.list({ resource: 'events', namespace: 'ns0' });
    expect(ns0.items.every((o) => o.metadata.namespace === 'ns0')).toBe(true);
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
});
