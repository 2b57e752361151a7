import { describe, expect, test } from '@jest/globals';
import { eventsV1EventSchema, leaseSchema } from '@kevents/api';
import { keyElementOf, valueElement } from '../fieldpath/path-element.js';
import { makePath, pathString } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import { FieldManager } from '../managed/field-manager.js';
import { ConflictsError, conflictStatus } from '../managed/conflicts.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { validate } from '../typed/validate.js';
import type { JsonObject } from '../value/json-value.js';
import { fromObjectSchema, listRelationship, mapRelationship, SchemaExtensionError } from './from-object-schema.js';
import type { ExtensionsLookup } from './from-object-schema.js';

/** The entries of packages/api's openapi/kubernetes-extensions.ts that these tests touch. */
const table: Record<string, { schema?: Record<string, unknown>; fields?: Record<string, Record<string, unknown>> }> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    fields: {
      finalizers: { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
      ownerReferences: { 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-list-type': 'map' },
      managedFields: { 'x-kubernetes-list-type': 'atomic' },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': { schema: { 'x-kubernetes-map-type': 'atomic' } },
  'io.k8s.api.core.v1.ObjectReference': { schema: { 'x-kubernetes-map-type': 'atomic' } },
};
const extensions: ExtensionsLookup = (id, field) =>
  (field === undefined ? table[id]?.schema : table[id]?.fields?.[field]) ?? {};

const paths = (s: FieldSet): string[] => s.paths().map(pathString).sort();

describe('fromObjectSchema (kube-openapi schemaconv rules over kevents schemas)', () => {
  const lease = fromObjectSchema(leaseSchema, { extensions });
  const event = fromObjectSchema(eventsV1EventSchema, { extensions });

  test('list and map types come from the extensions (getListElementRelationship, getMapElementRelationship)', () => {
    expect(listRelationship({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'] })).toEqual({
      relationship: 'associative',
      keys: ['uid'],
    });
    expect(
      listRelationship({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }),
    ).toEqual({ relationship: 'associative', keys: ['name'] });
    expect(listRelationship({})).toEqual({ relationship: 'atomic', keys: [] });
    expect(() => listRelationship({ 'x-kubernetes-list-type': 'map' })).toThrow(SchemaExtensionError);
    expect(mapRelationship({ 'x-kubernetes-map-type': 'granular' })).toBe('separable');
    expect(mapRelationship({})).toBeUndefined();
  });

  test('a Lease: metadata granular, finalizers a set, ownerReferences keyed by uid and atomic items', () => {
    const obj: JsonObject = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: 'l',
        labels: { a: 'b' },
        finalizers: ['x'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' }],
      },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.000000Z' },
    };
    validate(obj, lease);
    expect(paths(toFieldSet(obj, lease))).toEqual(
      paths(
        FieldSet.of(
          makePath('apiVersion'),
          makePath('kind'),
          makePath('metadata', 'name'),
          makePath('metadata', 'labels', 'a'),
          makePath('metadata', 'finalizers', valueElement('x')),
          makePath('metadata', 'ownerReferences', keyElementOf({ uid: 'u1' })),
          makePath('spec', 'holderIdentity'),
          makePath('spec', 'leaseDurationSeconds'),
          makePath('spec', 'renewTime'),
        ),
      ),
    );
  });

  test('an events.k8s.io Event: ObjectReference is atomic, unknown fields are schema errors', () => {
    const obj: JsonObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e' },
      regarding: { kind: 'Pod', name: 'p' },
      note: 'n',
    };
    expect(paths(toFieldSet(obj, event))).toContain('.regarding');
    expect(paths(toFieldSet(obj, event))).not.toContain('.regarding.kind');
    expect(() => validate({ ...obj, nope: 1 }, event)).toThrow('.nope: field not declared in schema');
  });

  test('apply on a Lease: two holders conflict on holderIdentity with kube wording; force takes it over', () => {
    const fm = new FieldManager({
      groupVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      type: lease,
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    const cfg = (holder: string): JsonObject => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', namespace: 'ns' },
      spec: { holderIdentity: holder },
    });
    const created = fm.apply({}, cfg('a'), 'node-a', false);
    let status;
    try {
      fm.apply(created, cfg('b'), 'node-b', false);
    } catch (e) {
      status = conflictStatus((e as ConflictsError).conflicts);
    }
    expect(status?.message).toBe('Apply failed with 1 conflict: conflict with "node-a": .spec.holderIdentity');
    const forced = fm.apply(created, cfg('b'), 'node-b', true);
    expect((forced['spec'] as JsonObject)['holderIdentity']).toBe('b');
    expect(
      ((forced['metadata'] as JsonObject)['managedFields'] as JsonObject[]).map((e) => [e['manager'], e['fieldsV1']]),
    ).toEqual([['node-b', { 'f:spec': { 'f:holderIdentity': {} } }]]);
  });
});
