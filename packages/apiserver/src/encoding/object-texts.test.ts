import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { Store } from '../registry/store.js';
import { ObjectTexts } from './object-texts.js';
import { widgetStrategy, widgetView } from '../testing/widget-resource.js';
import type { Widget } from '../testing/widget-resource.js';

const view = widgetView();
const strategy = widgetStrategy();

const widget = (name: string, holder = 'h'): Widget => ({ metadata: { name }, spec: { holderIdentity: holder } });

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage({ watchBatchIntervalMs: 0 });
});
afterEach(async () => {
  await storage.close();
});

/** `storage` as a store that cannot read revisions (as Redis and the SQL stores). */
const withoutRevisionReads = (storage: MemoryStorage): MemoryStorage =>
  new Proxy(storage, {
    get: (target, prop) =>
      prop === 'getRevision' || prop === 'listRevisions'
        ? undefined
        : ((v: unknown) => (typeof v === 'function' ? v.bind(target) : v))(Reflect.get(target, prop)),
  });

/** A store and its texts through the test view, with a count of the objects the view serializes. */
const counting = () => {
  const calls = { n: 0 };
  const v = { ...view, toJSON: (o: Widget, typed: boolean) => (calls.n++, view.toJSON(o, typed)) };
  const store = new Store<Widget>(storage, 'widgets', strategy, v);
  return { store, texts: new ObjectTexts(store), calls };
};

describe('ObjectTexts', () => {
  it('encodes a created object once for its answer, a get and a page at its resourceVersion', async () => {
    const { store, texts, calls } = counting();
    const created = await store.create(widget('a'), 'ns', false);
    const text = texts.storedJSON(created);
    expect(text).toBe(view.toJSON(created, true));
    expect(calls.n).toBe(1);
    expect(await texts.getJSON('ns', 'a')).toBe(text);
    const page = await texts.listJSON('ns', {});
    expect(page?.texts(0, 1)).toEqual([view.toJSON(created, false)]);
    expect(calls.n).toBe(1);
  });

  it('keeps nothing for an object without a stored resourceVersion (a dry run)', async () => {
    const { store, texts, calls } = counting();
    const dry = await store.create(widget('b'), 'ns', true);
    texts.storedJSON(dry);
    texts.storedJSON(dry);
    expect(calls.n).toBe(2);
    const stored = await store.create(widget('b', 'other'), 'ns', false);
    expect(await texts.getJSON('ns', 'b')).toBe(view.toJSON(stored, true));
  });

  it('decodes objects whose texts it does not hold, each page item once, and only the items asked for', async () => {
    const { store, texts, calls } = counting();
    const a = await store.create(widget('a'), 'ns', false);
    const b = await store.create(widget('b', 'other'), 'ns', false);
    const page = await texts.listJSON('ns', {});
    expect(page?.length).toBe(2);
    expect(page?.texts(1, 2)).toEqual([view.toJSON(b, false)]);
    expect(calls.n).toBe(1);
    expect(page?.texts(0, 2)).toEqual([view.toJSON(a, false), view.toJSON(b, false)]);
    expect(calls.n).toBe(2);
  });

  it('encodes objects with no positive resourceVersion, or none at all, with type meta and keeps nothing', () => {
    const { texts, calls } = counting();
    const zero: Widget = { metadata: { name: 'z', resourceVersion: '0' }, spec: {} };
    expect(texts.storedJSON(zero)).toBe(view.toJSON(zero, true));
    expect(texts.storedJSON(zero)).toBe(view.toJSON(zero, true));
    expect(calls.n).toBe(2);
    const bare = { spec: {} } as unknown as Widget;
    expect(texts.storedJSON(bare)).toBe(view.toJSON(bare, true));
  });

  it('answers undefined where the storage cannot read revisions or the view cannot add type meta', async () => {
    const plain = withoutRevisionReads(storage);
    const viaPlain = new ObjectTexts(new Store<Widget>(plain, 'widgets', strategy, view));
    const untyped = new ObjectTexts(
      new Store<Widget>(storage, 'widgets', strategy, { ...view, withTypeMeta: undefined }),
    );
    await new Store<Widget>(storage, 'widgets', strategy, view).create(widget('a'), 'ns', false);
    expect(await viaPlain.getJSON('ns', 'a')).toBeUndefined();
    expect(await viaPlain.listJSON('ns', {})).toBeUndefined();
    expect(await untyped.getJSON('ns', 'a')).toBeUndefined();
  });

  it('shares a create answer with the watch lines of its change where the storage cannot read revisions, by resourceVersion and uid', async () => {
    const plain = withoutRevisionReads(storage);
    const calls = { n: 0 };
    const v = { ...view, toJSON: (o: Widget, typed: boolean) => (calls.n++, view.toJSON(o, typed)) };
    const store = new Store<Widget>(plain, 'widgets', strategy, v);
    const texts = new ObjectTexts(store);
    const created = await store.create(widget('a'), 'ns', false);
    const answer = texts.createdJSON(created);
    expect(answer).toBe(view.toJSON(created, true));
    expect(calls.n).toBe(1);
    // The watch's object: the same state, decoded again by the store.
    const watched = structuredClone(created);
    expect(texts.storedJSON(watched)).toBe(answer);
    expect(calls.n).toBe(1);
    // The same resourceVersion with another uid (a counter that went back after Redis lost data).
    const other = { ...watched, metadata: { ...watched.metadata, uid: 'another' }, spec: { holderIdentity: 'x' } };
    expect(texts.storedJSON(other)).toBe(view.toJSON(other, true));
    expect(calls.n).toBe(2);
    // Updates are not kept: an update keeps its object's uid.
    const { object: updated } = await store.update('ns', 'a', (cur) => ({ ...cur!, spec: { holderIdentity: 'u' } }), {
      allowCreate: false,
      dryRun: false,
    });
    const beforeUpdate = calls.n;
    expect(texts.storedJSON(updated)).toBe(view.toJSON(updated, true));
    expect(texts.storedJSON(updated)).toBe(view.toJSON(updated, true));
    expect(calls.n - beforeUpdate).toBe(2);
    // A dry run's result has no resourceVersion: encoded, nothing kept.
    const dry = await store.create(widget('d'), 'ns', true);
    const beforeDry = calls.n;
    expect(texts.createdJSON(dry)).toBe(view.toJSON(dry, true));
    expect(texts.storedJSON(dry)).toBe(view.toJSON(dry, true));
    expect(calls.n - beforeDry).toBe(2);
  });

  it('reads a get at the resourceVersion asked for: one not reached yet is a 504 after the wait', async () => {
    await storage.close();
    storage = new MemoryStorage({ watchBatchIntervalMs: 0, tooLargeResourceVersionWaitMs: 50 });
    const { store, texts } = counting();
    const a = await store.create(widget('a'), 'ns', false);
    const ahead = String(Number(a.metadata.resourceVersion) + 10);
    await expect(texts.getJSON('ns', 'a', ahead)).rejects.toMatchObject({ code: 504 });
  });

  it('answers a missing object as the view names it (404 Status)', async () => {
    const { texts } = counting();
    await expect(texts.getJSON('ns', 'missing')).rejects.toMatchObject({
      code: 404,
      status: { reason: 'NotFound', message: 'widgets.example.com "missing" not found' },
    });
  });

  it('serves a repeated page of a list that fits in its cache, and keeps nothing of a larger list', async () => {
    const calls = { n: 0 };
    const v = { ...view, toJSON: (o: Widget, typed: boolean) => (calls.n++, view.toJSON(o, typed)) };
    const store = new Store<Widget>(storage, 'widgets', strategy, v);
    for (const name of ['a', 'b', 'c', 'd']) await store.create(widget(name), 'small', false);
    for (let i = 0; i < 40; i++) await store.create(widget(`w${i}`), 'large', false);
    const itemChars = view.toJSON((await store.get('small', 'a'))!, false).length;
    // Room for 10 items: the 4 of 'small' fit, the 40 of 'large' do not.
    const texts = new ObjectTexts(store, itemChars * 10);
    const read = async (ns: string, cont?: string) => {
      const page = await texts.listJSON(ns, { limit: 2, continue: cont });
      page?.texts(0, page.length);
      return page?.continue;
    };
    calls.n = 0;
    await read('small');
    await read('small');
    expect(calls.n).toBe(2);
    const next = await read('small');
    await read('small', next);
    await read('small', next);
    expect(calls.n).toBe(4);
    calls.n = 0;
    const second = await read('large');
    await read('large');
    await read('large', second);
    await read('large', second);
    expect(calls.n).toBe(8);
  });
});
