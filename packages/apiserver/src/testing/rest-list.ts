import { describe, expect, it } from '@jest/globals';
import { call, expectCode, expectStatus } from './http.js';
import type { KubeObject } from './http.js';
import type { RestContext } from './rest-conformance.js';

const listOptionsInvalid = 'ListOptions.meta.k8s.io "" is invalid: ';

/** list: shapes, all namespaces, pagination, resourceVersion and resourceVersionMatch rules. */
export function describeList(ctx: RestContext): void {
  const { target } = ctx;

  describe('list', () => {
    it('an empty collection is a list with items [] and a resourceVersion', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns));
      expectCode(r, 200);
      expect(r.body.kind).toBe(target.listKind);
      expect(r.body.apiVersion).toBe(ctx.groupVersion);
      expect(r.body.items).toEqual([]);
      expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
    });

    it('lists one namespace in name order; items equal what GET returns', async () => {
      const ns = ctx.namespace();
      for (const n of ['c', 'a', 'b']) await ctx.create(ns, n);
      await ctx.create(`${ns}-x`, 'z');
      const r = await call(ctx.collection(ns));
      expectCode(r, 200);
      const items = r.body.items as KubeObject[];
      expect(items.map((i) => i['metadata'].name)).toEqual(['a', 'b', 'c']);
      const a = (await ctx.get(ns, 'a')).body as KubeObject;
      expect({ ...items[0], kind: a['kind'], apiVersion: a['apiVersion'] }).toEqual(a);
      expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
        Math.max(...items.map((i) => Number(i['metadata'].resourceVersion))),
      );
    });

    it('lists across all namespaces', async () => {
      if (!target.namespaced) return;
      const ns1 = ctx.namespace();
      const ns2 = ctx.namespace();
      await ctx.create(ns1, 'one');
      await ctx.create(ns2, 'two');
      const r = await call(ctx.collection(undefined));
      expectCode(r, 200);
      const keys = (r.body.items as KubeObject[]).map((i) => `${i['metadata'].namespace}/${i['metadata'].name}`);
      expect(keys).toEqual(expect.arrayContaining([`${ns1}/one`, `${ns2}/two`]));
    });

    it('watch=false and watch=0 list', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'a');
      for (const v of ['false', '0', 'False']) {
        const r = await call(ctx.collection(ns, { watch: v }));
        expectCode(r, 200);
        expect(r.body.kind).toBe(target.listKind);
      }
    });

    it('limit and continue page through the list with remainingItemCount', async () => {
      const ns = ctx.namespace();
      for (const n of ['a', 'b', 'c', 'd', 'e']) await ctx.create(ns, n);
      const p1 = await call(ctx.collection(ns, { limit: 2 }));
      expectCode(p1, 200);
      expect((p1.body.items as KubeObject[]).map((i) => i['metadata'].name)).toEqual(['a', 'b']);
      expect(typeof p1.body.metadata.continue).toBe('string');
      expect(p1.body.metadata.remainingItemCount).toBe(3);
      // Writes between pages do not show: the pages are read at the first page's resourceVersion.
      await ctx.create(ns, 'bb');
      const p2 = await call(ctx.collection(ns, { limit: 2, continue: p1.body.metadata.continue }));
      expectCode(p2, 200);
      expect((p2.body.items as KubeObject[]).map((i) => i['metadata'].name)).toEqual(['c', 'd']);
      expect(p2.body.metadata.remainingItemCount).toBe(1);
      expect(p2.body.metadata.resourceVersion).toBe(p1.body.metadata.resourceVersion);
      const p3 = await call(ctx.collection(ns, { limit: 2, continue: p2.body.metadata.continue }));
      expectCode(p3, 200);
      expect((p3.body.items as KubeObject[]).map((i) => i['metadata'].name)).toEqual(['e']);
      expect(p3.body.metadata.continue).toBeUndefined();
      expect(p3.body.metadata.remainingItemCount).toBeUndefined();
    });

    it('a malformed continue token is a 400', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns, { limit: 1, continue: 'not-a-token' }));
      expectStatus(r, 400, 'BadRequest', /^invalid continue token: continue key is not valid/);
    });

    it('continue with a resourceVersion is a 400', async () => {
      const ns = ctx.namespace();
      for (const n of ['a', 'b']) await ctx.create(ns, n);
      const p1 = await call(ctx.collection(ns, { limit: 1 }));
      const r = await call(
        ctx.collection(ns, {
          limit: 1,
          continue: p1.body.metadata.continue,
          resourceVersion: p1.body.metadata.resourceVersion,
        }),
      );
      expectStatus(r, 400, 'BadRequest', 'specifying resource version is not allowed when using continue');
    });

    it('resourceVersionMatch=Exact lists the state at that resourceVersion', async () => {
      const ns = ctx.namespace();
      const a = await ctx.create(ns, 'a');
      await ctx.create(ns, 'b');
      const r = await call(
        ctx.collection(ns, { resourceVersion: a['metadata'].resourceVersion, resourceVersionMatch: 'Exact' }),
      );
      expectCode(r, 200);
      expect((r.body.items as KubeObject[]).map((i) => i['metadata'].name)).toEqual(['a']);
      expect(r.body.metadata.resourceVersion).toBe(a['metadata'].resourceVersion);
    });

    it('resourceVersion=0 and NotOlderThan list at least the given state', async () => {
      const ns = ctx.namespace();
      const a = await ctx.create(ns, 'a');
      expect(await ctx.names(ctx.collection(ns, { resourceVersion: '0' }))).toEqual(['a']);
      const r = await call(
        ctx.collection(ns, { resourceVersion: a['metadata'].resourceVersion, resourceVersionMatch: 'NotOlderThan' }),
      );
      expectCode(r, 200);
      expect((r.body.items as KubeObject[]).map((i) => i['metadata'].name)).toEqual(['a']);
      expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(a['metadata'].resourceVersion));
    });

    it('ListOptions validation: 422 Invalid with Kubernetes messages', async () => {
      const ns = ctx.namespace();
      const cases: [Record<string, string>, string][] = [
        [
          { resourceVersionMatch: 'Exact' },
          'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        ],
        [
          { resourceVersion: '5', resourceVersionMatch: 'Bogus' },
          'resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
        ],
        [
          { resourceVersion: '0', resourceVersionMatch: 'Exact' },
          'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ],
        [{ sendInitialEvents: 'true' }, 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
      ];
      for (const [params, message] of cases) {
        const r = await call(ctx.collection(ns, params));
        expectStatus(r, 422, 'Invalid', `${listOptionsInvalid}${message}`);
        expect(r.body.details).toMatchObject({ group: 'meta.k8s.io', kind: 'ListOptions' });
      }
    });

    it('a resourceVersion that is not a number is a 400', async () => {
      const ns = ctx.namespace();
      expectStatus(await call(ctx.collection(ns, { resourceVersion: 'abc' })), 400, 'BadRequest');
    });

    it('410 Expired for an exact list at a compacted resourceVersion, and for a continue token from before', async () => {
      if (!target.compact) return;
      const ns = ctx.namespace();
      const a = await ctx.create(ns, 'a');
      await ctx.create(ns, 'b');
      const p1 = await call(ctx.collection(ns, { limit: 1 }));
      for (const n of ['c', 'd']) await ctx.create(ns, n);
      await target.compact();
      const r = await call(
        ctx.collection(ns, { resourceVersion: a['metadata'].resourceVersion, resourceVersionMatch: 'Exact' }),
      );
      expectStatus(r, 410, 'Expired', 'The resourceVersion for the provided list is too old.');
      const c = await call(ctx.collection(ns, { limit: 1, continue: p1.body.metadata.continue }));
      expectStatus(
        c,
        410,
        'Expired',
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
      expect(typeof c.body.metadata.continue).toBe('string');
    });
  });
}
