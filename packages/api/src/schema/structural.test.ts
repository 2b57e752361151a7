import { describe, expect, it } from '@jest/globals';
import { decodeObject } from './decode.js';
import { kindListSchema, kindSchema } from './kind-schemas.js';
import { leaseListSchema } from './lease-schemas.js';
import { structuralViolations } from './structural.js';
import { arrayOf, enumOf, field, int32, mapOf, obj, str } from './types.js';
import type { ObjectSchema } from './types.js';

const itemSchema: ObjectSchema = {
  id: 'com.example.v1.Item',
  goType: 'Item',
  description: '',
  fields: [
    field('name', str(), 'omitempty', '', { required: true }),
    field('mode', enumOf(['on', 'off']), 'omitempty', ''),
  ],
};
const specSchema: ObjectSchema = {
  id: 'com.example.v1.ThingSpec',
  goType: 'ThingSpec',
  description: '',
  fields: [
    field('color', enumOf(['red', 'blue']), 'omitempty', '', { required: true }),
    field('size', int32, 'omitempty', '', { required: true }),
    field('items', arrayOf(obj(() => itemSchema)), 'omitempty', ''),
    field('modes', mapOf(enumOf(['on', 'off'])), 'omitempty', ''),
    field('tags', arrayOf(enumOf(['a', 'b'])), 'omitempty', ''),
  ],
};
const thing = kindSchema({
  id: 'com.example.v1.Thing',
  group: 'example.com',
  version: 'v1',
  kind: 'Thing',
  description: 'A thing.',
  structural: true,
  fields: [
    field(
      'spec',
      obj(() => specSchema),
      'always',
      '',
      { required: true },
    ),
  ],
});

/** The violations of a body as the server sees it: decoded first (nulls dropped, times normalized). */
const check = (body: unknown, schema: ObjectSchema = thing) =>
  structuralViolations(decodeObject<Record<string, unknown>>(body, schema).value, schema).map(
    ({ path: _p, ...v }) => v,
  );

describe('structuralViolations: required and enum of a structural kind', () => {
  it('reports properties first (in schema order), then the missing required ones, with kube-openapi paths', () => {
    const r = check({
      metadata: { name: 'x', ownerReferences: [{}] },
      spec: {
        items: [{ mode: 'on' }, { name: 'b', mode: 'up' }],
        modes: { z: 'on', y: 'sideways' },
        tags: ['a', 'c'],
        color: 'green',
      },
    });
    expect(r).toEqual([
      { type: 'NotSupported', field: 'spec.color', value: 'green', supported: ['red', 'blue'] },
      { type: 'Required', field: 'spec.items[0].name' },
      { type: 'NotSupported', field: 'spec.items[1].mode', value: 'up', supported: ['on', 'off'] },
      { type: 'NotSupported', field: 'spec.modes.y', value: 'sideways', supported: ['on', 'off'] },
      { type: 'NotSupported', field: 'spec.tags[1]', value: 'c', supported: ['a', 'b'] },
      { type: 'Required', field: 'spec.size' },
    ]);
  });

  it('reads null as absent, accepts an empty string only when the enum has it, and leaves metadata to ObjectMeta validation', () => {
    expect(check({ spec: { color: null, size: 0 } })).toEqual([{ type: 'Required', field: 'spec.color' }]);
    expect(check({ spec: { color: '', size: 1 } })).toEqual([
      { type: 'NotSupported', field: 'spec.color', value: '', supported: ['red', 'blue'] },
    ]);
    expect(check({})).toEqual([{ type: 'Required', field: 'spec' }]);
    expect(check({ metadata: { ownerReferences: [{}] }, spec: { color: 'red', size: 1 } })).toEqual([]);
  });

  it('gives the path of each violation as segments, for ratcheting', () => {
    const v = structuralViolations({ spec: { color: 'red', items: [{ mode: 'x' }], modes: { 'a.b': 'x' } } }, thing);
    expect(v.map((x) => [x.field, x.path])).toEqual([
      ['spec.items[0].mode', ['spec', 'items', 0, 'mode']],
      ['spec.items[0].name', ['spec', 'items', 0, 'name']],
      ['spec.modes.a.b', ['spec', 'modes', 'a.b']],
      ['spec.size', ['spec', 'size']],
    ]);
  });

  it('checks any schema it is given; the server applies it only to structural kinds', () => {
    expect(structuralViolations({ items: null }, leaseListSchema).map((x) => x.field)).toEqual(['items']);
    expect(structuralViolations({ items: [] }, leaseListSchema)).toEqual([]);
  });
});

describe('kindSchema and kindListSchema', () => {
  it('write kind, apiVersion and metadata first, then the fields; the list has ListMeta and required items', () => {
    expect(thing.fields.map((f) => f.name)).toEqual(['kind', 'apiVersion', 'metadata', 'spec']);
    expect(thing.gvk).toEqual({ group: 'example.com', version: 'v1', kind: 'Thing' });
    expect([thing.goType, thing.structural]).toEqual(['Thing', true]);
    const list = kindListSchema(thing);
    expect([list.id, list.goType, list.gvk, list.description]).toEqual([
      'com.example.v1.ThingList',
      'ThingList',
      { group: 'example.com', version: 'v1', kind: 'ThingList' },
      'ThingList is a list of Thing.',
    ]);
    expect(list.fields.map((f) => [f.name, f.required ?? false])).toEqual([
      ['kind', false],
      ['apiVersion', false],
      ['metadata', false],
      ['items', true],
    ]);
    expect(list.structural).toBeUndefined();
    const items = list.fields[3]!.type;
    expect(items.kind === 'array' && items.items.kind === 'object' && items.items.schema()).toBe(thing);
    expect(() => kindListSchema(specSchema)).toThrow('com.example.v1.ThingSpec is not a top-level kind');
  });
});
