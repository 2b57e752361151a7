import { describe, expect, it } from '@jest/globals';
import { optimisticLockErrorMsg } from '../errors.js';
import type { ConformanceContext } from './conformance.js';
import { expectStorageError, keyOf, rvOf, rvs, testObject, uidOf, type TestObject } from './helpers.js';

/** get, create, update, delete, preconditions, guaranteedUpdate, resourceVersions, copies. */
export function defineCrudConformance(ctx: ConformanceContext): void {
  describe('resourceVersion', () => {
    it('starts at "1", as etcd does, and rises strictly with every write, across resources and namespaces', async () => {
      const s = await ctx.open();
      expect(await s.currentResourceVersion()).toBe('1');
      const rvs: number[] = [];
      rvs.push(rvOf(await s.create(keyOf('a', 'x'), testObject('a', 'x'))));
      rvs.push(rvOf(await s.create(keyOf('b', 'x'), testObject('b', 'x'))));
      rvs.push(rvOf(await s.create(keyOf('a', 'x', 'leases'), testObject('a', 'x'))));
      rvs.push(rvOf(await s.update(keyOf('a', 'x'), testObject('a', 'x', { note: 'changed' }))));
      rvs.push(rvOf(await s.guaranteedUpdate<TestObject>(keyOf('b', 'x'), (o) => ({ ...o!, count: 2 }))));
      rvs.push(rvOf(await s.delete(keyOf('a', 'x', 'leases'))));
      rvs.push(rvOf(await s.create(keyOf('a', 'x', 'leases'), testObject('a', 'x'))));
      for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBeGreaterThan(rvs[i - 1]);
      expect(rvs[0]).toBeGreaterThan(1);
      expect(await s.currentResourceVersion()).toBe(String(rvs[rvs.length - 1]));
    });

    it('gives 20 parallel writers x 50 writes 1,000 distinct resourceVersions', async () => {
      const s = await ctx.open();
      const writer = async (w: number): Promise<number[]> => {
        const out: number[] = [];
        for (let i = 0; i < 50; i++)
          out.push(rvOf(await s.create(keyOf(`ns${w % 3}`, `w${w}-${i}`), testObject(`ns${w % 3}`, `w${w}-${i}`))));
        return out;
      };
      const all = (await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)))).flat();
      expect(new Set(all).size).toBe(1000);
      expect(rvOf(await s.currentResourceVersion())).toBe(Math.max(...all));
      expect((await s.list({ resource: 'events' })).items).toHaveLength(1000);
    });
  });

  describe('create and get', () => {
    it('stores the object as given, setting only metadata.resourceVersion', async () => {
      const s = await ctx.open();
      const obj = testObject('ns', 'a', { nested: { list: [1, 2, 3], map: { k: 'v' } }, count: 0 });
      obj.metadata.labels = { app: 'x' };
      obj.metadata.resourceVersion = '12345';
      const created = await s.create(keyOf('ns', 'a'), obj);
      expect(created.metadata.resourceVersion).not.toBe('12345');
      const { resourceVersion: _rv, ...meta } = created.metadata;
      expect({ ...created, metadata: meta }).toEqual({
        ...obj,
        metadata: { ...obj.metadata, resourceVersion: undefined },
      });
      expect(await s.get(keyOf('ns', 'a'))).toEqual(created);
      expect(await s.get(keyOf('ns', 'a'), { resourceVersion: '0' })).toEqual(created);
      expect(await s.get(keyOf('ns', 'a'), { resourceVersion: rvs(created) })).toEqual(created);
    });

    it('rejects a second create with AlreadyExists and allows one after delete', async () => {
      const s = await ctx.open();
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      await expectStorageError(s.create(keyOf('ns', 'a'), testObject('ns', 'a')), 'AlreadyExists');
      await s.create(keyOf('other', 'a'), testObject('other', 'a'));
      await s.create(keyOf('ns', 'a', 'leases'), testObject('ns', 'a'));
      await s.delete(keyOf('ns', 'a'));
      const again = await s.create(keyOf('ns', 'a'), testObject('ns', 'a', { note: 'again' }));
      expect((await s.get<TestObject>(keyOf('ns', 'a'))).note).toBe('again');
      expect(again.note).toBe('again');
    });

    it('answers NotFound for a missing key, namespace or resource', async () => {
      const s = await ctx.open();
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const e = await expectStorageError(s.get(keyOf('ns', 'b')), 'NotFound');
      expect(e.key).toEqual(keyOf('ns', 'b'));
      await expectStorageError(s.get(keyOf('other', 'a')), 'NotFound');
      await expectStorageError(s.get(keyOf('ns', 'a', 'leases')), 'NotFound');
    });

    it('fails a get for a future resourceVersion with TooLargeResourceVersion', async () => {
      const s = await ctx.open({ tooLargeResourceVersionWaitMs: ctx.refusalWaitMs });
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const e = await expectStorageError(
        s.get(keyOf('ns', 'a'), { resourceVersion: String(rvOf(c) + 100) }),
        'TooLargeResourceVersion',
      );
      expect(e.message).toBe(`Too large resource version: ${rvOf(c) + 100}, current: ${rvOf(c)}`);
    });
  });

  describe('update', () => {
    it('replaces the object with a new resourceVersion', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const u = await s.update(keyOf('ns', 'a'), { ...c, note: 'new' });
      expect(rvOf(u)).toBeGreaterThan(rvOf(c));
      expect(u.note).toBe('new');
      expect(await s.get(keyOf('ns', 'a'))).toEqual(u);
    });

    it('answers NotFound for a missing object', async () => {
      const s = await ctx.open();
      await expectStorageError(s.update(keyOf('ns', 'a'), testObject('ns', 'a')), 'NotFound');
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      await s.delete(keyOf('ns', 'a'));
      await expectStorageError(s.update(keyOf('ns', 'a'), testObject('ns', 'a')), 'NotFound');
    });

    it('checks metadata.resourceVersion when set (Conflict), and ignores it when empty', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const u = await s.update(keyOf('ns', 'a'), { ...c, note: 'v2' });
      const e = await expectStorageError(s.update(keyOf('ns', 'a'), { ...c, note: 'stale' }), 'Conflict');
      expect(e.message).toBe(optimisticLockErrorMsg);
      expect((await s.get<TestObject>(keyOf('ns', 'a'))).note).toBe('v2');
      const u3 = await s.update(keyOf('ns', 'a'), { ...u, note: 'v3' });
      expect(u3.note).toBe('v3');
      const u4 = await s.update(keyOf('ns', 'a'), {
        ...u3,
        note: 'v4',
        metadata: { ...u3.metadata, resourceVersion: '' },
      });
      expect(u4.note).toBe('v4');
    });

    it('checks uid and resourceVersion preconditions with the Kubernetes messages', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const uid = uidOf(c);
      let e = await expectStorageError(
        s.update(keyOf('ns', 'a'), { ...c, note: 'x' }, { preconditions: { uid: 'other' } }),
        'Conflict',
      );
      expect(e.message).toBe(`Precondition failed: UID in precondition: other, UID in object meta: ${uid}`);
      e = await expectStorageError(
        s.update(
          keyOf('ns', 'a'),
          { ...c, note: 'x' },
          { preconditions: { resourceVersion: '1' + c.metadata.resourceVersion } },
        ),
        'Conflict',
      );
      expect(e.message).toBe(
        `Precondition failed: ResourceVersion in precondition: 1${c.metadata.resourceVersion}, ResourceVersion in object meta: ${c.metadata.resourceVersion}`,
      );
      expect(await s.get(keyOf('ns', 'a'))).toEqual(c);
      const u = await s.update(
        keyOf('ns', 'a'),
        { ...c, note: 'ok' },
        { preconditions: { uid, resourceVersion: rvs(c) } },
      );
      expect(u.note).toBe('ok');
    });

    it('keeps the resourceVersion of a no-op update (identical object), as Kubernetes does', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const same = await s.update(keyOf('ns', 'a'), c);
      expect(same).toEqual(c);
      expect(await s.currentResourceVersion()).toBe(c.metadata.resourceVersion);
    });
  });

  describe('delete', () => {
    it('returns the last state with the deletion resourceVersion and removes the object', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a', { note: 'last' }));
      const d = await s.delete<TestObject>(keyOf('ns', 'a'));
      expect(rvOf(d)).toBeGreaterThan(rvOf(c));
      expect(d.note).toBe('last');
      expect(d.metadata.uid).toBe(c.metadata.uid);
      expect(await s.currentResourceVersion()).toBe(d.metadata.resourceVersion);
      await expectStorageError(s.get(keyOf('ns', 'a')), 'NotFound');
      await expectStorageError(s.delete(keyOf('ns', 'a')), 'NotFound');
      await expectStorageError(s.delete(keyOf('ns', 'never')), 'NotFound');
    });

    it('checks uid and resourceVersion preconditions', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const e = await expectStorageError(s.delete(keyOf('ns', 'a'), { preconditions: { uid: 'nope' } }), 'Conflict');
      expect(e.message).toBe(`Precondition failed: UID in precondition: nope, UID in object meta: ${uidOf(c)}`);
      await expectStorageError(
        s.delete(keyOf('ns', 'a'), { preconditions: { resourceVersion: '999999' } }),
        'Conflict',
      );
      expect(await s.get(keyOf('ns', 'a'))).toEqual(c);
      await s.delete(keyOf('ns', 'a'), { preconditions: { uid: uidOf(c), resourceVersion: rvs(c) } });
      await expectStorageError(s.get(keyOf('ns', 'a')), 'NotFound');
    });
  });

  describe('guaranteedUpdate', () => {
    it('applies the update function to the current object', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a', { count: 1 }));
      const u = await s.guaranteedUpdate<TestObject>(keyOf('ns', 'a'), (cur) => {
        expect(cur).toEqual(c);
        return { ...cur!, count: cur!.count! + 1 };
      });
      expect(u.count).toBe(2);
      expect(rvOf(u)).toBeGreaterThan(rvOf(c));
      expect(await s.get(keyOf('ns', 'a'))).toEqual(u);
    });

    it('answers NotFound, or creates from undefined with ignoreNotFound', async () => {
      const s = await ctx.open();
      await expectStorageError(
        s.guaranteedUpdate(keyOf('ns', 'a'), (cur) => cur!),
        'NotFound',
      );
      const created = await s.guaranteedUpdate<TestObject>(
        keyOf('ns', 'a'),
        (cur) => {
          expect(cur).toBeUndefined();
          return testObject('ns', 'a', { count: 7 });
        },
        { ignoreNotFound: true },
      );
      expect(created.count).toBe(7);
      expect(await s.get(keyOf('ns', 'a'))).toEqual(created);
    });

    it('loses no update among 20 concurrent read-modify-writes', async () => {
      const s = await ctx.open();
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a', { count: 0 }));
      let calls = 0;
      await Promise.all(
        Array.from({ length: 20 }, () =>
          s.guaranteedUpdate<TestObject>(keyOf('ns', 'a'), async (cur) => {
            calls++;
            await new Promise((r) => setImmediate(r));
            return { ...cur!, count: cur!.count! + 1 };
          }),
        ),
      );
      expect((await s.get<TestObject>(keyOf('ns', 'a'))).count).toBe(20);
      expect(calls).toBeGreaterThan(20);
    });

    it('retries when the object changed between read and write', async () => {
      const s = await ctx.open();
      await s.create(keyOf('ns', 'a'), testObject('ns', 'a', { count: 0, note: 'x' }));
      let calls = 0;
      const u = await s.guaranteedUpdate<TestObject>(keyOf('ns', 'a'), async (cur) => {
        calls++;
        if (calls === 1)
          await s.update(keyOf('ns', 'a'), {
            ...cur!,
            note: 'concurrent',
            metadata: { ...cur!.metadata, resourceVersion: '' },
          });
        return { ...cur!, count: cur!.count! + 1 };
      });
      expect(calls).toBe(2);
      expect(u.note).toBe('concurrent');
      expect(u.count).toBe(1);
    });

    it('rethrows errors of the update function and checks preconditions, writing nothing', async () => {
      const s = await ctx.open();
      const c = await s.create(keyOf('ns', 'a'), testObject('ns', 'a'));
      const boom = new Error('boom');
      await expect(
        s.guaranteedUpdate(keyOf('ns', 'a'), () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      await expect(s.guaranteedUpdate(keyOf('ns', 'a'), () => Promise.reject(boom))).rejects.toBe(boom);
      await expectStorageError(
        s.guaranteedUpdate(keyOf('ns', 'a'), (cur) => cur!, { preconditions: { uid: 'other' } }),
        'Conflict',
      );
      await expectStorageError(
        s.guaranteedUpdate(keyOf('ns', 'a'), (cur) => cur!, { preconditions: { resourceVersion: '999999' } }),
        'Conflict',
      );
      expect(await s.currentResourceVersion()).toBe(c.metadata.resourceVersion);
    });
  });

  describe('copies', () => {
    it('never lets a caller mutate stored state', async () => {
      const s = await ctx.open();
      const input = testObject('ns', 'a', { nested: { list: [1], map: { a: 'b' } } });
      const created = await s.create(keyOf('ns', 'a'), input);
      input.nested!.list.push(2);
      input.metadata.name = 'mutated';
      created.nested!.map.a = 'mutated';
      const got = await s.get<TestObject>(keyOf('ns', 'a'));
      expect(got.nested).toEqual({ list: [1], map: { a: 'b' } });
      expect(got.metadata.name).toBe('a');
      got.nested!.list.push(3);
      const listed = (await s.list<TestObject>({ resource: 'events' })).items;
      expect(listed[0].nested!.list).toEqual([1]);
      listed[0].note = 'mutated';
      await s.guaranteedUpdate<TestObject>(keyOf('ns', 'a'), (cur) => {
        cur!.nested!.list.push(4);
        return cur!;
      });
      const updated = await s.get<TestObject>(keyOf('ns', 'a'));
      expect(updated.nested!.list).toEqual([1, 4]);
      expect(updated.note).toBe('hello');
    });
  });
}
