import { describe, expect, it } from '@jest/globals';
import { call, expectCode, expectStatus } from './http.js';
import type { KubeObject } from './http.js';
import type { RestContext } from './rest-conformance.js';

/** DELETE of one object (preconditions, dryRun) and of a collection. */
export function describeDelete(ctx: RestContext): void {
  const { target } = ctx;
  const gr = ctx.qualifiedResource;
  const del = (url: string, body?: KubeObject): ReturnType<typeof call> =>
    call(url, { method: 'DELETE', ...(body ? { body } : {}) });
  const deleteOptions = (preconditions: KubeObject, extra: KubeObject = {}): KubeObject => ({
    kind: 'DeleteOptions',
    apiVersion: 'v1',
    preconditions,
    ...extra,
  });
  // rest.BeforeDelete checks the preconditions first, naming the storage type's Kind.
  const uidMismatch = (name: string, want: string, have: string): string =>
    `Operation cannot be fulfilled on ${ctx.qualifiedKind} "${name}": the UID in the precondition (${want}) does not match the UID in record (${have}). The object might have been deleted and then recreated`;
  const rvMismatch = (name: string, want: string, have: string): string =>
    `Operation cannot be fulfilled on ${ctx.qualifiedKind} "${name}": the ResourceVersion in the precondition (${want}) does not match the ResourceVersion in record (${have}). The object might have been modified`;
  const otherUid = '00000000-0000-4000-8000-00000000dead';

  describe('delete', () => {
    it('200 with a Success Status naming the object; GET is then 404', async () => {
      const ns = ctx.namespace();
      const obj = await ctx.create(ns, 'd');
      const r = await del(ctx.item(ns, 'd'));
      expectCode(r, 200);
      expect(r.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { ...ctx.details('d'), uid: obj['metadata'].uid },
      });
      expectStatus(await ctx.get(ns, 'd'), 404, 'NotFound', `${gr} "d" not found`);
    });

    it('404 NotFound for a missing object', async () => {
      const ns = ctx.namespace();
      const r = await del(ctx.item(ns, 'missing'));
      expectStatus(r, 404, 'NotFound', `${gr} "missing" not found`);
      expect(r.body.details).toEqual(ctx.details('missing'));
    });

    it('409 Conflict when the uid precondition fails; the object stays', async () => {
      const ns = ctx.namespace();
      const obj = await ctx.create(ns, 'd');
      const r = await del(ctx.item(ns, 'd'), deleteOptions({ uid: otherUid }));
      expectStatus(r, 409, 'Conflict', uidMismatch('d', otherUid, obj['metadata'].uid));
      expectCode(await ctx.get(ns, 'd'), 200);
    });

    it('409 Conflict when the resourceVersion precondition fails; the object stays', async () => {
      const ns = ctx.namespace();
      const obj = await ctx.create(ns, 'd');
      const r = await del(ctx.item(ns, 'd'), deleteOptions({ resourceVersion: '1' }));
      expectStatus(r, 409, 'Conflict', rvMismatch('d', '1', obj['metadata'].resourceVersion));
      expectCode(await ctx.get(ns, 'd'), 200);
    });

    it('deletes when both preconditions hold', async () => {
      const ns = ctx.namespace();
      const obj = await ctx.create(ns, 'd');
      const r = await del(
        ctx.item(ns, 'd'),
        deleteOptions({ uid: obj['metadata'].uid, resourceVersion: obj['metadata'].resourceVersion }),
      );
      expectCode(r, 200);
      expect((await ctx.get(ns, 'd')).status).toBe(404);
    });

    it('dryRun=All (query or body) answers 200 and keeps the object', async () => {
      const ns = ctx.namespace();
      const obj = await ctx.create(ns, 'd');
      const q = await del(ctx.item(ns, 'd', { dryRun: 'All' }));
      expectCode(q, 200);
      const b = await del(ctx.item(ns, 'd'), { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
      expectCode(b, 200);
      expect((await ctx.get(ns, 'd')).body).toEqual(obj);
    });

    it('a dry-run delete still checks preconditions (409)', async () => {
      const ns = ctx.namespace();
      const obj = await ctx.create(ns, 'd');
      const r = await del(ctx.item(ns, 'd', { dryRun: 'All' }), deleteOptions({ uid: otherUid }));
      expectStatus(r, 409, 'Conflict', uidMismatch('d', otherUid, obj['metadata'].uid));
      const rv = await del(ctx.item(ns, 'd', { dryRun: 'All' }), deleteOptions({ resourceVersion: '1' }));
      expectStatus(rv, 409, 'Conflict', rvMismatch('d', '1', obj['metadata'].resourceVersion));
      expectCode(await ctx.get(ns, 'd'), 200);
    });

    it('422 for an unsupported dryRun value', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'd');
      const r = await del(ctx.item(ns, 'd', { dryRun: 'Bogus' }));
      expectStatus(
        r,
        422,
        'Invalid',
        'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      );
      expectCode(await ctx.get(ns, 'd'), 200);
    });
  });

  describe('deletecollection', () => {
    it('deletes every object of the namespace and answers the list of deleted objects', async () => {
      const ns = ctx.namespace();
      const other = ctx.namespace();
      for (const n of ['a', 'b', 'c']) await ctx.create(ns, n);
      await ctx.create(other, 'a');
      const r = await del(ctx.collection(ns));
      expectCode(r, 200);
      expect(r.body.kind).toBe(target.listKind);
      expect(r.body.apiVersion).toBe(ctx.groupVersion);
      expect((r.body.items as KubeObject[]).map((i) => i['metadata'].name).sort()).toEqual(['a', 'b', 'c']);
      expect(await ctx.names(ctx.collection(ns))).toEqual([]);
      expect(await ctx.names(ctx.collection(other))).toEqual(['a']);
    });

    it('dryRun=All deletes nothing', async () => {
      const ns = ctx.namespace();
      for (const n of ['a', 'b']) await ctx.create(ns, n);
      const r = await del(ctx.collection(ns, { dryRun: 'All' }));
      expectCode(r, 200);
      expect((r.body.items as KubeObject[]).map((i) => i['metadata'].name).sort()).toEqual(['a', 'b']);
      expect(await ctx.names(ctx.collection(ns))).toEqual(['a', 'b']);
    });

    it('422 for an unsupported dryRun value, and nothing is deleted', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'a');
      const r = await del(ctx.collection(ns, { dryRun: 'Bogus' }));
      expectStatus(
        r,
        422,
        'Invalid',
        'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      );
      expect(await ctx.names(ctx.collection(ns))).toEqual(['a']);
    });
  });
}
