import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@kevents/api';
import { isStorageError, MemoryStorage } from '@kevents/storage';
import type { ObjectKey } from '@kevents/storage';
import { DryRunnableStorage } from './dry-runnable-storage.js';
import type { UpdateStep } from './dry-runnable-storage.js';

const key: ObjectKey = { resource: 'widgets', namespace: 'ns', name: 'a' };
/** A stored object with a spec, as the registry's tests write them. */
type Widget = KubeObject & { spec?: string };

const widget = (spec: string): Widget => ({ metadata: { name: 'a', namespace: 'ns', uid: 'u1' }, spec });

async function storageCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isStorageError(err)) return err.code;
    throw err;
  }
  throw new Error('did not fail');
}

let storage: MemoryStorage;
let dry: DryRunnableStorage;
/** The resourceVersion of the store before any write. */
let unwritten: string;
beforeEach(async () => {
  storage = new MemoryStorage({ watchBatchIntervalMs: 0 });
  dry = new DryRunnableStorage(storage);
  unwritten = await storage.currentResourceVersion();
});
afterEach(async () => {
  await storage.close();
});

describe('DryRunnableStorage', () => {
  it('a dry-run create answers a copy and writes nothing; it fails as the storage would when the object exists', async () => {
    const obj = widget('x');
    const out = await dry.create(key, obj, true);
    expect(out).toEqual(obj);
    expect(out).not.toBe(obj);
    expect(await storage.currentResourceVersion()).toBe(unwritten);
    await dry.create(key, obj, false);
    expect(await storageCode(dry.create(key, obj, true))).toBe('AlreadyExists');
  });

  it('a dry-run delete reads the object and checks the preconditions, writing nothing', async () => {
    expect(await storageCode(dry.delete(key, {}, true))).toBe('NotFound');
    const stored = await dry.create(key, widget('x'), false);
    const rv = await storage.currentResourceVersion();
    expect(await storageCode(dry.delete(key, { preconditions: { uid: 'other' } }, true))).toBe('Conflict');
    expect(await storageCode(dry.delete(key, { preconditions: { resourceVersion: '99' } }, true))).toBe('Conflict');
    expect(await dry.delete(key, { preconditions: { uid: 'u1' } }, true)).toEqual(stored);
    expect(await storage.currentResourceVersion()).toBe(rv);
    await dry.delete(key, {}, false);
    expect(await storageCode(storage.get(key))).toBe('NotFound');
  });

  it('guaranteedUpdate answers what the update function returns: a write, or an end without a write', async () => {
    const set =
      (spec: string) =>
      (cur: Widget | undefined): UpdateStep<Widget, string> =>
        cur?.spec === spec ? { end: 'unchanged' } : { write: { ...cur!, spec } };
    expect(await storageCode(dry.guaranteedUpdate(key, set('y'), {}, true))).toBe('NotFound');
    const created = await dry.guaranteedUpdate(
      key,
      (cur) => ({ write: cur ?? widget('x') }),
      { ignoreNotFound: true },
      true,
    );
    expect(created).toEqual({ written: widget('x') });
    expect(await storage.currentResourceVersion()).toBe(unwritten);

    await dry.create(key, widget('x'), false);
    const rv = await storage.currentResourceVersion();
    const dryWrite = await dry.guaranteedUpdate(key, set('y'), {}, true);
    expect('written' in dryWrite && (dryWrite.written as Widget).spec).toBe('y');
    expect(await storage.currentResourceVersion()).toBe(rv);
    expect(await storageCode(dry.guaranteedUpdate(key, set('y'), { preconditions: { uid: 'other' } }, true))).toBe(
      'Conflict',
    );

    const written = await dry.guaranteedUpdate(key, set('y'), {}, false);
    expect('written' in written && written.written.metadata.resourceVersion).toBe(String(Number(rv) + 1));
    const rvAfter = await storage.currentResourceVersion();
    expect(await dry.guaranteedUpdate(key, set('y'), {}, false)).toEqual({ ended: 'unchanged' });
    expect(await dry.guaranteedUpdate(key, set('y'), {}, true)).toEqual({ ended: 'unchanged' });
    expect(await storage.currentResourceVersion()).toBe(rvAfter);
  });

  it('errors the update function throws end the update and reach the caller', async () => {
    await dry.create(key, widget('x'), false);
    const boom = (): UpdateStep<KubeObject, never> => {
      throw new Error('boom');
    };
    await expect(dry.guaranteedUpdate(key, boom, {}, false)).rejects.toThrow('boom');
    await expect(dry.guaranteedUpdate(key, boom, {}, true)).rejects.toThrow('boom');
  });

  it('a dry run of a missing object with ignoreNotFound gives the function nothing, whatever the preconditions', async () => {
    const seen: unknown[] = [];
    const create = (current: KubeObject | undefined): UpdateStep<KubeObject, never> => {
      seen.push(current);
      return { write: widget('new') };
    };
    const out = await dry.guaranteedUpdate(key, create, { ignoreNotFound: true, preconditions: { uid: 'u9' } }, true);
    expect(out).toEqual({ written: widget('new') });
    expect(seen).toEqual([undefined]);
  });

  it('a dry run passes on a storage failure other than NotFound', async () => {
    await storage.close();
    expect(await storageCode(dry.create(key, widget('x'), true))).toBe('Unavailable');
  });
});
