import { describe, expect, it } from '@jest/globals';
import { call, expectCode, expectStatus } from './http.js';
import type { KubeObject, WatchEventLine } from './http.js';
import type { RestContext } from './rest-conformance.js';

const initialEventsEnd = 'k8s.io/initial-events-end';
const rvOf = (o: KubeObject): string => o['metadata'].resourceVersion as string;
const summary = (evs: readonly WatchEventLine[]): string[] =>
  evs.map((e) => `${e.type} ${e.object['metadata']?.name ?? ''}`);

/** watch: event types, start points, streaming lists, selectors, timeouts and 410. */
export function describeWatch(ctx: RestContext): void {
  const { target } = ctx;

  describe('watch', () => {
    it('streams ADDED, MODIFIED and DELETED after a resourceVersion', async () => {
      const ns = ctx.namespace();
      const before = await ctx.create(ns, 'old');
      const w = await ctx.watch(ctx.collection(ns, { watch: 'true', resourceVersion: rvOf(before) }));
      expect(w.status).toBe(200);
      expect(w.headers.get('content-type')).toMatch(/^application\/json/);
      const a = await ctx.create(ns, 'w');
      const m = await call(ctx.item(ns, 'w'), { method: 'PUT', body: target.mutate(a) });
      expectCode(m, 200);
      expectCode(await call(ctx.item(ns, 'w'), { method: 'DELETE' }), 200);
      const evs = await w.take(3);
      expect(summary(evs)).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
      expect(evs[0]!.object).toEqual(a);
      expect(evs[1]!.object).toEqual(m.body);
      for (const e of evs) {
        expect(e.object['kind']).toBe(target.kind);
        expect(e.object['apiVersion']).toBe(ctx.groupVersion);
      }
      const rvs = evs.map((e) => Number(rvOf(e.object)));
      expect(rvs[1]).toBeGreaterThan(rvs[0]!);
      expect(rvs[2]).toBeGreaterThan(rvs[1]!);
    });

    it('without a resourceVersion starts with ADDED for every existing object', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'a');
      await ctx.create(ns, 'b');
      const w = await ctx.watch(ctx.collection(ns, { watch: 'true' }));
      const initial = await w.take(2);
      expect(summary(initial).sort()).toEqual(['ADDED a', 'ADDED b']);
      await ctx.create(ns, 'c');
      expect(summary(await w.take(1))).toEqual(['ADDED c']);
    });

    it('resourceVersion=0 also starts with the current state', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'a');
      const w = await ctx.watch(ctx.collection(ns, { watch: 'true', resourceVersion: '0' }));
      expect(summary(await w.take(1))).toEqual(['ADDED a']);
    });

    for (const v of ['true', 't', 'True', 'TRUE', '1', 'yes']) {
      it(`watch=${v} streams a watch (anything but false/0 is true)`, async () => {
        const ns = ctx.namespace();
        const a = await ctx.create(ns, 'a');
        const w = await ctx.watch(ctx.collection(ns, { watch: v, resourceVersion: rvOf(a) }));
        expect(w.status).toBe(200);
        await ctx.create(ns, 'b');
        expect(summary(await w.take(1))).toEqual(['ADDED b']);
      });
    }

    it('the legacy /watch/ path streams a watch', async () => {
      const ns = ctx.namespace();
      const a = await ctx.create(ns, 'a');
      const w = await ctx.watch(ctx.legacyWatch(ns, { resourceVersion: rvOf(a) }));
      await ctx.create(ns, 'b');
      expect(summary(await w.take(1))).toEqual(['ADDED b']);
    });

    it('a watch across all namespaces sees every namespace', async () => {
      if (!target.namespaced) return;
      const ns1 = ctx.namespace();
      const ns2 = ctx.namespace();
      const start = await ctx.create(ns1, 'start');
      const w = await ctx.watch(ctx.collection(undefined, { watch: '1', resourceVersion: rvOf(start) }));
      await ctx.create(ns1, 'one');
      await ctx.create(ns2, 'two');
      const seen: string[] = [];
      while (seen.length < 2) {
        const ev = await w.expectNext();
        const key = `${ev.object['metadata']?.namespace}/${ev.object['metadata']?.name}`;
        if (key === `${ns1}/one` || key === `${ns2}/two`) seen.push(`${ev.type} ${key}`);
      }
      expect(seen).toEqual([`ADDED ${ns1}/one`, `ADDED ${ns2}/two`]);
    });

    it('a watch of a namespace does not see other namespaces', async () => {
      const ns = ctx.namespace();
      const a = await ctx.create(ns, 'a');
      const w = await ctx.watch(ctx.collection(ns, { watch: 'true', resourceVersion: rvOf(a) }));
      await ctx.create(`${ns}-x`, 'elsewhere');
      await ctx.create(ns, 'here');
      expect(summary(await w.take(1))).toEqual(['ADDED here']);
    });

    it('sendInitialEvents=true: ADDED for the current state, a BOOKMARK marking their end, then changes', async () => {
      const ns = ctx.namespace();
      await ctx.create(ns, 'a');
      await ctx.create(ns, 'b');
      const w = await ctx.watch(
        ctx.collection(ns, {
          watch: 'true',
          sendInitialEvents: 'true',
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: 'true',
        }),
      );
      const initial = await w.take(2);
      expect(summary(initial).sort()).toEqual(['ADDED a', 'ADDED b']);
      let bookmark: WatchEventLine | undefined;
      for (;;) {
        const ev = await w.expectNext();
        expect(ev.type).toBe('BOOKMARK');
        if (ev.object['metadata']?.annotations?.[initialEventsEnd] === 'true') {
          bookmark = ev;
          break;
        }
      }
      expect(bookmark.object['kind']).toBe(target.kind);
      expect(bookmark.object['apiVersion']).toBe(ctx.groupVersion);
      expect(Number(rvOf(bookmark.object))).toBeGreaterThanOrEqual(
        Math.max(...initial.map((e) => Number(rvOf(e.object)))),
      );
      await ctx.create(ns, 'c');
      expect(summary(await w.take(1))).toEqual(['ADDED c']);
    });

    it('sendInitialEvents without resourceVersionMatch=NotOlderThan is a 422', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns, { watch: 'true', sendInitialEvents: 'true' }));
      expectStatus(
        r,
        422,
        'Invalid',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
    });

    it('resourceVersionMatch on a watch without sendInitialEvents is a 422', async () => {
      const ns = ctx.namespace();
      const r = await call(ctx.collection(ns, { watch: 'true', resourceVersionMatch: 'NotOlderThan' }));
      expectStatus(
        r,
        422,
        'Invalid',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      );
    });

    it('timeoutSeconds ends the stream', async () => {
      const ns = ctx.namespace();
      const started = Date.now();
      const w = await ctx.watch(ctx.collection(ns, { watch: 'true', timeoutSeconds: 1 }));
      expect(w.status).toBe(200);
      expect(await w.waitEnd(5000)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('a field selector filters the watch; leaving it is DELETED, entering it is ADDED', async () => {
      const ns = ctx.namespace();
      const start = await ctx.create(ns, 'start');
      const w = await ctx.watch(
        ctx.collection(ns, { watch: 'true', resourceVersion: rvOf(start), fieldSelector: 'metadata.name=x' }),
      );
      await ctx.create(ns, 'y');
      const x = await ctx.create(ns, 'x');
      const m = await call(ctx.item(ns, 'x'), { method: 'PUT', body: target.mutate(x) });
      expectCode(m, 200);
      expectCode(await call(ctx.item(ns, 'y'), { method: 'DELETE' }), 200);
      expectCode(await call(ctx.item(ns, 'x'), { method: 'DELETE' }), 200);
      expect(summary(await w.take(3))).toEqual(['ADDED x', 'MODIFIED x', 'DELETED x']);
      expect(await w.drain(300)).toEqual([]);
    });

    it('a label selector filters the watch; a MODIFIED that leaves it is DELETED, one that enters it ADDED', async () => {
      const ns = ctx.namespace();
      const label = (o: KubeObject, value: string | undefined): KubeObject => ({
        ...o,
        metadata: { ...o['metadata'], labels: value === undefined ? {} : { sel: value } },
      });
      const a = await ctx.create(ns, 'a', (o) => label(o, 'yes'));
      const w = await ctx.watch(
        ctx.collection(ns, { watch: 'true', resourceVersion: rvOf(a), labelSelector: 'sel=yes' }),
      );
      // 1. a leaves the selector: DELETED with the previous content and the new resourceVersion.
      const left = await call(ctx.item(ns, 'a'), { method: 'PUT', body: label(a, 'no') });
      expectCode(left, 200);
      const [del] = await w.take(1);
      expect(del!.type).toBe('DELETED');
      expect(del!.object['metadata'].labels).toEqual({ sel: 'yes' });
      expect(rvOf(del!.object)).toBe(rvOf(left.body));
      // 2. a MODIFIED outside the selector is not seen.
      const still = await call(ctx.item(ns, 'a'), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { annotations: { touched: '1' } } },
      });
      expectCode(still, 200);
      // 3. a enters the selector again: ADDED.
      const back = await call(ctx.item(ns, 'a'), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { labels: { sel: 'yes' } } },
      });
      expectCode(back, 200);
      const [add] = await w.take(1);
      expect(add!.type).toBe('ADDED');
      expect(add!.object).toEqual(back.body);
    });

    it('a malformed selector on a watch is a 400 before the stream starts', async () => {
      const ns = ctx.namespace();
      expectStatus(
        await call(ctx.collection(ns, { watch: 'true', labelSelector: 'app in web' })),
        400,
        'BadRequest',
        "unable to parse requirement: found 'web' expected: '('",
      );
      expectStatus(
        await call(ctx.collection(ns, { watch: 'true', fieldSelector: 'bogus.field=x' })),
        400,
        'BadRequest',
        'field label not supported: bogus.field',
      );
    });

    it('a watch from a compacted resourceVersion ends with an in-stream 410 Expired', async () => {
      if (!target.compact) return;
      const ns = ctx.namespace();
      const a = await ctx.create(ns, 'a');
      for (const n of ['b', 'c', 'd']) await ctx.create(ns, n);
      await target.compact();
      const w = await ctx.watch(ctx.collection(ns, { watch: 'true', resourceVersion: rvOf(a) }));
      expect(w.status).toBe(200);
      const ev = await w.expectNext();
      expect(ev.type).toBe('ERROR');
      expect(ev.object).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Expired',
        code: 410,
      });
      expect(ev.object['message']).toMatch(new RegExp(`^too old resource version: ${rvOf(a)} \\(\\d+\\)$`));
      expect(await w.waitEnd(3000)).toBe(true);
    });
  });
}
