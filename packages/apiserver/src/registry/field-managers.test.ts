import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { eventsV1EventListSchema, eventsV1EventSchema, leaseListSchema, leaseSchema } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import type { JsonObject } from '@kevents/managed-fields';
import { createShape, fieldManagersOf } from './field-managers.js';
import type { ViewFieldManager } from './field-managers.js';
import { defineResource } from './resource.js';
import { widgetStrategy, widgetView } from '../testing/widget-resource.js';

const strategy = widgetStrategy<KubeObject>({ allowUnconditionalUpdate: true });

const view = (version: string, schema = leaseSchema, listSchema = leaseListSchema) =>
  widgetView<KubeObject>({ version, schema, listSchema });

const entries = (o: KubeObject) => (o.metadata.managedFields ?? []).map(({ time: _t, ...e }) => e);

describe('fieldManagersOf', () => {
  it('gives each view a field manager over its schema with the zero value of its version', () => {
    const v1 = view('v1');
    const fm = fieldManagersOf(defineResource({ resource: 'widgets', strategy, views: [v1] })).get(v1)!;
    expect(fm.empty).toEqual({
      kind: 'Widget',
      apiVersion: 'example.com/v1',
      metadata: { creationTimestamp: null },
      spec: {},
    });
    expect(Object.isFrozen(fm.empty)).toBe(true);
    const obj: KubeObject = {
      metadata: { name: 'w', labels: { a: 'b' } },
      spec: { holderIdentity: 'h' },
    } as KubeObject;
    fm.update(undefined, obj, 'creator');
    expect(obj.metadata.managedFields).toEqual([
      {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'example.com/v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { 'f:holderIdentity': {} } },
      },
    ]);
  });

  it('keeps entries written at another version of the resource when an update comes through this one', () => {
    const v1 = view('v1');
    const v2 = view('v2');
    const fms = fieldManagersOf(defineResource({ resource: 'widgets', strategy, views: [v1, v2] }));
    const stored = { metadata: { name: 'w' }, spec: { holderIdentity: 'h' } } as KubeObject;
    fms.get(v1)!.update(undefined, stored, 'one');
    const next = structuredClone(stored) as KubeObject & { spec: Record<string, unknown> };
    next.spec['leaseDurationSeconds'] = 5;
    fms.get(v2)!.update(stored, next, 'two');
    expect(entries(next)).toEqual([
      expect.objectContaining({
        manager: 'one',
        apiVersion: 'example.com/v1',
        fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
      }),
      expect.objectContaining({
        manager: 'two',
        apiVersion: 'example.com/v2',
        fieldsV1: { 'f:spec': { 'f:leaseDurationSeconds': {} } },
      }),
    ]);
  });

  it('applies, creating from the zero value, and keeps entries apart by manager', () => {
    const v1 = view('v1');
    const fm = fieldManagersOf(defineResource({ resource: 'widgets', strategy, views: [v1] })).get(v1)!;
    const config = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { holderIdentity: 'h' },
    };
    const out = fm.apply(undefined, config as JsonObject, 'applier', false) as unknown as KubeObject;
    expect(out.metadata.managedFields).toEqual([
      expect.objectContaining({
        manager: 'applier',
        operation: 'Apply',
        fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
      }),
    ]);
  });
});

describe('ViewFieldManager writes', () => {
  // Made in each test, not in the describe body: Stryker's per-test coverage counts only what a
  // test runs, and a manager built at collection time would leave its schema code to no test.
  let fm: ViewFieldManager;
  beforeEach(() => {
    const v1 = view('v1');
    fm = fieldManagersOf(defineResource({ resource: 'widgets', strategy, views: [v1] })).get(v1)!;
  });
  const widget = (metadata: KubeObject['metadata'], spec?: Record<string, unknown>): KubeObject =>
    ({ metadata, ...(spec ? { spec } : {}) }) as KubeObject;

  it("tracks lists by Kubernetes' list types: ownerReferences by uid, finalizers as a set", () => {
    const w = widget({
      name: 'w',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' }],
      finalizers: ['f'],
    });
    fm.update(undefined, w, 'one');
    expect(entries(w)[0]?.fieldsV1).toEqual({
      'f:metadata': {
        'f:finalizers': { '.': {}, 'v:"f"': {} },
        'f:ownerReferences': { '.': {}, 'k:{"uid":"u1"}': {} },
      },
    });
  });

  it('writes no managedFields member when a write leaves no entry', () => {
    const bare = widget({ name: 'w' });
    fm.update(undefined, bare, 'one');
    expect('managedFields' in bare.metadata).toBe(false);
    const stored = widget({ name: 'w', labels: { x: 'y' } }, { holderIdentity: 'h' });
    fm.update(undefined, stored, 'one');
    const emptied = widget({ name: 'w', labels: {}, managedFields: stored.metadata.managedFields }, {});
    fm.update(stored, emptied, 'one');
    expect(emptied.metadata).toEqual({ name: 'w', labels: {} });
  });

  it('keeps the stored entries on an update that sends none, and the entries a create sends', () => {
    const stored = widget({ name: 'w', labels: { x: 'y' } }, { holderIdentity: 'h' });
    fm.update(undefined, stored, 'one');
    const next = widget({ name: 'w', labels: { x: 'y' } }, { holderIdentity: 'h', leaseDurationSeconds: 3 });
    fm.update(stored, next, 'two');
    expect(entries(next).map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['one', { 'f:metadata': { 'f:labels': { '.': {}, 'f:x': {} } }, 'f:spec': { 'f:holderIdentity': {} } }],
      ['two', { 'f:spec': { 'f:leaseDurationSeconds': {} } }],
    ]);
    const sent = {
      manager: 'other',
      operation: 'Update' as const,
      apiVersion: 'example.com/v1',
      time: '2020-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:leaseDurationSeconds': {} } },
    };
    const created = widget({ name: 'w', managedFields: [sent] }, { holderIdentity: 'h' });
    fm.update(undefined, created, 'creator');
    expect(created.metadata.managedFields?.[0]).toEqual(sent);
    expect(entries(created)[1]).toMatchObject({
      manager: 'creator',
      fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
    });
  });

  it('applies to the stored object, keeping what other managers own', () => {
    const stored = widget({ name: 'w', labels: { x: 'y' } }, { holderIdentity: 'h' });
    fm.update(undefined, stored, 'one');
    const config = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { leaseDurationSeconds: 4 },
    };
    const out = fm.apply(stored, config as JsonObject, 'applier', false) as unknown as KubeObject & { spec?: unknown };
    expect(out.spec).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 4 });
    expect(entries(out).map((e) => e.manager)).toEqual(['applier', 'one']);
  });

  it("stamps each create's entries with the second it happens in, shapes seen before too", () => {
    jest.useFakeTimers({ now: new Date('2031-02-03T04:05:06.789Z') });
    try {
      const first = widget({ name: 'a' }, { holderIdentity: 'h' });
      fm.update(undefined, first, 'stamp');
      jest.setSystemTime(new Date('2031-02-03T04:05:09.001Z'));
      const second = widget({ name: 'b' }, { holderIdentity: 'i' });
      fm.update(undefined, second, 'stamp');
      expect([first, second].map((o) => o.metadata.managedFields?.[0]?.time)).toEqual([
        '2031-02-03T04:05:06Z',
        '2031-02-03T04:05:09Z',
      ]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('create shapes', () => {
  it('reduce scalars to zero or not, keeping names and lists', () => {
    expect(createShape({ a: 'x', b: '', c: 0, d: 2, e: true, f: false, g: null, h: { k: 'v' }, l: ['x'] })).toBe(
      '{"a":s,"b":e,"c":0,"d":d,"e":t,"f":f,"g":n,"h":{"k":s,},"l":["x"],}',
    );
  });

  it.each([
    ['by the stored shape', true],
    ['by the wire shape', false],
  ])('give a create the entries the field manager computes for it (any Event), %s', (_, followsShape) => {
    const v1 = { ...view('v1', eventsV1EventSchema, eventsV1EventListSchema), externalFollowsShape: followsShape };
    const fm = fieldManagersOf(defineResource({ resource: 'widgets', strategy, views: [v1] })).get(v1)!;
    const str = fc.oneof(fc.constant(''), fc.constantFrom('a', 'b'));
    const event = fc.record(
      {
        metadata: fc.record(
          {
            name: fc.constant('e'),
            labels: fc.dictionary(fc.constantFrom('a', 'b', 'c'), str),
            finalizers: fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
          },
          { requiredKeys: ['name'] },
        ),
        note: str,
        reason: str,
        deprecatedCount: fc.constantFrom(0, 1),
        regarding: fc.record({ kind: str, name: str }, { requiredKeys: [] }),
        series: fc.record({ count: fc.constantFrom(0, 2) }),
      },
      { requiredKeys: ['metadata'] },
    );
    fc.assert(
      fc.property(event, fc.constantFrom('m1', 'm2'), (e, manager) => {
        const viaShape = structuredClone(e) as unknown as KubeObject;
        fm.update(undefined, viaShape, manager);
        const direct = fm.manager.updateNoErrors(
          fm.empty,
          fm.external(structuredClone(e) as unknown as KubeObject),
          manager,
        );
        const want = ((direct['metadata'] as JsonObject)['managedFields'] ??
          []) as unknown as KubeObject['metadata']['managedFields'];
        expect(entries(viaShape)).toEqual((want ?? []).map(({ time: _t, ...x }) => x));
      }),
    );
  });
});
