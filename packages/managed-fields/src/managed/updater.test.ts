/**
 * Tables ported from sigs.k8s.io/structured-merge-diff v6 merge/*_test.go, run through the same
 * steps as its internal/fixture/state.go: the live object starts absent, Apply and Update ops
 * run against the Updater with the fixture's converter (every version the same shape), and the
 * live object and the managers (sets and versions; the fixture ignores the applied flag) are
 * compared at the end. Objects are written in YAML as in the Go tables.
 */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { keyElementOf, valueElement } from '../fieldpath/path-element.js';
import { makePath, pathString } from '../fieldpath/path.js';
import type { Path } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import { fromSMDSchema } from '../schema/smd-schema.js';
import type { Atom } from '../schema/types.js';
import { deduced } from '../schema/deduced.js';
import { validate } from '../typed/validate.js';
import { equalValues } from '../value/compare.js';
import type { JsonValue } from '../value/json-value.js';
import { ConflictsError } from './conflicts.js';
import { identityConverter } from './converter.js';
import type { TypedValue } from './converter.js';
import { Updater } from './updater.js';
import type { ManagedFields } from './versioned-set.js';

type Op =
  | { op: 'apply' | 'forceApply'; manager: string; apiVersion?: string; object: string; conflicts?: [string, Path][] }
  | { op: 'update'; manager: string; apiVersion?: string; object: string };

interface TestCase {
  ops: Op[];
  object?: string;
  managed?: Record<string, { paths: Path[]; apiVersion?: string }>;
}

function run(type: Atom, tc: TestCase): void {
  const updater = new Updater({ converter: identityConverter });
  let live: TypedValue = { value: null, type };
  let managers: ManagedFields = new Map();
  tc.ops.forEach((op, i) => {
    const version = op.apiVersion ?? 'v1';
    const value = (parse(op.object) ?? null) as JsonValue;
    if (op.op === 'update') {
      validate(value, type, { allowDuplicates: true });
      managers = updater.updateManagers(live, { value, type }, version, managers, op.manager);
      live = { value, type };
      return;
    }
    validate(value, type);
    try {
      const result = updater.apply(live, { value, type }, version, managers, op.manager, op.op === 'forceApply');
      managers = result.managers;
      if (result.object) live = result.object;
      if (op.op === 'apply' && op.conflicts) throw new Error(`op ${i}: expected conflicts, got none`);
    } catch (err) {
      if (!(err instanceof ConflictsError) || op.op !== 'apply' || !op.conflicts) throw err;
      const got = err.conflicts.map((c) => `${c.manager} ${pathString(c.path)}`).sort();
      expect(got).toEqual(op.conflicts.map(([m, p]) => `${m} ${pathString(p)}`).sort());
    }
  });
  if (tc.object !== undefined) {
    const want = (parse(tc.object) ?? null) as JsonValue;
    if (!equalValues(live.value ?? null, want)) expect(live.value).toEqual(want);
  }
  if (tc.managed) {
    const got = Object.fromEntries(
      [...managers].map(([m, vs]) => [m, { paths: vs.set.paths().map(pathString).sort(), apiVersion: vs.apiVersion }]),
    );
    const want = Object.fromEntries(
      Object.entries(tc.managed).map(([m, w]) => [
        m,
        {
          paths: FieldSet.of(...w.paths)
            .paths()
            .map(pathString)
            .sort(),
          apiVersion: w.apiVersion ?? 'v1',
        },
      ]),
    );
    expect(got).toEqual(want);
  }
  for (const vs of managers.values()) expect(vs.set.empty()).toBe(false);
}

const leafFields = fromSMDSchema(
  parse(`types:
- name: leafFields
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    - name: bool
      type:
        scalar: boolean`),
  'leafFields',
);

describe('TestUpdateLeaf (merge/leaf_test.go)', () => {
  const P = makePath;
  test.each<[string, TestCase]>([
    [
      'apply_twice',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: "string"' },
          { op: 'apply', manager: 'default', object: 'numeric: 2\nstring: "string"\nbool: false' },
        ],
        object: 'numeric: 2\nstring: "string"\nbool: false',
        managed: { default: { paths: [P('numeric'), P('string'), P('bool')] } },
      },
    ],
    [
      'apply_twice_different_versions',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: "string"' },
          { op: 'apply', manager: 'default', apiVersion: 'v2', object: 'numeric: 2\nstring: "string"\nbool: false' },
        ],
        object: 'numeric: 2\nstring: "string"\nbool: false',
        managed: { default: { paths: [P('numeric'), P('string'), P('bool')], apiVersion: 'v2' } },
      },
    ],
    [
      'apply_update_apply_no_conflict',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: "string"' },
          { op: 'update', manager: 'controller', object: 'numeric: 1\nstring: "string"\nbool: true' },
          { op: 'apply', manager: 'default', object: 'numeric: 2\nstring: "string"' },
        ],
        object: 'numeric: 2\nstring: "string"\nbool: true',
        managed: { default: { paths: [P('numeric'), P('string')] }, controller: { paths: [P('bool')] } },
      },
    ],
    [
      'apply_update_apply_with_conflict',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: "string"' },
          { op: 'update', manager: 'controller', object: 'numeric: 1\nstring: "controller string"\nbool: true' },
          {
            op: 'apply',
            manager: 'default',
            object: 'numeric: 2\nstring: "user string"',
            conflicts: [['controller', P('string')]],
          },
          { op: 'forceApply', manager: 'default', object: 'numeric: 2\nstring: "user string"' },
        ],
        object: 'numeric: 2\nstring: "user string"\nbool: true',
        managed: { default: { paths: [P('numeric'), P('string')] }, controller: { paths: [P('bool')] } },
      },
    ],
    [
      'apply_twice_remove',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: "string"\nbool: false' },
          { op: 'apply', manager: 'default', object: 'string: "new string"' },
        ],
        object: 'string: "new string"',
        managed: { default: { paths: [P('string')] } },
      },
    ],
    [
      'update_apply_omits',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 2' },
          { op: 'update', manager: 'controller', object: 'numeric: 1' },
          { op: 'apply', manager: 'default', object: '' },
        ],
        object: 'numeric: 1',
        managed: { controller: { paths: [P('numeric')] } },
      },
    ],
    [
      'update_remove_empty_set',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'string: "string"' },
          { op: 'update', manager: 'controller', object: 'string: "new string"' },
        ],
        object: 'string: "new string"',
        managed: { controller: { paths: [P('string')] } },
      },
    ],
    [
      'apply_remove_empty_set',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'string: "string"' },
          { op: 'apply', manager: 'default', object: '' },
        ],
        object: '',
        managed: {},
      },
    ],
    [
      '(kevents) an updater keeps the field an applier drops',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'numeric: 1\nstring: "string"\nbool: false' },
          { op: 'update', manager: 'controller', object: 'numeric: 1\nstring: "string"\nbool: true' },
          { op: 'apply', manager: 'default', object: 'string: "new string"' },
        ],
        object: 'string: "new string"\nbool: true',
        managed: { default: { paths: [P('string')] }, controller: { paths: [P('bool')] } },
      },
    ],
  ])('%s', (_name, tc) => run(leafFields, tc));
});

const sets = fromSMDSchema(
  parse(`types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`),
  'sets',
);

describe('TestUpdateSet (merge/set_test.go)', () => {
  const L = (...vs: string[]): Path[] => vs.map((v) => makePath('list', valueElement(v)));
  test.each<[string, TestCase]>([
    [
      'apply_twice',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'list: [a, c]' },
          { op: 'apply', manager: 'default', object: 'list: [a, b, c, d]' },
        ],
        object: 'list: [a, b, c, d]',
        managed: { default: { paths: L('a', 'b', 'c', 'd') } },
      },
    ],
    [
      'apply_update_apply_no_overlap',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'list: [a, c]' },
          { op: 'update', manager: 'controller', object: 'list: [a, b, c, d]' },
          { op: 'apply', manager: 'default', object: 'list: [a, aprime, c, cprime]' },
        ],
        object: 'list: [a, b, aprime, c, d, cprime]',
        managed: { default: { paths: L('a', 'aprime', 'c', 'cprime') }, controller: { paths: L('b', 'd') } },
      },
    ],
    [
      'apply_update_apply_with_overlap',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'list: [a, c]' },
          { op: 'update', manager: 'controller', object: 'list: [a, b, c, d]' },
          { op: 'apply', manager: 'default', object: 'list: [a, b, c]' },
        ],
        object: 'list: [a, b, c, d]',
        managed: { default: { paths: L('a', 'b', 'c') }, controller: { paths: L('b', 'd') } },
      },
    ],
    [
      'apply_twice_reorder',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'list: [a, b, c, d]' },
          { op: 'apply', manager: 'default', object: 'list: [a, d, c, b]' },
        ],
        object: 'list: [a, d, c, b]',
        managed: { default: { paths: L('a', 'b', 'c', 'd') } },
      },
    ],
    [
      'apply_twice_remove',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'list: [a, b, c, d]' },
          { op: 'apply', manager: 'default', object: 'list: [a, c]' },
        ],
        object: 'list: [a, c]',
        managed: { default: { paths: L('a', 'c') } },
      },
    ],
  ])('%s', (_name, tc) => run(sets, tc));
});

const associativeList = fromSMDSchema(
  parse(`types:
- name: type
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric`),
  'type',
);

describe('TestUpdateAssociativeLists (merge/key_test.go) and associative-list conflicts', () => {
  const K = (name: string, ...rest: string[]): Path => makePath('list', keyElementOf({ name }), ...rest);
  test.each<[string, TestCase]>([
    [
      'removing_obsolete_applied_structs',
      {
        ops: [
          { op: 'apply', manager: 'default', object: 'list:\n- name: a\n  value: 1' },
          { op: 'apply', manager: 'default', object: 'list:\n- name: b\n  value: 2' },
        ],
        object: 'list:\n- name: b\n  value: 2',
        managed: { default: { paths: [K('b'), K('b', 'name'), K('b', 'value')] } },
      },
    ],
    [
      'two appliers own different items; a changed value owned by the other conflicts',
      {
        ops: [
          { op: 'apply', manager: 'one', object: 'list:\n- name: a\n  value: 1' },
          { op: 'apply', manager: 'two', object: 'list:\n- name: b\n  value: 2' },
          {
            op: 'apply',
            manager: 'two',
            object: 'list:\n- name: a\n  value: 3\n- name: b\n  value: 2',
            conflicts: [['one', K('a', 'value')]],
          },
        ],
        object: 'list:\n- name: a\n  value: 1\n- name: b\n  value: 2',
        managed: {
          one: { paths: [K('a'), K('a', 'name'), K('a', 'value')] },
          two: { paths: [K('b'), K('b', 'name'), K('b', 'value')] },
        },
      },
    ],
    [
      'shared item with equal values is co-owned without conflict; dropping it keeps it for the other',
      {
        ops: [
          { op: 'apply', manager: 'one', object: 'list:\n- name: a\n  value: 1' },
          { op: 'apply', manager: 'two', object: 'list:\n- name: a\n  value: 1\n- name: b\n  value: 2' },
          { op: 'apply', manager: 'two', object: 'list:\n- name: b\n  value: 2' },
        ],
        object: 'list:\n- name: a\n  value: 1\n- name: b\n  value: 2',
        managed: {
          one: { paths: [K('a'), K('a', 'name'), K('a', 'value')] },
          two: { paths: [K('b'), K('b', 'name'), K('b', 'value')] },
        },
      },
    ],
  ])('%s', (_name, tc) => run(associativeList, tc));

  test('duplicate keys in an applied configuration are refused (merge/duplicates_test.go)', () => {
    expect(() => validate(parse('list:\n- name: a\n- name: a') as JsonValue, associativeList)).toThrow(
      '.list: duplicate entries for key [name="a"]',
    );
  });
});

const structType = fromSMDSchema(
  parse(`types:
- name: v1
  map:
    fields:
    - name: struct
      type:
        namedType: struct
- name: struct
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: scalarField_v1
      type:
        scalar: string
    - name: complexField_v1
      type:
        namedType: complex
- name: complex
  map:
    fields:
    - name: name
      type:
        scalar: string`),
  'v1',
);

describe('TestMultipleAppliersFieldUnsetting (merge/multiple_appliers_test.go, the v1-v1-v1 case)', () => {
  const P = makePath;
  test.each<[string, TestCase]>([
    [
      'unset_scalar_sole_owner',
      {
        ops: [
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a\n  scalarField_v1: a' },
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a' },
        ],
        object: 'struct:\n  name: a',
        managed: { 'apply-one': { paths: [P('struct', 'name')] } },
      },
    ],
    [
      'unset_scalar_shared_with_applier',
      {
        ops: [
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a\n  scalarField_v1: a' },
          { op: 'apply', manager: 'apply-two', object: 'struct:\n  scalarField_v1: a' },
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a' },
        ],
        object: 'struct:\n  name: a\n  scalarField_v1: a',
        managed: {
          'apply-one': { paths: [P('struct', 'name')] },
          'apply-two': { paths: [P('struct', 'scalarField_v1')] },
        },
      },
    ],
    [
      'unset_scalar_shared_with_updater',
      {
        ops: [
          { op: 'update', manager: 'updater', object: 'struct:\n  name: a\n  scalarField_v1: a' },
          { op: 'apply', manager: 'applier', object: 'struct:\n  name: a\n  scalarField_v1: a' },
          { op: 'apply', manager: 'applier', object: 'struct:\n  name: a' },
        ],
        object: 'struct:\n  name: a\n  scalarField_v1: a',
        managed: {
          updater: { paths: [P('struct'), P('struct', 'name'), P('struct', 'scalarField_v1')] },
          applier: { paths: [P('struct', 'name')] },
        },
      },
    ],
    [
      'updater_claims_field',
      {
        ops: [
          { op: 'apply', manager: 'applier', object: 'struct:\n  name: a\n  scalarField_v1: a' },
          { op: 'update', manager: 'updater', object: 'struct:\n  name: a\n  scalarField_v1: b' },
        ],
        object: 'struct:\n  name: a\n  scalarField_v1: b',
        managed: { updater: { paths: [P('struct', 'scalarField_v1')] }, applier: { paths: [P('struct', 'name')] } },
      },
    ],
    [
      'unset_complex_sole_owner',
      {
        ops: [
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a\n  complexField_v1:\n    name: b' },
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a' },
        ],
        object: 'struct:\n  name: a',
        managed: { 'apply-one': { paths: [P('struct', 'name')] } },
      },
    ],
    [
      'unset_complex_shared_with_applier',
      {
        ops: [
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a\n  complexField_v1:\n    name: b' },
          { op: 'apply', manager: 'apply-two', object: 'struct:\n  complexField_v1:\n    name: b' },
          { op: 'apply', manager: 'apply-one', object: 'struct:\n  name: a' },
        ],
        object: 'struct:\n  name: a\n  complexField_v1:\n    name: b',
        managed: {
          'apply-one': { paths: [P('struct', 'name')] },
          'apply-two': { paths: [P('struct', 'complexField_v1', 'name')] },
        },
      },
    ],
  ])('%s', (_name, tc) => run(structType, tc));
});

describe('TestMultipleAppliersDeducedType (merge/multiple_appliers_test.go, deduced schema)', () => {
  test('appliers of different keys of a deduced map merge; a shared changed key conflicts', () => {
    run(deduced, {
      ops: [
        { op: 'apply', manager: 'controller-one', object: 'a: a\nb: b' },
        { op: 'apply', manager: 'controller-two', object: 'c: c' },
        { op: 'apply', manager: 'controller-two', object: 'a: z', conflicts: [['controller-one', makePath('a')]] },
        { op: 'forceApply', manager: 'controller-two', object: 'a: z\nc: c\nd: {e: 1}' },
      ],
      object: 'a: z\nb: b\nc: c\nd: {e: 1}',
      managed: {
        'controller-one': { paths: [makePath('b')] },
        'controller-two': { paths: [makePath('a'), makePath('c'), makePath('d'), makePath('d', 'e')] },
      },
    });
  });
});
