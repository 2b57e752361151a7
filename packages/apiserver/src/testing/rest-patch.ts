import { describe, expect, it } from '@jest/globals';
import { call, expectCode, expectStatus } from './http.js';
import type { HttpAnswer, KubeObject } from './http.js';
import type { RestContext } from './rest-conformance.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';

const fA = 'example.com/a';
const fB = 'example.com/b';
const fC = 'example.com/c';

/** PATCH: JSON patch, merge patch, strategic merge patch with its directives and metadata list strategies. */
export function describePatch(ctx: RestContext): void {
  const gr = ctx.qualifiedResource;

  const patch = (ns: string, name: string, type: string, body: unknown, params = {}): Promise<HttpAnswer> =>
    call(ctx.item(ns, name, params), { method: 'PATCH', contentType: type, body });

  const withMeta =
    (meta: KubeObject) =>
    (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o['metadata'], ...meta } });

  /** Creates an object with this metadata, then clears its finalizers in `cleanup` (so it can go). */
  const setup = async (meta: KubeObject = {}): Promise<{ ns: string; obj: KubeObject }> => {
    const ns = ctx.namespace();
    return { ns, obj: await ctx.create(ns, 'p', withMeta(meta)) };
  };

  describe('patch', () => {
    it('JSON patch (RFC 6902): 200 with the patched object and a new resourceVersion', async () => {
      const { ns, obj } = await setup({ labels: { a: '1' } });
      const r = await patch(ns, 'p', JSON_PATCH, [
        { op: 'add', path: '/metadata/labels/b', value: '2' },
        { op: 'remove', path: '/metadata/labels/a' },
      ]);
      expectCode(r, 200);
      expect(r.body.metadata.labels).toEqual({ b: '2' });
      expect(r.body.metadata.resourceVersion).not.toBe(obj['metadata'].resourceVersion);
      expect((await ctx.get(ns, 'p')).body).toEqual(r.body);
    });

    it('JSON patch: a failing test operation is a 422 and changes nothing', async () => {
      const { ns, obj } = await setup({ labels: { a: '1' } });
      const r = await patch(ns, 'p', JSON_PATCH, [
        { op: 'test', path: '/metadata/labels/a', value: 'nope' },
        { op: 'add', path: '/metadata/labels/b', value: '2' },
      ]);
      expectStatus(r, 422, 'Invalid', /^the server rejected our request due to an error in our request/);
      expect((await ctx.get(ns, 'p')).body).toEqual(obj);
    });

    it('merge patch (RFC 7386): maps merge, null deletes', async () => {
      const { ns } = await setup({ labels: { a: '1', b: '2' } });
      const r = await patch(ns, 'p', MERGE, { metadata: { labels: { a: null, c: '3' } } });
      expectCode(r, 200);
      expect(r.body.metadata.labels).toEqual({ b: '2', c: '3' });
    });

    it('merge patch replaces lists, finalizers included', async () => {
      const { ns } = await setup({ finalizers: [fA, fB] });
      const r = await patch(ns, 'p', MERGE, { metadata: { finalizers: [fC] } });
      expectCode(r, 200);
      expect(r.body.metadata.finalizers).toEqual([fC]);
      expectCode(await patch(ns, 'p', MERGE, { metadata: { finalizers: null } }), 200);
    });

    it('404 NotFound for a missing object', async () => {
      const ns = ctx.namespace();
      const r = await patch(ns, 'missing', MERGE, { metadata: { labels: { a: '1' } } });
      expectStatus(r, 404, 'NotFound', `${gr} "missing" not found`);
    });

    it('415 UnsupportedMediaType for another content type', async () => {
      const { ns } = await setup();
      const r = await patch(ns, 'p', 'text/plain', '{}');
      expectStatus(r, 415, 'UnsupportedMediaType');
      expect(r.body.message).toMatch(
        /^the body of the request was in an unknown format - accepted media types include: /,
      );
      expect(r.body.message).toContain(JSON_PATCH);
      expect(r.body.message).toContain(MERGE);
      expect(r.body.message).toContain(SMP);
    });

    it('409 Conflict when the patch carries a stale resourceVersion', async () => {
      const { ns, obj } = await setup();
      expectCode(await patch(ns, 'p', MERGE, { metadata: { labels: { bump: '1' } } }), 200);
      const r = await patch(ns, 'p', MERGE, {
        metadata: { resourceVersion: obj['metadata'].resourceVersion, labels: { x: '1' } },
      });
      expectStatus(
        r,
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${gr} "p": the object has been modified; please apply your changes to the latest version and try again`,
      );
    });

    it('a patch that renames the object is a 400', async () => {
      const { ns } = await setup();
      const r = await patch(ns, 'p', MERGE, { metadata: { name: 'other' } });
      expectStatus(r, 400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (p)');
    });

    it('a no-op patch keeps the resourceVersion', async () => {
      const { ns, obj } = await setup({ labels: { a: '1' } });
      const r = await patch(ns, 'p', MERGE, { metadata: { labels: { a: '1' } } });
      expectCode(r, 200);
      expect(r.body.metadata.resourceVersion).toBe(obj['metadata'].resourceVersion);
    });

    it('dryRun=All answers the patched object and stores nothing', async () => {
      const { ns, obj } = await setup();
      const r = await patch(ns, 'p', MERGE, { metadata: { labels: { dry: '1' } } }, { dryRun: 'All' });
      expectCode(r, 200);
      expect(r.body.metadata.labels).toEqual({ dry: '1' });
      expect((await ctx.get(ns, 'p')).body).toEqual(obj);
    });

    it('422 for an unsupported dryRun value', async () => {
      const { ns } = await setup();
      const r = await patch(ns, 'p', MERGE, { metadata: { labels: { dry: '1' } } }, { dryRun: 'Bogus' });
      expectStatus(
        r,
        422,
        'Invalid',
        'PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      );
    });

    it('a patch that makes the object invalid is a 422', async () => {
      const { ns, obj } = await setup();
      const r = await patch(ns, 'p', MERGE, { metadata: { labels: { 'bad key!': 'x' } } });
      expectStatus(r, 422, 'Invalid');
      expect(r.body.message.startsWith(`${ctx.qualifiedKind} "p" is invalid: `)).toBe(true);
      expect((await ctx.get(ns, 'p')).body).toEqual(obj);
    });
  });

  describe('strategic merge patch', () => {
    it('merges maps and deletes keys set to null', async () => {
      const { ns } = await setup({ labels: { a: '1', b: '2' } });
      const r = await patch(ns, 'p', SMP, { metadata: { labels: { a: null, c: '3' } } });
      expectCode(r, 200);
      expect(r.body.metadata.labels).toEqual({ b: '2', c: '3' });
    });

    it('$patch: replace replaces a map', async () => {
      const { ns } = await setup({ labels: { a: '1', b: '2' } });
      const r = await patch(ns, 'p', SMP, { metadata: { labels: { $patch: 'replace', c: '3' } } });
      expectCode(r, 200);
      expect(r.body.metadata.labels).toEqual({ c: '3' });
    });

    it('$patch: delete removes a map', async () => {
      const { ns } = await setup({ labels: { a: '1' }, annotations: { keep: 'yes' } });
      const r = await patch(ns, 'p', SMP, { metadata: { labels: { $patch: 'delete' } } });
      expectCode(r, 200);
      expect(r.body.metadata.labels).toBeUndefined();
      expect(r.body.metadata.annotations).toEqual({ keep: 'yes' });
    });

    it('$patch: merge in a map is refused, as handleDirectiveInMergeMap refuses it (a 500 on kube-apiserver)', async () => {
      const { ns } = await setup({ labels: { a: '1' } });
      const r = await patch(ns, 'p', SMP, { metadata: { labels: { $patch: 'merge', b: '2' } } });
      expectCode(r, 400);
      expect(r.body.message).toBe('unknown patch type: merge in map: map[$patch:merge b:2]');
      // Without the directive a map merges.
      expectCode(await patch(ns, 'p', SMP, { metadata: { labels: { b: '2' } } }), 200);
    });

    it('$retainKeys keeps only the listed keys', async () => {
      const { ns } = await setup({ labels: { a: '1', b: '2' } });
      const r = await patch(ns, 'p', SMP, { metadata: { labels: { $retainKeys: ['a', 'c'], c: '3' } } });
      expectCode(r, 200);
      expect(r.body.metadata.labels).toEqual({ a: '1', c: '3' });
    });

    it('metadata.finalizers merge as a set (patchStrategy merge)', async () => {
      const { ns } = await setup({ finalizers: [fA, fB] });
      const r = await patch(ns, 'p', SMP, { metadata: { finalizers: [fB, fC] } });
      expectCode(r, 200);
      expect(r.body.metadata.finalizers).toEqual([fA, fB, fC]);
      expectCode(await patch(ns, 'p', MERGE, { metadata: { finalizers: null } }), 200);
    });

    it('$deleteFromPrimitiveList/finalizers removes the listed values', async () => {
      const { ns } = await setup({ finalizers: [fA, fB, fC] });
      const r = await patch(ns, 'p', SMP, { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [fA, fC] } });
      expectCode(r, 200);
      expect(r.body.metadata.finalizers).toEqual([fB]);
      expectCode(await patch(ns, 'p', MERGE, { metadata: { finalizers: null } }), 200);
    });

    it('$setElementOrder/finalizers orders the merged list', async () => {
      const { ns } = await setup({ finalizers: [fA, fB] });
      const r = await patch(ns, 'p', SMP, {
        metadata: { [`$setElementOrder/finalizers`]: [fC, fB, fA], finalizers: [fC] },
      });
      expectCode(r, 200);
      expect(r.body.metadata.finalizers).toEqual([fC, fB, fA]);
      expectCode(await patch(ns, 'p', MERGE, { metadata: { finalizers: null } }), 200);
    });

    it('metadata.ownerReferences merge by uid; $patch: delete removes one', async () => {
      const owner = (uid: string, name: string): KubeObject => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name,
        uid,
      });
      const u1 = '00000000-0000-4000-8000-0000000000a1';
      const u2 = '00000000-0000-4000-8000-0000000000a2';
      const u3 = '00000000-0000-4000-8000-0000000000a3';
      const { ns } = await setup({ ownerReferences: [owner(u1, 'one'), owner(u2, 'two')] });
      const r = await patch(ns, 'p', SMP, {
        metadata: { ownerReferences: [{ uid: u2, name: 'two-renamed' }, owner(u3, 'three')] },
      });
      expectCode(r, 200);
      expect(r.body.metadata.ownerReferences).toEqual([owner(u1, 'one'), owner(u2, 'two-renamed'), owner(u3, 'three')]);
      const d = await patch(ns, 'p', SMP, { metadata: { ownerReferences: [{ uid: u1, $patch: 'delete' }] } });
      expectCode(d, 200);
      expect(d.body.metadata.ownerReferences).toEqual([owner(u2, 'two-renamed'), owner(u3, 'three')]);
    });

    it('a strategic merge patch of a missing object is a 404', async () => {
      const ns = ctx.namespace();
      const r = await patch(ns, 'missing', SMP, { metadata: { labels: { a: '1' } } });
      expectStatus(r, 404, 'NotFound', `${gr} "missing" not found`);
    });
  });
}
