import { describe, expect, it } from '@jest/globals';
import { enumOf, field, int32, kindListSchema, kindSchema, obj, str } from '@kevents/api';
import type { KubeObject, ObjectSchema } from '@kevents/api';
import { MemoryStorage } from '@kevents/storage';
import { widgetStrategy } from '../testing/widget-resource.js';
import { generationOnDeletion, nextGeneration, semanticEqual, specFields, withSpecGeneration } from './generation.js';
import { schemaView } from './schema-view.js';
import { Store } from './store.js';
import type { ResourceStrategy } from './strategy.js';

interface Gadget extends KubeObject {
  spec?: { color?: string; size?: number; tags?: string[] };
  status?: { phase?: string };
}

const specSchema: ObjectSchema = {
  id: 'com.example.v1.GadgetSpec',
  goType: 'GadgetSpec',
  description: '',
  fields: [
    field('color', enumOf(['red', 'blue']), 'omitempty', ''),
    field('size', int32, 'omitempty', ''),
    field('tags', { kind: 'array', items: str() }, 'omitempty', ''),
  ],
};
const statusSchema: ObjectSchema = {
  id: 'com.example.v1.GadgetStatus',
  goType: 'GadgetStatus',
  description: '',
  fields: [field('phase', str(), 'omitempty', '')],
};
const gadgetSchema = kindSchema({
  id: 'com.example.v1.Gadget',
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  description: '',
  fields: [
    field(
      'spec',
      obj(() => specSchema),
      'omitempty',
      '',
    ),
    field(
      'status',
      obj(() => statusSchema),
      'omitempty',
      '',
    ),
  ],
});

const base = widgetStrategy<Gadget>({
  allowUnconditionalUpdate: true,
  qualifiedKind: { group: 'example.com', kind: 'Gadget' },
});

const view = schemaView<Gadget>({
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  resource: 'gadgets',
  singularName: 'gadget',
  schema: gadgetSchema,
  listSchema: kindListSchema(gadgetSchema),
});

const store = (strategy: ResourceStrategy<Gadget>): Store<Gadget> =>
  new Store(new MemoryStorage(), 'gadgets', strategy, view);

/** Replaces the object with `next` (the body of a PUT without resourceVersion). */
const put = (s: Store<Gadget>, next: Omit<Gadget, 'metadata'> & { metadata?: Gadget['metadata'] }) =>
  s.update('ns', 'g', () => ({ ...next, metadata: { name: 'g', ...next.metadata } }) as Gadget, {
    allowCreate: false,
    dryRun: false,
  });

describe('withSpecGeneration (a kind with a spec/status split)', () => {
  it('starts at 1 whatever the client sends, and counts changes of the spec only', async () => {
    const s = store(withSpecGeneration(base));
    const created = await s.create({ metadata: { name: 'g', generation: 7 }, spec: { color: 'red' } }, 'ns', false);
    expect(created.metadata.generation).toBe(1);

    // A label or a status change keeps the generation (and is written).
    const labelled = await put(s, { metadata: { labels: { a: 'b' } }, spec: { color: 'red' } });
    expect([labelled.object.metadata.generation, labelled.object.metadata.labels]).toEqual([1, { a: 'b' }]);
    const status = await put(s, { spec: { color: 'red' }, status: { phase: 'Ready' } });
    expect(status.object.metadata.generation).toBe(1);
    expect(status.object.metadata.resourceVersion).not.toBe(labelled.object.metadata.resourceVersion);

    // A spec change bumps it by one; a body generation is ignored (rest.BeforeUpdate).
    const changed = await put(s, { metadata: { generation: 40 }, spec: { color: 'blue' } });
    expect(changed.object.metadata.generation).toBe(2);
    const again = await put(s, { spec: { color: 'blue', size: 3 } });
    expect(again.object.metadata.generation).toBe(3);

    // The same spec again: no write at all, the generation stays.
    const same = await put(s, { spec: { color: 'blue', size: 3 } });
    expect(same.object.metadata.generation).toBe(3);
    expect(same.object.metadata.resourceVersion).toBe(again.object.metadata.resourceVersion);
    expect((await s.get('ns', 'g')).metadata.generation).toBe(3);
  });

  it('runs the strategy’s own prepare functions first, and compares what they leave', async () => {
    const s = store(
      withSpecGeneration(
        {
          ...base,
          prepareForCreate: (g) => {
            g.spec = { size: 1, ...g.spec };
          },
          // A strategy that keeps the stored size when the body has none: no spec change then.
          prepareForUpdate: (g, old) => {
            g.spec = { ...g.spec, size: g.spec?.size ?? old.spec?.size };
          },
        },
        (g) => g.spec,
      ),
    );
    const created = await s.create({ metadata: { name: 'g' }, spec: { color: 'red' } }, 'ns', false);
    expect([created.spec, created.metadata.generation]).toEqual([{ size: 1, color: 'red' }, 1]);
    const kept = await put(s, { spec: { color: 'red' }, status: { phase: 'x' } });
    expect(kept.object.metadata.generation).toBe(1);
    const changed = await put(s, { spec: { color: 'red', size: 2 } });
    expect(changed.object.metadata.generation).toBe(2);
  });

  it('a dry-run update answers the next generation and stores nothing', async () => {
    const s = store(withSpecGeneration(base));
    await s.create({ metadata: { name: 'g' }, spec: { color: 'red' } }, 'ns', false);
    const dry = await s.update('ns', 'g', (cur) => ({ ...cur!, spec: { color: 'blue' } }), {
      allowCreate: false,
      dryRun: true,
    });
    expect(dry.object.metadata.generation).toBe(2);
    expect((await s.get('ns', 'g')).metadata.generation).toBe(1);
  });
});

describe('generation of a kind without a spec/status split (Events, Leases: kube-apiserver’s generic rules)', () => {
  it('keeps what the create sent, and the stored one on every update', async () => {
    const s = store(base);
    const created = await s.create({ metadata: { name: 'g', generation: 5 }, spec: { color: 'red' } }, 'ns', false);
    expect(created.metadata.generation).toBe(5);
    const changed = await put(s, { metadata: { generation: 9 }, spec: { color: 'blue' } });
    expect(changed.object.metadata.generation).toBe(5);
    const none = await s.create({ metadata: { name: 'h' }, spec: {} }, 'ns', false);
    expect(none.metadata.generation).toBeUndefined();
  });
});

describe('the generation helpers', () => {
  it('semanticEqual: absent, null, [] and {} are one value, as Go’s nil and empty slices and maps', () => {
    expect(semanticEqual({ a: 1, tags: [] }, { a: 1 })).toBe(true);
    expect(semanticEqual({ a: 1, m: {} }, { a: 1, m: null })).toBe(true);
    expect(semanticEqual({ a: { b: [] } }, {})).toBe(true);
    expect(semanticEqual(undefined, {})).toBe(true);
    expect(semanticEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(semanticEqual({ a: '' }, {})).toBe(false);
    expect(semanticEqual({ a: 0 }, {})).toBe(false);
    expect(semanticEqual([1, 2], [1, 2])).toBe(true);
    expect(semanticEqual([1, 2], [2, 1])).toBe(false);
    expect(semanticEqual([1], { 0: 1 })).toBe(false);
    expect(semanticEqual({ a: [{ b: 1 }] }, { a: [{ b: 1, c: [] }] })).toBe(true);
    expect(semanticEqual('a', 'b')).toBe(false);
    // Asymmetric pairs: a scalar or null against an object, a map against a list, lists of other lengths.
    expect(semanticEqual('', {})).toBe(false);
    expect(semanticEqual({}, '')).toBe(false);
    expect(semanticEqual(null, { a: 1 })).toBe(false);
    expect(semanticEqual({ a: 1 }, null)).toBe(false);
    expect(semanticEqual({ 0: 1 }, [1])).toBe(false);
    expect(semanticEqual([1], [1, []])).toBe(false);
    expect(semanticEqual([1, 2], [1, 3])).toBe(false);
  });

  it('specFields leaves out metadata, status and type meta', () => {
    expect(
      specFields({ kind: 'K', apiVersion: 'v', metadata: { name: 'a' }, status: { s: 1 }, spec: { x: 1 }, data: 2 }),
    ).toEqual({ spec: { x: 1 }, data: 2 });
  });

  it('nextGeneration counts from 0 when the stored object has none', () => {
    const g: Gadget = { metadata: {}, spec: { color: 'red' } };
    nextGeneration(g, { metadata: {}, spec: {} });
    expect(g.metadata.generation).toBe(1);
    const same: Gadget = { metadata: { generation: 4 }, spec: {} };
    nextGeneration(same, { metadata: { generation: 4 }, spec: { tags: [] } });
    expect(same.metadata.generation).toBe(4);
  });

  it('generationOnDeletion bumps a set generation the first time an object is marked for deletion', () => {
    const g: Gadget = { metadata: { generation: 2 } };
    generationOnDeletion(g);
    expect(g.metadata.generation).toBe(3);
    const marked: Gadget = { metadata: { generation: 2, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    generationOnDeletion(marked);
    expect(marked.metadata.generation).toBe(2);
    for (const generation of [undefined, 0]) {
      const unset: Gadget = { metadata: generation === undefined ? {} : { generation } };
      generationOnDeletion(unset);
      expect(unset.metadata.generation).toBe(generation);
    }
  });
});
