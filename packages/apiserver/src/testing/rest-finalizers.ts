import { describe, expect, it } from '@jest/globals';
import { call, expectCode, expectStatus } from './http.js';
import type { KubeObject } from './http.js';
import type { RestContext } from './rest-conformance.js';

const f1 = 'example.com/keep';
const f2 = 'example.com/other';

/**
 * Finalizers as `genericregistry.Store` handles them for a resource without graceful deletion:
 * a DELETE of an object with finalizers only marks it (deletionTimestamp, deletionGracePeriodSeconds 0)
 * and answers 200 with the object; the update that empties the finalizers deletes it.
 */
export function describeFinalizers(ctx: RestContext): void {
  const { target } = ctx;
  const gr = ctx.qualifiedResource;
  const withFinalizers =
    (finalizers: string[]) =>
    (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o['metadata'], finalizers } });

  /** Creates an object with finalizers and deletes it; returns the DELETE answer. */
  const pending = async (): Promise<{ ns: string; created: KubeObject; deleted: KubeObject }> => {
    const ns = ctx.namespace();
    const created = await ctx.create(ns, 'f', withFinalizers([f1]));
    const r = await call(ctx.item(ns, 'f'), { method: 'DELETE' });
    expectCode(r, 200);
    return { ns, created, deleted: r.body as KubeObject };
  };

  describe('finalizers and pending deletion', () => {
    it('DELETE of an object with finalizers answers 200 with the object, marked for deletion', async () => {
      const { ns, created, deleted } = await pending();
      expect(deleted.kind).toBe(target.kind);
      expect(deleted.apiVersion).toBe(ctx.groupVersion);
      expect(deleted['metadata'].uid).toBe(created['metadata'].uid);
      expect(deleted['metadata'].deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(deleted['metadata'].deletionGracePeriodSeconds).toBe(0);
      expect(deleted['metadata'].finalizers).toEqual([f1]);
      expect(Number(deleted['metadata'].resourceVersion)).toBeGreaterThan(Number(created['metadata'].resourceVersion));
      const g = await ctx.get(ns, 'f');
      expectCode(g, 200);
      expect(g.body).toEqual(deleted);
    });

    it('a second DELETE while pending keeps the object and its deletionTimestamp', async () => {
      const { ns, deleted } = await pending();
      const again = await call(ctx.item(ns, 'f'), { method: 'DELETE' });
      expectCode(again, 200);
      expect(again.body.kind).toBe(target.kind);
      expect(again.body.metadata.deletionTimestamp).toBe(deleted['metadata'].deletionTimestamp);
      const g = await ctx.get(ns, 'f');
      expectCode(g, 200);
      expect(g.body.metadata.deletionTimestamp).toBe(deleted['metadata'].deletionTimestamp);
      expect(g.body.metadata.resourceVersion).toBe(deleted['metadata'].resourceVersion);
    });

    it('an update cannot remove the deletionTimestamp', async () => {
      const { ns, deleted } = await pending();
      const body = structuredClone(deleted);
      delete body['metadata'].deletionTimestamp;
      delete body['metadata'].deletionGracePeriodSeconds;
      body['metadata'].labels = { touched: 'yes' };
      const r = await call(ctx.item(ns, 'f'), { method: 'PUT', body });
      expectCode(r, 200);
      expect(r.body.metadata.deletionTimestamp).toBe(deleted['metadata'].deletionTimestamp);
      expect(r.body.metadata.deletionGracePeriodSeconds).toBe(0);
    });

    it('no new finalizers can be added once deletion is pending (422)', async () => {
      const { ns, deleted } = await pending();
      const expected = `${ctx.qualifiedKind} "f" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"${f2}"}`;
      const put = await call(ctx.item(ns, 'f'), { method: 'PUT', body: withFinalizers([f1, f2])(deleted) });
      expectStatus(put, 422, 'Invalid', expected);
      const mp = await call(ctx.item(ns, 'f'), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: [f1, f2] } },
      });
      expectStatus(mp, 422, 'Invalid', expected);
      expect((await ctx.get(ns, 'f')).body.metadata.finalizers).toEqual([f1]);
    });

    it('the update that removes the last finalizer deletes the object', async () => {
      const { ns, deleted } = await pending();
      const r = await call(ctx.item(ns, 'f'), { method: 'PUT', body: withFinalizers([])(deleted) });
      expectCode(r, 200);
      expectStatus(await ctx.get(ns, 'f'), 404, 'NotFound', `${gr} "f" not found`);
    });

    it('a patch that removes the finalizers deletes the object', async () => {
      const { ns } = await pending();
      const r = await call(ctx.item(ns, 'f'), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: null } },
      });
      expectCode(r, 200);
      expect((await ctx.get(ns, 'f')).status).toBe(404);
    });

    it('removing finalizers from an object that is not being deleted keeps it', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'f', withFinalizers([f1]));
      const r = await call(ctx.item(ns, 'f'), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: null } },
      });
      expectCode(r, 200);
      expectCode(await ctx.get(ns, 'f'), 200);
    });

    it('a watch sees MODIFIED (deletionTimestamp set), then DELETED once the finalizers go', async () => {
      const ns = ctx.namespace();
      const created = await ctx.create(ns, 'f', withFinalizers([f1]));
      const w = await ctx.watch(
        ctx.collection(ns, { watch: 'true', resourceVersion: created['metadata'].resourceVersion }),
      );
      const d = await call(ctx.item(ns, 'f'), { method: 'DELETE' });
      expectCode(d, 200);
      const first = await w.expectNext();
      expect(first.type).toBe('MODIFIED');
      expect(first.object['metadata'].deletionTimestamp).toBeTruthy();
      const u = await call(ctx.item(ns, 'f'), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: null } },
      });
      expectCode(u, 200);
      const rest: string[] = [];
      for (;;) {
        const ev = await w.expectNext();
        if (ev.type === 'BOOKMARK') continue;
        rest.push(ev.type);
        if (ev.type === 'DELETED') {
          expect(ev.object['metadata'].name).toBe('f');
          break;
        }
      }
      // store.Update sees the last finalizer go (shouldDeleteDuringUpdate), writes nothing and
      // deletes the object (deleteWithoutFinalizers): the watch sees only DELETED.
      expect(rest).toEqual(['DELETED']);
    });

    it('deletecollection marks objects with finalizers and deletes the others', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'f', withFinalizers([f1]));
      await ctx.create(ns, 'plain');
      const r = await call(ctx.collection(ns), { method: 'DELETE' });
      expectCode(r, 200);
      expect(await ctx.names(ctx.collection(ns))).toEqual(['f']);
      const g = await ctx.get(ns, 'f');
      expect(g.body.metadata.deletionTimestamp).toBeTruthy();
    });

    it('a dry-run DELETE of an object with finalizers leaves it untouched', async () => {
      const ns = ctx.namespace();
      const created = await ctx.create(ns, 'f', withFinalizers([f1]));
      const r = await call(ctx.item(ns, 'f', { dryRun: 'All' }), { method: 'DELETE' });
      expectCode(r, 200);
      expect(r.body.metadata?.deletionTimestamp).toBeTruthy();
      expect((await ctx.get(ns, 'f')).body).toEqual(created);
    });
  });
}
