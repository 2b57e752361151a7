/**
 * typed/reconcile_schema_test.go of structured-merge-diff v6 (TestReconcileFieldSetWithSchema):
 * a field set written against a granular schema, reconciled with the atomic one; and the
 * cases a client can reach through `managedFields`.
 */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { keyElementOf, valueElement } from '../fieldpath/path-element.js';
import { makePath, pathString } from '../fieldpath/path.js';
import type { Path } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import { fromSMDSchema } from '../schema/smd-schema.js';
import { reconcileFieldSetWithSchema } from './reconcile-schema.js';

const untyped = `
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_deduced_}
    elementRelationship: separable
`;

function schema(atomic: boolean): string {
  const rel = (r: string): string => (atomic ? 'atomic' : r);
  return `types:
- name: v1
  map:
    fields:
    - {name: struct, type: {namedType: struct}}
    - {name: list, type: {namedType: list}}
    - {name: objectList, type: {namedType: objectList}}
    - {name: stringMap, type: {namedType: stringMap}}
    - {name: unchanged, type: {namedType: unchanged}}
- name: struct
  map:
    fields:
    - {name: numeric, type: {scalar: numeric}}
    - {name: string, type: {scalar: string}}
    elementRelationship: ${rel('separable')}
- name: list
  list:
    elementType: {scalar: string}
    elementRelationship: ${rel('associative')}
- name: objectList
  list:
    elementType: {namedType: listItem}
    elementRelationship: ${rel('associative')}
    ${atomic ? '' : 'keys: [keyA, keyB]'}
- name: listItem
  map:
    fields:
    - {name: keyA, type: {scalar: string}}
    - {name: keyB, type: {scalar: string}}
    - {name: value, type: {scalar: string}}
- name: stringMap
  map:
    elementType: {scalar: string}
    elementRelationship: ${rel('separable')}
- name: unchanged
  map:
    fields:
    - {name: numeric, type: {scalar: numeric}}
- name: empty
  map:
    elementType:
      scalar: untyped
      list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
      map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
- name: emptyWithPreserveUnknown
  map:
    fields:
    - name: preserveField
      type:
        map:
          elementType:
            scalar: untyped
            list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
            map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
- name: populatedWithPreserveUnknown
  map:
    fields:
    - name: preserveField
      type:
        map:
          fields:
          - {name: list, type: {namedType: list}}
          elementType: {namedType: __untyped_deduced_}
${untyped}`;
}

const K = keyElementOf;
const ab1 = K({ keyA: 'a1', keyB: 'b1' });
const set = (...paths: Path[]): FieldSet => FieldSet.of(...paths);
const texts = (s: FieldSet | undefined): string[] | undefined => s?.paths().map(pathString).sort();

// [name, root type, atomic schema, old fields, fixed fields (undefined: no change)]
const rows: [string, string, boolean, FieldSet, FieldSet | undefined][] = [
  [
    'granular-to-atomic',
    'v1',
    true,
    set(
      makePath('struct', 'numeric'),
      makePath('list', valueElement('one')),
      makePath('stringMap', 'key1'),
      makePath('objectList', ab1, 'value'),
      makePath('unchanged', 'numeric'),
    ),
    set(
      makePath('struct'),
      makePath('list'),
      makePath('objectList'),
      makePath('stringMap'),
      makePath('unchanged', 'numeric'),
    ),
  ],
  [
    'no-change-granular',
    'v1',
    false,
    set(
      makePath('struct', 'numeric'),
      makePath('list', valueElement('one')),
      makePath('objectList', ab1, 'value'),
      makePath('stringMap', 'key1'),
      makePath('unchanged', 'numeric'),
    ),
    undefined,
  ],
  [
    'no-change-atomic',
    'v1',
    true,
    set(makePath('struct'), makePath('list'), makePath('objectList'), makePath('unchanged', 'numeric')),
    undefined,
  ],
  [
    'no-change-empty-granular',
    'v1',
    false,
    set(
      makePath('struct'),
      makePath('list'),
      makePath('objectList'),
      makePath('objectList', ab1),
      makePath('objectList', ab1, 'value'),
      makePath('unchanged'),
    ),
    undefined,
  ],
  [
    'deduced',
    'empty',
    false,
    set(makePath('struct'), makePath('list'), makePath('objectList'), makePath('unchanged', 'numeric')),
    undefined,
  ],
  [
    'empty-preserve-unknown',
    'emptyWithPreserveUnknown',
    false,
    set(makePath('preserveField'), makePath('preserveField', 'arbitrary')),
    undefined,
  ],
  [
    'populated-preserve-unknown',
    'populatedWithPreserveUnknown',
    true,
    set(
      makePath('preserveField'),
      makePath('preserveField', 'arbitrary'),
      makePath('preserveField', 'list'),
      makePath('preserveField', 'list', valueElement('one')),
    ),
    set(makePath('preserveField'), makePath('preserveField', 'arbitrary'), makePath('preserveField', 'list')),
  ],
];

describe('reconcileFieldSetWithSchema (ReconcileFieldSetWithSchema)', () => {
  test.each(rows)('%s', (_name, root, atomic, oldFields, fixed) => {
    const type = fromSMDSchema(parse(schema(atomic)), root);
    expect(texts(reconcileFieldSetWithSchema(oldFields, type))).toEqual(texts(fixed));
  });

  test('an atomic list owned as a member and below it owns the member alone; a map only when it has children', () => {
    const type = fromSMDSchema(parse(schema(true)), 'v1');
    const old = set(makePath('list'), makePath('list', valueElement('x')), makePath('stringMap'));
    expect(texts(reconcileFieldSetWithSchema(old, type))).toEqual(['.list', '.stringMap']);
  });

  test('fields the schema does not declare are left as they are', () => {
    const type = fromSMDSchema(parse(schema(true)), 'v1');
    const old = set(makePath('other', 'x'), makePath('struct', 'string'));
    expect(texts(reconcileFieldSetWithSchema(old, type))).toEqual(['.other.x', '.struct']);
  });
});
