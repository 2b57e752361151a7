import { describe, expect, it } from '@jest/globals';
import { leaseListSchema, leaseSchema } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import { schemaView } from './schema-view.js';
import { defineResource } from './resource.js';

interface W extends KubeObject {
  spec?: { holderIdentity?: string };
}

const base = {
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  singularName: 'widget',
  schema: leaseSchema,
  listSchema: leaseListSchema,
};

describe('schemaView', () => {
  it('describes a group version', () => {
    const v = schemaView<W>({ ...base, group: 'example.com' });
    expect(v).toMatchObject({
      group: 'example.com',
      version: 'v1',
      groupVersion: 'example.com/v1',
      kind: 'Widget',
      listKind: 'WidgetList',
      resource: 'widgets',
      singularName: 'widget',
      gr: { group: 'example.com', resource: 'widgets' },
      pathPrefix: '/apis/example.com/v1',
      schema: leaseSchema,
      listSchema: leaseListSchema,
    });
    expect('shortNames' in v).toBe(false);
    expect('categories' in v).toBe(false);
    expect('storageVersionHash' in v).toBe(false);
  });

  it('the core group, and the optional fields', () => {
    const v = schemaView<W>({
      ...base,
      group: '',
      listKind: 'Widgets',
      shortNames: ['wd'],
      categories: ['all'],
      storageVersionHash: 'abc',
      fieldLabels: ['spec.holderIdentity'],
    });
    expect([v.groupVersion, v.pathPrefix, v.listKind]).toEqual(['v1', '/api/v1', 'Widgets']);
    expect([v.shortNames, v.categories, v.storageVersionHash]).toEqual([['wd'], ['all'], 'abc']);
    expect(v.fieldLabel('metadata.name')).toBe('metadata.name');
    expect(v.fieldLabel('metadata.namespace')).toBe('metadata.namespace');
    expect(v.fieldLabel('spec.holderIdentity')).toBe('spec.holderIdentity');
    expect(v.fieldLabel('spec.other')).toBeUndefined();
    const plain = schemaView<W>({ ...base, group: '' });
    expect(plain.fieldLabel('spec.holderIdentity')).toBeUndefined();
    expect(plain.fieldLabel('metadata.name')).toBe('metadata.name');
  });

  it('converts to and from the wire form', () => {
    const v = schemaView<W>({ ...base, group: 'example.com' });
    const ext: Record<string, unknown> = {
      kind: 'Widget',
      apiVersion: 'example.com/v1',
      metadata: { name: 'a' },
      spec: { holderIdentity: 'h' },
    };
    const internal = v.toInternal(ext);
    expect(internal).toEqual({ metadata: { name: 'a' }, spec: { holderIdentity: 'h' } });
    const withType = { ...internal, kind: 'Old', apiVersion: 'old/v0' } as W;
    expect(v.toExternal(withType)).toEqual({
      kind: 'Widget',
      apiVersion: 'example.com/v1',
      metadata: { name: 'a', creationTimestamp: null },
      spec: { holderIdentity: 'h' },
    });
    expect(Object.keys(v.toExternal(internal)).slice(0, 2)).toEqual(['kind', 'apiVersion']);
    expect(v.toListItem(withType)).toEqual({
      metadata: { name: 'a', creationTimestamp: null },
      spec: { holderIdentity: 'h' },
    });
    expect(v.toJSON(withType, true)).toBe(
      '{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"a","creationTimestamp":null},"spec":{"holderIdentity":"h"}}',
    );
    expect(v.toJSON(withType, false)).toBe(
      '{"metadata":{"name":"a","creationTimestamp":null},"spec":{"holderIdentity":"h"}}',
    );
    const core = schemaView<W>({ ...base, group: '' });
    expect(core.toJSON(internal, true).startsWith('{"kind":"Widget","apiVersion":"v1","metadata"')).toBe(true);
    expect(JSON.parse(core.toJSON(internal, true))).toEqual(core.toExternal(internal));
  });

  it('defineResource answers its definition', () => {
    const v = schemaView<W>({ ...base, group: '' });
    const def = { resource: 'widgets', strategy: {} as never, views: [v] };
    expect(defineResource(def)).toBe(def);
  });
});
