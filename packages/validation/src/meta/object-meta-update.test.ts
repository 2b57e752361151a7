import { describe, expect, it } from '@jest/globals';
import type { ObjectMeta } from '@kevents/api';
import { validateObjectMetaUpdate } from './object-meta-update.js';

const old: ObjectMeta = {
  name: 'nginx.17d0a4b2c3',
  namespace: 'default',
  uid: '6f1c2a57-1d2e-4c7a-9a55-0c3e0f5b8e11',
  resourceVersion: '41',
  creationTimestamp: '2024-01-02T03:04:05Z',
  labels: { app: 'nginx' },
};
const lines = (n: ObjectMeta, o: ObjectMeta = old) => validateObjectMetaUpdate(n, o).map(String);

describe('validateObjectMetaUpdate', () => {
  it('allows label, annotation and resourceVersion changes', () => {
    expect(lines({ ...old, resourceVersion: '42', labels: { app: 'web' }, annotations: { a: 'b' } })).toEqual([]);
  });

  it.each([
    ['name', 'other', 'metadata.name: Invalid value: "other": field is immutable'],
    ['namespace', 'kube-system', 'metadata.namespace: Invalid value: "kube-system": field is immutable'],
    ['uid', 'x', 'metadata.uid: Invalid value: "x": field is immutable'],
    [
      'creationTimestamp',
      '2024-01-02T03:04:06Z',
      'metadata.creationTimestamp: Invalid value: "2024-01-02T03:04:06Z": field is immutable',
    ],
    ['creationTimestamp', null, 'metadata.creationTimestamp: Invalid value: null: field is immutable'],
    [
      'deletionTimestamp',
      '2024-01-02T03:04:06+01:00',
      'metadata.deletionTimestamp: Invalid value: "2024-01-02T02:04:06Z": field is immutable',
    ],
    ['deletionGracePeriodSeconds', 30, 'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable'],
  ] as const)('%s is immutable', (field, value, want) => {
    const errs = validateObjectMetaUpdate({ ...old, [field]: value }, old);
    expect(errs.map(String)).toEqual([want]);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueInvalid']);
  });

  it('compares timestamps as instants', () => {
    expect(lines({ ...old, creationTimestamp: '2024-01-02T04:04:05+01:00' })).toEqual([]);
  });

  it('does not check generateName', () => {
    expect(lines({ ...old, generateName: 'x-' })).toEqual([]);
  });

  it('requires a resourceVersion', () => {
    expect(lines({ ...old, resourceVersion: '' })).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
  });

  it('does not let generation decrease', () => {
    expect(lines({ ...old, generation: 1 }, { ...old, generation: 2 })).toEqual([
      'metadata.generation: Invalid value: 1: must not be decremented',
    ]);
  });

  it('re-validates labels', () => {
    expect(lines({ ...old, labels: { app: 'a b' } })[0]).toMatch(
      /^metadata\.labels: Invalid value: "a b": a valid label must be/,
    );
  });

  it('forbids new finalizers on an object being deleted', () => {
    const deleting = { ...old, deletionTimestamp: '2024-01-03T00:00:00Z', finalizers: ['a.io/x'] };
    expect(lines({ ...deleting, finalizers: ['a.io/x', 'b.io/z', 'b.io/y'] }, deleting)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y", "b.io/z"}',
    ]);
    expect(lines({ ...deleting, finalizers: [] }, deleting)).toEqual([]);
  });
});
