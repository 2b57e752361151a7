import { describe, expect, it } from '@jest/globals';
import { decodeContinue, encodeContinue } from '../continue.js';
import { expiredContinueMessage, expiredListMessage } from '../errors.js';
import type { KeyPrefix, ListOptions, Storage } from '../interface.js';
import type { ConformanceContext } from './conformance.js';
import { expectStorageError, keyOf, rvOf, testObject, type TestObject } from './helpers.js';

const names = (items: readonly TestObject[]): string[] =>
  items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`);

/** Byte order of `<namespace>/<name>`. */
const byteOrder = (keys: string[]): string[] =>
  [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

async function seed(s: Storage, keys: readonly string[], resource = 'events'): Promise<void> {
  for (const k of keys) {
    const [ns, name] = k.split('/') as [string, string];
    await s.create(keyOf(ns, name, resource), testObject(ns, name));
  }
}

/** Reads every page and returns the names, checking that every page has the first page's resourceVersion. */
async function listAll(
  s: Storage,
  prefix: KeyPrefix,
  options: ListOptions<TestObject>,
  between?: (page: number) => Promise<void>,
): Promise<string[]> {
  const out: string[] = [];
  let page = await s.list<TestObject>(prefix, options);
  const rv = page.resourceVersion;
  out.push(...names(page.items));
  for (let n = 1; page.continue !== undefined; n++) {
    await between?.(n);
    page = await s.list<TestObject>(prefix, {
      limit: options.limit,
      predicate: options.predicate,
      continue: page.continue,
    });
    expect(page.resourceVersion).toBe(rv);
    out.push(...names(page.items));
  }
  return out;
}

/** list: order, namespaces, limit/continue, remainingItemCount, resourceVersion semantics, Expired. */
export function defineListConformance(ctx: ConformanceContext): void {
  const keys = ['b/z', 'a/y', 'a-b/x', 'a/a', 'A/q', 'b/a', 'a/a-b', 'a/a.b', 'ab/c', 'b/b0'];

  describe('list', () => {
    it('orders by namespace then name, in byte order of <namespace>/<name>', async () => {
      const s = await ctx.open();
      await seed(s, keys);
      await seed(s, ['a/other-resource'], 'leases');
      const l = await s.list<TestObject>({ resource: 'events' });
      expect(names(l.items)).toEqual(byteOrder(keys));
      expect(l.resourceVersion).toBe(await s.currentResourceVersion());
      expect(l.continue).toBeUndefined();
      expect(l.remainingItemCount).toBeUndefined();
    });

    it('lists one namespace only (not a namespace it is a prefix of)', async () => {
      const s = await ctx.open();
      await seed(s, keys);
      expect(names((await s.list<TestObject>({ resource: 'events', namespace: 'a' })).items)).toEqual([
        'a/a',
        'a/a-b',
        'a/a.b',
        'a/y',
      ]);
      expect(names((await s.list<TestObject>({ resource: 'events', namespace: 'ab' })).items)).toEqual(['ab/c']);
      expect((await s.list({ resource: 'events', namespace: 'none' })).items).toEqual([]);
    });

    it('answers an empty list with the current resourceVersion', async () => {
      const s = await ctx.open();
      expect(await s.list({ resource: 'events' })).toEqual({ items: [], resourceVersion: '1' });
      const c = await s.create(keyOf('ns', 'a', 'leases'), testObject('ns', 'a'));
      const l = await s.list({ resource: 'events' });
      expect(l.items).toEqual([]);
      expect(l.resourceVersion).toBe(c.metadata.resourceVersion);
    });

    it('excludes deleted objects and shows updates', async () => {
      const s = await ctx.open();
      await seed(s, ['n/a', 'n/b', 'n/c']);
      await s.delete(keyOf('n', 'b'));
      await s.guaranteedUpdate<TestObject>(keyOf('n', 'c'), (o) => ({ ...o!, note: 'updated' }));
      const l = await s.list<TestObject>({ resource: 'events' });
      expect(names(l.items)).toEqual(['n/a', 'n/c']);
      expect(l.items[1].note).toBe('updated');
    });

    it('filters with a predicate', async () => {
      const s = await ctx.open();
      await seed(s, keys);
      const l = await s.list<TestObject>({ resource: 'events' }, { predicate: (o) => o.metadata.namespace === 'b' });
      expect(names(l.items)).toEqual(['b/a', 'b/b0', 'b/z']);
    });
  });

  describe('list pages', () => {
    it('pages with limit and continue, with remainingItemCount and the Kubernetes token format', async () => {
      const s = await ctx.open();
      await seed(s, keys);
      const first = await s.list<TestObject>({ resource: 'events' }, { limit: 3 });
      expect(first.items).toHaveLength(3);
      expect(first.remainingItemCount).toBe(7);
      const raw = JSON.parse(Buffer.from(first.continue!, 'base64url').toString()) as Record<string, unknown>;
      expect(raw).toEqual({
        v: 'meta.k8s.io/v1',
        rv: rvOf(first.resourceVersion),
        start: `${names(first.items)[2]}\u0000`,
      });
      expect(first.continue).not.toMatch(/[=+/]/);
      const second = await s.list<TestObject>({ resource: 'events' }, { limit: 3, continue: first.continue });
      expect(second.remainingItemCount).toBe(4);
      expect(await listAll(s, { resource: 'events' }, { limit: 3 })).toEqual(byteOrder(keys));
      expect(await listAll(s, { resource: 'events' }, { limit: 1 })).toEqual(byteOrder(keys));
      const exact = await s.list({ resource: 'events' }, { limit: 10 });
      expect(exact.continue).toBeUndefined();
      expect(exact.remainingItemCount).toBeUndefined();
      expect(await listAll(s, { resource: 'events', namespace: 'a' }, { limit: 2 })).toEqual([
        'a/a',
        'a/a-b',
        'a/a.b',
        'a/y',
      ]);
    });

    it('stays consistent at the first page resourceVersion while creates, updates and deletes go on', async () => {
      const s = await ctx.open();
      await seed(s, keys);
      const expected = byteOrder(keys);
      const first = await s.list<TestObject>({ resource: 'events' }, { limit: 2 });
      const seen = names(first.items);
      let token = first.continue;
      let n = 0;
      while (token !== undefined) {
        n++;
        await s.create(keyOf('a', `new-${n}`), testObject('a', `new-${n}`));
        await s.create(keyOf('zz', `new-${n}`), testObject('zz', `new-${n}`));
        const victim = expected[expected.length - n];
        const [ns, name] = victim!.split('/') as [string, string];
        await s.delete(keyOf(ns, name));
        await s.guaranteedUpdate<TestObject>(
          keyOf('b', 'z'),
          (o) => (o === undefined ? testObject('b', 'z', { note: 'recreated' }) : { ...o, note: `changed-${n}` }),
          { ignoreNotFound: true },
        );
        const page = await s.list<TestObject>({ resource: 'events' }, { limit: 2, continue: token });
        expect(page.resourceVersion).toBe(first.resourceVersion);
        for (const o of page.items) expect(o.note).toBe('hello');
        seen.push(...names(page.items));
        token = page.continue;
      }
      expect(seen).toEqual(expected);
      expect((await s.list({ resource: 'events' })).items.length).toBe(keys.length + 2 * n - n + 1);
    });

    it('omits remainingItemCount with a predicate and fills pages with matches', async () => {
      const s = await ctx.open();
      await seed(s, keys);
      const pred = (o: TestObject): boolean => (o.metadata.name ?? '').startsWith('a') || o.metadata.namespace === 'b';
      const p = await s.list<TestObject>({ resource: 'events' }, { limit: 2, predicate: pred });
      expect(p.items).toHaveLength(2);
      expect(p.remainingItemCount).toBeUndefined();
      const expected = byteOrder(keys).filter((k) => pred(testObject(k.split('/')[0], k.split('/')[1])));
      expect(await listAll(s, { resource: 'events' }, { limit: 2, predicate: pred })).toEqual(expected);
    });

    it('rejects bad continue tokens with InvalidContinue', async () => {
      const s = await ctx.open();
      await seed(s, ['a/a']);
      const tok = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
      const bad = [
        '%%%',
        'not base64!',
        tok([1]),
        Buffer.from('{not json').toString('base64url'),
        tok({ v: 'meta.k8s.io/v2', rv: 1, start: 'a/a\u0000' }),
        tok({ v: 'meta.k8s.io/v1', rv: 0, start: 'a/a\u0000' }),
        tok({ v: 'meta.k8s.io/v1', rv: 1, start: '' }),
        tok({ v: 'meta.k8s.io/v1', rv: 1, start: '../../secrets/x' }),
        tok({ v: 'meta.k8s.io/v1', rv: 1, start: 'a/./b' }),
        tok({ v: 'meta.k8s.io/v1', rv: 1, start: 'a//b' }),
        tok({ v: 'meta.k8s.io/v1', rv: 'x', start: 'a/a' }),
      ];
      for (const c of bad) {
        const e = await expectStorageError(
          s.list({ resource: 'events' }, { limit: 1, continue: c }),
          'InvalidContinue',
        );
        expect(e.message).toMatch(/^continue key is not valid/);
      }
      expect(decodeContinue(tok({ v: 'meta.k8s.io/v1', rv: 5, start: '/a/b\u0000' }))).toEqual({
        start: 'a/b\u0000',
        resourceVersion: 5,
      });
    });

    it('expires a continue token after compaction, offering a token that continues from the latest state', async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'a/2', 'a/3', 'a/4']);
      const first = await s.list<TestObject>({ resource: 'events' }, { limit: 2 });
      await s.create(keyOf('a', '5'), testObject('a', '5'));
      await s.delete(keyOf('a', '4'));
      await s.compact(await s.currentResourceVersion());
      const e = await expectStorageError(
        s.list({ resource: 'events' }, { limit: 2, continue: first.continue }),
        'Expired',
      );
      expect(e.message).toBe(expiredContinueMessage);
      expect(decodeContinue(e.continue!)).toEqual({ start: 'a/2\u0000', resourceVersion: -1 });
      const rest = await s.list<TestObject>({ resource: 'events' }, { limit: 10, continue: e.continue });
      expect(names(rest.items)).toEqual(['a/3', 'a/5']);
      expect(rest.resourceVersion).toBe(await s.currentResourceVersion());
    });

    it('continues from the latest state for a token with resourceVersion -1', async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'a/2', 'a/3']);
      const l = await s.list<TestObject>(
        { resource: 'events' },
        { limit: 1, continue: encodeContinue('a/1\u0000', -1) },
      );
      expect(names(l.items)).toEqual(['a/2']);
      expect(l.resourceVersion).toBe(await s.currentResourceVersion());
      expect(decodeContinue(l.continue!).resourceVersion).toBe(rvOf(l.resourceVersion));
    });
  });

  describe('continue tokens read relative to the list (kube: relative to the request key prefix)', () => {
    const ns = (namespace: string): KeyPrefix => ({ resource: 'events', namespace });
    const cluster: KeyPrefix = { resource: 'events' };

    it("writes a namespace's page token with the name alone, a cluster-wide one with <namespace>/<name>", async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'a/2', 'b/1']);
      const inA = await s.list<TestObject>(ns('a'), { limit: 1 });
      expect(decodeContinue(inA.continue!)).toEqual({ start: '1\u0000', resourceVersion: rvOf(inA.resourceVersion) });
      const all = await s.list<TestObject>(cluster, { limit: 1 });
      expect(decodeContinue(all.continue!).start).toBe('a/1\u0000');
      expect(await listAll(s, ns('a'), { limit: 1 })).toEqual(['a/1', 'a/2']);
    });

    it("continues a namespace's token in the namespace it is sent to, after the same name", async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'a/2', 'a/3', 'b/0', 'b/1', 'b/2', 'b/3', 'c/9']);
      const inA = await s.list<TestObject>(ns('a'), { limit: 1 });
      for (const token of [inA.continue!, encodeContinue('1\u0000', -1)]) {
        const inB = await s.list<TestObject>(ns('b'), { limit: 10, continue: token });
        expect(names(inB.items)).toEqual(['b/2', 'b/3']);
        expect(inB.continue).toBeUndefined();
      }
      // Paged in b from a's token: each next token is b's own, relative again.
      const page = await s.list<TestObject>(ns('b'), { limit: 1, continue: inA.continue });
      expect(names(page.items)).toEqual(['b/2']);
      expect(decodeContinue(page.continue!).start).toBe('2\u0000');
      expect(names((await s.list<TestObject>(ns('b'), { continue: page.continue })).items)).toEqual(['b/3']);
    });

    it("reads a cluster-wide token in a namespace's list as a name, and a namespace's token in a cluster-wide list as a key", async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'b/1', 'b/a', 'b/a-', 'b/a0', 'b/b', 'c/1', 'c/2']);
      // In b, `a/1\u0000` is a name: b's names after it in byte order ('-' and '/' < '0' < 'b').
      const inB = await s.list<TestObject>(ns('b'), { continue: encodeContinue('a/1\u0000', -1) });
      expect(names(inB.items)).toEqual(['b/a0', 'b/b']);
      // Cluster-wide, `b\u0000` is a key: every key after it, from namespace b on.
      const all = await s.list<TestObject>(cluster, { continue: encodeContinue('b\u0000', -1) });
      expect(names(all.items)).toEqual(['b/1', 'b/a', 'b/a-', 'b/a0', 'b/b', 'c/1', 'c/2']);
      const fromC = await s.list<TestObject>(cluster, { continue: encodeContinue('c/1\u0000', -1) });
      expect(names(fromC.items)).toEqual(['c/2']);
      // A NUL inside the start (no store's key holds one) sorts as in bytes: after `a`, before `a-`.
      const nul = await s.list<TestObject>(ns('b'), { continue: encodeContinue('a\u0000b', -1) });
      expect(names(nul.items)).toEqual(['b/a-', 'b/a0', 'b/b']);
      // A start past every name of the namespace gives an empty page, not the next namespace.
      const past = await s.list<TestObject>(ns('a'), { continue: encodeContinue('z\u0000', -1) });
      expect(past.items).toEqual([]);
    });

    it("reads any start as a key in byte order, in a namespace's list and a cluster-wide one", async () => {
      const s = await ctx.open();
      const keys = ['a/1', 'b/-', 'b/0', 'b/a', 'b/a.b', 'b/z', 'c/x'];
      await seed(s, keys);
      const starts = [
        '\u0000',
        'a\u0000\u0000',
        'a.\u0000b',
        '-',
        // A start the token's path cleaning reads as the list's first key.
        '/',
        'b/a\u0000',
        'a/b/c',
        'é',
        '\ud800',
        '\u{1f600}x',
        'zz\u0000',
      ];
      // Keys hold no NUL, so from a start with one are the keys after its part before the NUL.
      const from = (key: string, token: string): boolean => {
        const start = decodeContinue(token).start;
        const before = start.split('\u0000')[0]!;
        return Buffer.compare(Buffer.from(key), Buffer.from(before)) >= 0 && (before === start || key !== before);
      };
      for (const raw of starts) {
        const token = encodeContinue(raw, -1);
        const inB = await s.list<TestObject>(ns('b'), { continue: token });
        const inBWanted = keys.filter((k) => k.startsWith('b/') && from(k.slice(2), token));
        expect([raw, names(inB.items)]).toEqual([raw, inBWanted]);
        const all = await s.list<TestObject>(cluster, { continue: token });
        expect([raw, names(all.items)]).toEqual([raw, keys.filter((k) => from(k, token))]);
      }
    });

    it("offers an expired namespace token's successor relative to the namespace", async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'a/2', 'a/3']);
      const first = await s.list<TestObject>(ns('a'), { limit: 1 });
      await s.create(keyOf('a', '4'), testObject('a', '4'));
      await s.compact(await s.currentResourceVersion());
      const e = await expectStorageError(s.list(ns('a'), { limit: 1, continue: first.continue }), 'Expired');
      expect(decodeContinue(e.continue!)).toEqual({ start: '1\u0000', resourceVersion: -1 });
      const rest = await s.list<TestObject>(ns('a'), { continue: e.continue });
      expect(names(rest.items)).toEqual(['a/2', 'a/3', 'a/4']);
    });
  });

  describe('list resourceVersion', () => {
    it('reads the exact state at a past resourceVersion with Exact, and with a limit and no match', async () => {
      const s = await ctx.open();
      await seed(s, ['a/1', 'a/2', 'a/3']);
      const at = await s.currentResourceVersion();
      const before = (await s.list<TestObject>({ resource: 'events' })).items;
      await s.delete(keyOf('a', '1'));
      await s.guaranteedUpdate<TestObject>(keyOf('a', '2'), (o) => ({ ...o!, note: 'later' }));
      await s.create(keyOf('a', '0'), testObject('a', '0'));
      const exact = await s.list<TestObject>(
        { resource: 'events' },
        { resourceVersion: at, resourceVersionMatch: 'Exact' },
      );
      expect(exact.resourceVersion).toBe(at);
      expect(exact.items).toEqual(before);
      const legacy = await s.list<TestObject>({ resource: 'events' }, { resourceVersion: at, limit: 2 });
      expect(legacy.resourceVersion).toBe(at);
      expect(names(legacy.items)).toEqual(['a/1', 'a/2']);
      const page2 = await s.list<TestObject>({ resource: 'events' }, { limit: 2, continue: legacy.continue });
      expect(names(page2.items)).toEqual(['a/3']);
      expect(page2.items[0]).toEqual(before[2]);
    });

    it('reads the latest state with NotOlderThan, "0", unset, and a resourceVersion without a limit', async () => {
      const s = await ctx.open();
      await seed(s, ['a/1']);
      const at = await s.currentResourceVersion();
      await seed(s, ['a/2']);
      const now = await s.currentResourceVersion();
      for (const o of [
        { resourceVersion: at, resourceVersionMatch: 'NotOlderThan' as const },
        { resourceVersion: at },
        { resourceVersion: '' },
        {},
      ]) {
        const l = await s.list<TestObject>({ resource: 'events' }, o);
        expect(names(l.items)).toEqual(['a/1', 'a/2']);
        expect(l.resourceVersion).toBe(now);
      }
      const any = await s.list<TestObject>({ resource: 'events' }, { resourceVersion: '0' });
      expect(rvOf(any.resourceVersion)).toBeGreaterThan(0);
      const anyNot = await s.list<TestObject>(
        { resource: 'events' },
        { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' },
      );
      expect(rvOf(anyNot.resourceVersion)).toBeGreaterThan(0);
    });

    it('fails a list at a future resourceVersion with TooLargeResourceVersion, unless it is reached in time', async () => {
      // The refusals on a store that waits briefly (nothing is written meanwhile); the read that
      // a write reaches, on one that waits the run's time.
      const refusing = await ctx.open({ tooLargeResourceVersionWaitMs: ctx.refusalWaitMs });
      await seed(refusing, ['a/1']);
      const at = rvOf(await refusing.currentResourceVersion());
      for (const match of ['Exact', 'NotOlderThan'] as const) {
        const e = await expectStorageError(
          refusing.list({ resource: 'events' }, { resourceVersion: String(at + 5), resourceVersionMatch: match }),
          'TooLargeResourceVersion',
        );
        expect(e.message).toBe(`Too large resource version: ${at + 5}, current: ${at}`);
        expect(e.retryAfterSeconds).toBeGreaterThan(0);
      }
      const s = await ctx.open();
      await seed(s, ['a/1']);
      const now = rvOf(await s.currentResourceVersion());
      const pending = s.list<TestObject>(
        { resource: 'events' },
        { resourceVersion: String(now + 1), resourceVersionMatch: 'NotOlderThan' },
      );
      await s.create(keyOf('a', '2'), testObject('a', '2'));
      expect(names((await pending).items)).toEqual(['a/1', 'a/2']);
    });

    it('expires an Exact list at a compacted resourceVersion', async () => {
      const s = await ctx.open();
      await seed(s, ['a/1']);
      const at = await s.currentResourceVersion();
      await seed(s, ['a/2', 'a/3']);
      await s.compact(await s.currentResourceVersion());
      const e = await expectStorageError(
        s.list({ resource: 'events' }, { resourceVersion: at, resourceVersionMatch: 'Exact' }),
        'Expired',
      );
      expect(e.message).toBe(expiredListMessage);
      const still = await s.list(
        { resource: 'events' },
        { resourceVersion: await s.currentResourceVersion(), resourceVersionMatch: 'Exact' },
      );
      expect(still.items).toHaveLength(3);
    });

    it('trims history to historyLimit by itself', async () => {
      if (!ctx.supportsHistoryLimit) return;
      const s = await ctx.open({ historyLimit: 5 });
      await seed(s, ['a/1', 'a/2']);
      const first = await s.list({ resource: 'events' }, { limit: 1 });
      await seed(s, ['a/3', 'a/4', 'a/5', 'a/6', 'a/7', 'a/8']);
      await expectStorageError(s.list({ resource: 'events' }, { limit: 1, continue: first.continue }), 'Expired');
      await expectStorageError(
        s.list({ resource: 'events' }, { resourceVersion: first.resourceVersion, resourceVersionMatch: 'Exact' }),
        'Expired',
      );
      expect((await s.list({ resource: 'events' })).items).toHaveLength(8);
    });
  });
}
