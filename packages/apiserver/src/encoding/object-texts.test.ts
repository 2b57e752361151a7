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

  it('answers a missing object as the view names it (404 Status)', async () => {
    const { texts } = counting();
    await expect(texts.getJSON('ns', 'missing')).rejects.toMatchObject({
      code: 404,
      status: { reason: 'NotFound', message: 'widgets.example.com "missing" not found' },
    });
  });
});
