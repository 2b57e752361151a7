/**
 * kube's field manager tests (k8s.io/apimachinery/pkg/util/managedfields/internal/*_test.go and
 * k8s.io/apiserver handlers/create_test.go), ported to the FieldManager, on a small Pod-like
 * typed schema built with the schema builders.
 */
import { describe, expect, test } from '@jest/globals';
import type { ManagedFieldsEntry } from '@kevents/api';
import { fieldsV1ToSet, setToFieldsV1 } from '../fieldpath/fields-v1.js';
import { keyElementOf } from '../fieldpath/path-element.js';
import { makePath, pathString } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import { atomicList, mapList, mapType, scalarType, structType } from '../schema/builders.js';
import { deduced } from '../schema/deduced.js';
import type { JsonObject } from '../value/json-value.js';
import { ConflictsError, conflictStatus } from './conflicts.js';
import { ApplyBadRequestError } from './errors.js';
import { FieldManager } from './field-manager.js';
import type { FieldManagerOptions } from './field-manager.js';
import { lastAppliedConfigAnnotation } from './last-applied.js';
import { buildManagerIdentifier } from './manager-identifier.js';
import { decodeManagedFields, encodeManagedFields } from './managed-fields-entries.js';
import { ignoreManagedFieldsTimestamps } from './timestamps.js';
import { managerOrUserAgent } from './user-agent.js';

const str = scalarType('string');
const untyped = scalarType('untyped');
const objectMeta = structType({
  name: str,
  namespace: str,
  uid: str,
  resourceVersion: str,
  creationTimestamp: untyped,
  labels: mapType(str),
  annotations: mapType(str),
  managedFields: atomicList(deduced),
});
const container = structType({ name: str, image: str });
const pod = structType({
  apiVersion: str,
  kind: str,
  metadata: objectMeta,
  spec: structType({ replicas: scalarType('numeric'), containers: mapList(container, ['name']) }),
});

/** internaltesting.TestFieldManager: keeps the live object across operations, as a store would. */
class TestFieldManager {
  live: JsonObject = {};
  readonly fm: FieldManager;
  private clock = Date.parse('2026-01-01T00:00:00Z');
  constructor(options: Partial<FieldManagerOptions> = {}) {
    this.fm = new FieldManager({
      groupVersion: 'v1',
      kind: 'Pod',
      type: pod,
      now: () => new Date((this.clock += 1000)),
      ...options,
    });
  }
  private stored(obj: JsonObject): JsonObject {
    const meta = (obj['metadata'] ??= {}) as JsonObject;
    meta['uid'] ??= 'uid-1';
    return obj;
  }
  update(obj: JsonObject, manager: string): void {
    this.live = this.stored(this.fm.update(this.live, structuredClone(obj), manager));
  }
  apply(obj: JsonObject, manager: string, force = false): void {
    this.live = this.stored(this.fm.apply(this.live, structuredClone(obj), manager, force));
  }
  managedFields(): ManagedFieldsEntry[] {
    return ((this.live['metadata'] as JsonObject | undefined)?.['managedFields'] ??
      []) as unknown as ManagedFieldsEntry[];
  }
  managers(): string[] {
    return this.managedFields().map((e) => `${e.manager}/${e.operation}`);
  }
  paths(manager: string): string[] {
    const e = this.managedFields().find((m) => m.manager === manager);
    return e ? fieldsV1ToSet(e.fieldsV1).paths().map(pathString) : [];
  }
}

const emptyPod = (): JsonObject => ({ metadata: { creationTimestamp: null }, spec: { containers: null } });

const podWith = (spec: JsonObject, labels?: Record<string, string>): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: labels ? { name: 'p', labels } : { name: 'p' },
  spec,
});

describe('managed fields entries (managedfields_test.go)', () => {
  test.each([
    [
      { manager: 'foo', operation: 'Update' as const, apiVersion: 'v1' },
      '{"manager":"foo","operation":"Update","apiVersion":"v1"}',
    ],
    [{ manager: 'foo', operation: 'Apply' as const, apiVersion: 'v1' }, '{"manager":"foo","operation":"Apply"}'],
    [
      { manager: 'foo', operation: 'Apply' as const, apiVersion: 'v1', subresource: 'scale' },
      '{"manager":"foo","operation":"Apply","subresource":"scale"}',
    ],
  ])('TestBuildManagerIdentifier %#', (entry, expected) => {
    expect(buildManagerIdentifier({ ...entry, time: '2001-02-03T04:05:06Z' })).toBe(expected);
  });

  test('TestSortEncodedManagedFields: Apply first, then time, then manager; a round trip keeps fieldsV1', () => {
    const fv = setToFieldsV1(FieldSet.of(makePath('a')));
    const e = (manager: string, operation: 'Apply' | 'Update', time?: string): ManagedFieldsEntry => ({
      manager,
      operation,
      apiVersion: 'v1',
      ...(time ? { time } : {}),
      fieldsType: 'FieldsV1',
      fieldsV1: fv,
    });
    const out = encodeManagedFields(
      decodeManagedFields([
        e('b', 'Update', '2001-01-01T03:00:00Z'),
        e('a', 'Update', '2001-01-01T01:00:00Z'),
        e('z', 'Apply'),
        e('a', 'Apply', '2001-01-01T01:00:00Z'),
      ]),
    )!;
    expect(out.map((x) => `${x.manager}/${x.operation}/${x.time ?? ''}`)).toEqual([
      'z/Apply/',
      'a/Apply/2001-01-01T01:00:00Z',
      'a/Update/2001-01-01T01:00:00Z',
      'b/Update/2001-01-01T03:00:00Z',
    ]);
    expect(Object.keys(out[0]!)).toEqual(['manager', 'operation', 'apiVersion', 'fieldsType', 'fieldsV1']);
    expect(out[0]!.fieldsV1).toEqual({ 'f:a': {} });
  });

  test.each([
    [
      { manager: 'a', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' },
      'operation must be `Apply` or `Update`',
    ],
    [{ manager: 'a', operation: 'Apply', fieldsType: 'FieldsV1' }, 'apiVersion must not be empty'],
    [{ manager: 'a', operation: 'Apply', apiVersion: 'v1' }, 'missing fieldsType in managed fields entry 0'],
    [
      { manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV2' },
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    ],
  ])('TestHasOperation / TestHasAPIVersion / TestHasFieldsType %#', (entry, message) => {
    expect(() => decodeManagedFields([entry as ManagedFieldsEntry])).toThrow(message);
  });
});

describe('conflicts (conflict_test.go TestNewConflictError)', () => {
  test('one Update conflict', () => {
    const s = conflictStatus([
      {
        manager: '{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}',
        path: makePath('spec', 'replicas'),
      },
    ]);
    expect(s).toEqual({
      status: 'Failure',
      code: 409,
      reason: 'Conflict',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "foo" using v1 at 2001-02-03T04:05:06Z',
            field: '.spec.replicas',
          },
        ],
      },
      message: 'Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
    });
  });

  test('two managers, sorted by identifier in the message', () => {
    const s = conflictStatus([
      {
        manager: '{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}',
        path: makePath('spec', 'replicas'),
      },
      { manager: '{"manager":"bar","operation":"Apply"}', path: makePath('metadata', 'labels', 'app') },
    ]);
    expect(s.details.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "foo" using v1 at 2001-02-03T04:05:06Z',
        field: '.spec.replicas',
      },
      { reason: 'FieldManagerConflict', message: 'conflict with "bar"', field: '.metadata.labels.app' },
    ]);
    expect(s.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "bar":\n- .metadata.labels.app\nconflicts with "foo" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas',
    );
  });

  test('subresource', () => {
    const s = conflictStatus([
      {
        manager:
          '{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}',
        path: makePath('spec', 'replicas'),
      },
    ]);
    expect(s.message).toBe(
      'Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
    );
  });
});

describe('managerOrUserAgent (apiserver handlers/create_test.go TestManagerOrUserAgent)', () => {
  test.each([
    [
      '',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.121 Safari/537.36',
      'Mozilla',
    ],
    ['', 'f'.repeat(129) + '/Something', 'f'.repeat(128)],
    ['', '🍔'.repeat(60), '🍔'.repeat(32)],
    ['manager', 'userAgent', 'manager'],
    ['', 'kubectl-client-side-apply/v1.35.0 (linux/amd64) kubernetes/abc', 'kubectl-client-side-apply'],
    ['', 'a\tb\u0000c/d', 'abc'],
    // every printable ASCII character but the slash, and exactly 128 of them
    ['', ' !"#$%&\'()*+,-.0123456789:;<=>?@AZ[\\]^_`az{|}~/v1', ' !"#$%&\'()*+,-.0123456789:;<=>?@AZ[\\]^_`az{|}~'],
    ['', `${'x'.repeat(128)}/v1`, 'x'.repeat(128)],
    ['', 'é-controller/v1', 'é-controller'],
  ])('%j %j', (manager, userAgent, expected) => {
    expect(managerOrUserAgent(manager, userAgent)).toBe(expected);
  });
});

describe('capping Update managers (capmanagers_test.go)', () => {
  const set = (...fields: string[]) => setToFieldsV1(FieldSet.of(...fields.map((f) => makePath(f))));
  const time = (order: number) =>
    new Date(Date.parse('0001-01-01T00:00:00Z') + order * 3600_000).toISOString().replace('.000Z', 'Z');
  const entry = (manager: string, apiVersion: string, order: number, fields: string[]): ManagedFieldsEntry => ({
    manager,
    operation: 'Update',
    apiVersion,
    time: time(order),
    fieldsType: 'FieldsV1',
    fieldsV1: set(...fields),
  });
  test.each<[string, ManagedFieldsEntry[], ManagedFieldsEntry[]]>([
    [
      'one version, no ancient changes',
      [
        entry('update-manager1', 'v1', 1, ['a']),
        entry('update-manager2', 'v1', 2, ['b']),
        entry('update-manager3', 'v1', 3, ['c']),
        entry('update-manager4', 'v1', 4, ['d']),
      ],
      [
        entry('ancient-changes', 'v1', 2, ['a', 'b']),
        entry('update-manager3', 'v1', 3, ['c']),
        entry('update-manager4', 'v1', 4, ['d']),
      ],
    ],
    [
      'one version, one ancient changes',
      [
        entry('ancient-changes', 'v1', 2, ['a', 'b']),
        entry('update-manager3', 'v1', 3, ['c']),
        entry('update-manager4', 'v1', 4, ['d']),
        entry('update-manager5', 'v1', 5, ['e']),
      ],
      [
        entry('ancient-changes', 'v1', 3, ['a', 'b', 'c']),
        entry('update-manager4', 'v1', 4, ['d']),
        entry('update-manager5', 'v1', 5, ['e']),
      ],
    ],
    [
      'two versions, no ancient changes',
      [
        entry('update-manager1', 'v1', 1, ['a']),
        entry('update-manager2', 'v2', 2, ['b']),
        entry('update-manager3', 'v1', 3, ['c']),
        entry('update-manager4', 'v1', 4, ['d']),
        entry('update-manager5', 'v1', 5, ['e']),
      ],
      [
        entry('update-manager2', 'v2', 2, ['b']),
        entry('ancient-changes', 'v1', 4, ['a', 'c', 'd']),
        entry('update-manager5', 'v1', 5, ['e']),
      ],
    ],
    [
      'three versions, one ancient changes',
      [
        entry('update-manager2', 'v2', 2, ['b']),
        entry('ancient-changes', 'v1', 4, ['a', 'c', 'd']),
        entry('update-manager5', 'v1', 5, ['e']),
        entry('update-manager6', 'v3', 6, ['f']),
        entry('update-manager7', 'v2', 7, ['g']),
      ],
      [
        entry('ancient-changes', 'v1', 5, ['a', 'c', 'd', 'e']),
        entry('update-manager6', 'v3', 6, ['f']),
        entry('ancient-changes', 'v2', 7, ['b', 'g']),
      ],
    ],
    [
      'four versions, two ancient changes',
      [
        entry('ancient-changes', 'v1', 5, ['a', 'c', 'd', 'e']),
        entry('update-manager6', 'v3', 6, ['f']),
        entry('ancient-changes', 'v2', 7, ['b', 'g']),
        entry('update-manager8', 'v4', 8, ['h']),
      ],
      [
        entry('ancient-changes', 'v1', 5, ['a', 'c', 'd', 'e']),
        entry('update-manager6', 'v3', 6, ['f']),
        entry('ancient-changes', 'v2', 7, ['b', 'g']),
        entry('update-manager8', 'v4', 8, ['h']),
      ],
    ],
  ])('TestCapUpdateManagers: %s', (_name, input, expected) => {
    const f = new TestFieldManager({ type: deduced, maxUpdateManagers: 3 });
    const live: JsonObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { uid: 'u', managedFields: input as unknown as JsonObject[] },
    };
    f.live = live;
    f.update(structuredClone(live), 'no-op-update');
    expect(f.managedFields()).toEqual(expected);
    // expectIdempotence
    const before = structuredClone(f.managedFields());
    f.update(structuredClone(f.live), 'no-op-update');
    expect(f.managedFields()).toEqual(before);
  });

  test('TestCapManagersManagerMergesEntries', () => {
    const f = new TestFieldManager({ maxUpdateManagers: 3 });
    const labels = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, 'true']));
    f.update(podWith({}, labels('one')), 'fieldmanager_test_update_1');
    f.update(podWith({}, labels('one', 'two')), 'fieldmanager_test_update_2');
    f.update(podWith({}, labels('one', 'two', 'three')), 'fieldmanager_test_update_3');
    f.update(podWith({}, labels('one', 'two', 'three', 'four')), 'fieldmanager_test_update_4');
    expect(f.managedFields().map((e) => e.manager)).toEqual([
      'ancient-changes',
      'fieldmanager_test_update_3',
      'fieldmanager_test_update_4',
    ]);
    expect(f.paths('ancient-changes')).toEqual(
      expect.arrayContaining(['.metadata.labels.one', '.metadata.labels.two']),
    );
    expect(f.paths('fieldmanager_test_update_3')).toEqual(['.metadata.labels.three']);
    expect(f.paths('fieldmanager_test_update_4')).toEqual(['.metadata.labels.four']);
  });
});

describe('apply and update through the field manager', () => {
  const nginx = () => podWith({ containers: [{ name: 'nginx', image: 'nginx:latest' }] }, { app: 'nginx' });

  test('TestNoUpdateBeforeFirstApply: create-on-apply gives one Apply entry, metadata stripped', () => {
    const f = new TestFieldManager();
    f.apply(nginx(), 'fieldmanager_test_apply');
    expect(f.managers()).toEqual(['fieldmanager_test_apply/Apply']);
    expect(f.managedFields()[0]!.fieldsV1).toEqual({
      // an Apply entry has members only for leaves and list items (toFieldSet): no "." under f:labels
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
    });
    expect(f.managedFields()[0]!.apiVersion).toBe('v1');
    expect(f.managedFields()[0]!.time).toBe('2026-01-01T00:00:01Z');
  });

  test('TestUpdateBeforeFirstApply: an object stored without managedFields is owned by before-first-apply on the first apply', () => {
    const f = new TestFieldManager();
    f.live = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'existing', labels: { app: 'my-nginx' } } };
    f.update(
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'existing', labels: { app: 'my-nginx' } } },
      'fieldmanager_test_update',
    );
    expect(f.managedFields()).toEqual([]);
    let err: unknown;
    try {
      f.apply(nginx(), 'fieldmanager_test_apply');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictsError);
    const status = conflictStatus((err as ConflictsError).conflicts);
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "before-first-apply" using v1',
        field: '.metadata.labels.app',
      },
    ]);
    f.apply(nginx(), 'fieldmanager_test_apply', true);
    expect(f.managers()).toEqual(['fieldmanager_test_apply/Apply', 'before-first-apply/Update']);
  });

  test('a fixed sequence: create, update, apply, conflicting apply (409 text), forced apply, dropped field', () => {
    const f = new TestFieldManager();
    // create (kubectl create): the live object is the kind's zero value, as kube's creater.New
    // gives it (non-omitempty fields present: creationTimestamp null, spec.containers null)
    f.live = emptyPod();
    f.update(podWith({ replicas: 1, containers: [{ name: 'a', image: 'a:1' }] }, { app: 'x' }), 'kubectl-create');
    expect(f.managers()).toEqual(['kubectl-create/Update']);
    expect(f.paths('kubectl-create').sort()).toEqual(
      [
        '.metadata.labels',
        '.metadata.labels.app',
        '.spec.containers[name="a"]',
        '.spec.containers[name="a"].image',
        '.spec.containers[name="a"].name',
        '.spec.replicas',
      ].sort(),
    );
    // update (kubectl edit) of one field: the field moves to the editor
    f.update(podWith({ replicas: 2, containers: [{ name: 'a', image: 'a:1' }] }, { app: 'x' }), 'kubectl-edit');
    expect(f.paths('kubectl-edit')).toEqual(['.spec.replicas']);
    expect(f.paths('kubectl-create')).not.toContain('.spec.replicas');
    // apply of a field another manager owns with another value: conflict
    expect(() => f.apply(podWith({ replicas: 3 }), 'ci')).toThrow(ConflictsError);
    try {
      f.apply(podWith({ replicas: 3 }), 'ci');
    } catch (e) {
      expect(conflictStatus((e as ConflictsError).conflicts).message).toBe(
        'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .spec.replicas',
      );
    }
    // apply with the same value: shared, no conflict
    f.apply(podWith({ replicas: 2 }, { team: 't' }), 'ci');
    expect(f.paths('ci').sort()).toEqual(['.metadata.labels.team', '.spec.replicas']);
    expect(f.paths('kubectl-edit')).toEqual(['.spec.replicas']);
    // forced apply takes the field over
    f.apply(podWith({ replicas: 5 }, { team: 't' }), 'ci', true);
    expect(f.paths('kubectl-edit')).toEqual([]);
    expect(f.managers()).toEqual(['ci/Apply', 'kubectl-create/Update']);
    // dropping a field the applier alone owns removes it
    f.apply(podWith({ replicas: 5 }), 'ci');
    expect((f.live['metadata'] as JsonObject)['labels']).toEqual({ app: 'x' });
    expect(f.paths('ci')).toEqual(['.spec.replicas']);
    expect((f.live['spec'] as JsonObject)['replicas']).toBe(5);
  });

  test('a repeated apply changes nothing but entry times, which ignoreManagedFieldsTimestamps restores', () => {
    const f = new TestFieldManager();
    f.apply(nginx(), 'ci');
    const before = structuredClone(f.live);
    const again = f.fm.apply(f.live, nginx(), 'ci', false);
    expect(ignoreManagedFieldsTimestamps(again, before)).toEqual(before);
    const changed = f.fm.apply(
      f.live,
      podWith({ containers: [{ name: 'nginx', image: 'nginx:2' }] }, { app: 'nginx' }),
      'ci',
      false,
    );
    expect(ignoreManagedFieldsTimestamps(changed, before)).toBe(changed);
  });

  test('TestApplyUsingLastAppliedAnnotation: kubectl takes over client-side apply fields whose values match last-applied', () => {
    const f = new TestFieldManager();
    const lastApplied = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { replicas: 3, containers: [{ name: 'c', image: 'i:1' }] },
    };
    const original = podWith({ replicas: 100, containers: [{ name: 'c', image: 'i:1' }] }, { app: 'my-app' });
    (original['metadata'] as JsonObject)['annotations'] = {
      [lastAppliedConfigAnnotation]: JSON.stringify(lastApplied),
    };
    f.update(original, 'kubectl-client-side-apply');
    // replicas differs from last-applied: not allowed; the label is not in last-applied: not allowed; the image is.
    const applied = podWith({ replicas: 333, containers: [{ name: 'c', image: 'i:2' }] }, { app: 'new' });
    let conflicts: string[] = [];
    try {
      f.apply(applied, 'kubectl');
    } catch (e) {
      conflicts = (e as ConflictsError).conflicts.map((c) => pathString(c.path)).sort();
    }
    expect(conflicts).toEqual(['.metadata.labels.app', '.spec.replicas']);
    // only allowed fields change: no conflict, ownership moves to kubectl, the annotation is rewritten
    f.apply(podWith({ replicas: 100, containers: [{ name: 'c', image: 'i:2' }] }), 'kubectl');
    expect(f.paths('kubectl')).toEqual(expect.arrayContaining(['.spec.containers[name="c"].image']));
    expect(f.paths('kubectl-client-side-apply')).not.toContain('.spec.containers[name="c"].image');
    const annotation = ((f.live['metadata'] as JsonObject)['annotations'] as JsonObject)[
      lastAppliedConfigAnnotation
    ] as string;
    expect(annotation).toBe(
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"image":"i:2","name":"c"}],"replicas":100}}\n',
    );
    // another manager name gets the conflict
    expect(() => f.apply(podWith({ containers: [{ name: 'c', image: 'i:3' }] }), 'other')).toThrow(ConflictsError);
  });

  test('TestVersionCheck and managedFields in an applied object are 400s', () => {
    const f = new TestFieldManager();
    expect(() => f.apply({ apiVersion: 'apps/v1', kind: 'Pod' }, 'm')).toThrow(
      new ApplyBadRequestError('invalid object type: apps/v1, Kind=Pod'),
    );
    expect(() => f.apply({ apiVersion: 'v1', kind: 'Foo' }, 'm')).toThrow('invalid object type: /v1, Kind=Foo');
    expect(() => f.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { managedFields: [] } }, 'm')).toThrow(
      'metadata.managedFields must be nil',
    );
  });

  test('TestFieldManagerUpdateNoErrors-like: an object that does not fit keeps the live managedFields', () => {
    const f = new TestFieldManager();
    f.apply(nginx(), 'ci');
    const live = f.live;
    const bad = { ...structuredClone(live), spec: { containers: [{ image: 'no name' }] } };
    expect(() => f.fm.update(live, bad, 'x')).toThrow();
    const out = f.fm.updateNoErrors(live, bad, 'x');
    expect((out['metadata'] as JsonObject)['managedFields']).toEqual((live['metadata'] as JsonObject)['managedFields']);
  });

  test('a request setting managedFields: [] resets them; a valid list replaces them', () => {
    const f = new TestFieldManager();
    f.apply(nginx(), 'ci');
    const reset = structuredClone(f.live);
    (reset['metadata'] as JsonObject)['managedFields'] = [];
    f.update(reset, 'kubectl-edit');
    expect(f.managers()).toEqual([]);
  });

  test('an Update manager conflicts under its identifier; the Status prints it as kube does', () => {
    const f = new TestFieldManager();
    f.update(podWith({ containers: [{ name: 'a', image: '1' }] }), 'u');
    let caught = false;
    try {
      f.apply(podWith({ containers: [{ name: 'a', image: '2' }] }), 'ap');
    } catch (e) {
      caught = true;
      expect((e as Error).message).toBe(
        'conflict with "{\\"manager\\":\\"u\\",\\"operation\\":\\"Update\\",\\"apiVersion\\":\\"v1\\"}": .spec.containers[name="a"].image',
      );
      expect(conflictStatus((e as ConflictsError).conflicts).details.causes[0]!.field).toBe(
        '.spec.containers[name="a"].image',
      );
    }
    expect(caught).toBe(true);
    expect(keyElementOf({ name: 'a' })).toEqual({ kind: 'key', fields: [{ name: 'name', value: 'a' }] });
  });
});

describe('an applied object that does not fit the schema (structuredmerge.go)', () => {
  test("is a bad request (kubernetes/kubernetes#139253), with kube's message", () => {
    const f = new TestFieldManager();
    let caught: unknown;
    try {
      f.apply(podWith({ nope: 1 }), 'm');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApplyBadRequestError);
    expect((caught as Error).message).toBe(
      'failed to create typed patch object (/p; /v1, Kind=Pod): .spec.nope: field not declared in schema',
    );
  });
});

describe('objects with many managers', () => {
  const roundTrip = (o: JsonObject): JsonObject => JSON.parse(JSON.stringify(o)) as JsonObject;

  test('a write hands back the FieldsV1 of the entries it leaves alone as written before (read once, not written again)', () => {
    const f = new TestFieldManager();
    f.live = emptyPod();
    for (let i = 0; i < 40; i++) {
      f.apply(podWith({}, { [`k${i}`]: 'v' }), `m${i}`);
      f.live = roundTrip(f.live);
    }
    f.apply(podWith({}, { k5: 'changed' }), 'm5');
    const first = new Map(f.managedFields().map((e) => [e.manager, e]));
    f.live = roundTrip(f.live);
    const next = roundTrip(f.live);
    (next['metadata'] as { labels: Record<string, string> }).labels['k7'] = 'edited';
    f.update(next, 'editor');
    const second = f.managedFields();
    expect(second).toHaveLength(42);
    for (const e of second) {
      if (e.manager === 'editor' || e.manager === 'm7') continue;
      expect(e.fieldsV1).toBe(first.get(e.manager)!.fieldsV1);
      expect(Object.isFrozen(e.fieldsV1)).toBe(true);
    }
    expect(f.paths('m7')).toEqual(['.spec']);
    expect(f.paths('editor')).toEqual(['.metadata.labels.k7']);
  });
});
