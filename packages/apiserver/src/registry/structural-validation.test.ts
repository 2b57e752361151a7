import { describe, expect, it } from '@jest/globals';
import { arrayOf, enumOf, field, kindListSchema, kindSchema, obj, str } from '@kevents/api';
import type { KubeObject, ObjectSchema } from '@kevents/api';
import { FieldPath, invalid, nameIsDNSSubdomain, validateObjectMeta } from '@kevents/validation';
import { defaultTableConvertor } from '../table/table.js';
import { defineResource } from './resource.js';
import { schemaView } from './schema-view.js';
import type { ResourceStrategy } from './strategy.js';
import { schemaUpdateErrors, withStructuralValidation } from './structural-validation.js';

interface Thing extends KubeObject {
  spec?: { color?: string; note?: string; parts?: { name?: string }[] };
}
/** A Thing with `spec`, typed as one (an object literal given as a KubeObject may not name `spec`). */
const thing = (spec: Thing['spec']): Thing => ({ metadata: {}, spec });
const partSchema: ObjectSchema = {
  id: 'com.example.v1.Part',
  goType: 'Part',
  description: '',
  fields: [field('name', str(), 'omitempty', '', { required: true })],
};
const specSchema: ObjectSchema = {
  id: 'com.example.v1.ThingSpec',
  goType: 'ThingSpec',
  description: '',
  fields: [
    field('color', enumOf(['red', 'blue']), 'omitempty', '', { required: true }),
    field('note', str(), 'omitempty', ''),
    field('parts', arrayOf(obj(() => partSchema)), 'omitempty', ''),
  ],
};
const schemaOf = (structural: boolean): ObjectSchema =>
  kindSchema({
    id: 'com.example.v1.Thing',
    group: 'example.com',
    version: 'v1',
    kind: 'Thing',
    description: '',
    structural,
    fields: [
      field(
        'spec',
        obj(() => specSchema),
        'always',
        '',
      ),
    ],
  });
const viewOf = (structural: boolean) =>
  schemaView<Thing>({
    group: 'example.com',
    version: 'v1',
    kind: 'Thing',
    resource: 'things',
    singularName: 'thing',
    schema: schemaOf(structural),
    listSchema: kindListSchema(schemaOf(structural)),
  });
const strategy: ResourceStrategy<Thing> = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  qualifiedKind: { group: 'example.com', kind: 'Thing' },
  newObject: () => ({ metadata: {} }),
  // Metadata rules, then a rule of the kind's own (as a CRD's CEL rule).
  validate: (t) =>
    validateObjectMeta(t.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }).concat(
      t.spec?.note === 'no' ? [invalid(FieldPath.root('spec', 'note'), 'no', 'must not be no')] : [],
    ),
  validateUpdate: () => [],
  fieldValue: () => '',
  table: defaultTableConvertor as never,
};
const text = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

describe('structural validation in the strategy', () => {
  it('orders errors as kube-apiserver does for a custom resource: metadata, schema, then the kind’s own rules', () => {
    const s = withStructuralValidation(strategy);
    const bad: Thing = { metadata: { name: 'Bad_Name', namespace: 'ns' }, spec: { color: 'green', note: 'no' } };
    expect(text(s.validate(bad, viewOf(true)))).toEqual([
      expect.stringMatching(/^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/),
      'spec.color: Unsupported value: "green": supported values: "red", "blue"',
      'spec.note: Invalid value: "no": must not be no',
    ]);
    // A view whose schema does not opt in is validated by the strategy alone.
    expect(text(s.validate(bad, viewOf(false)))).toHaveLength(2);
  });

  it('defineResource adds it only when a view is structural', () => {
    const plain = { resource: 'things', strategy, views: [viewOf(false)] };
    expect(defineResource(plain)).toBe(plain);
    const structural = defineResource({ resource: 'things', strategy, views: [viewOf(true)] });
    expect(structural.strategy).not.toBe(strategy);
    expect(
      text(structural.strategy.validate({ metadata: { name: 'a', namespace: 'n' }, spec: {} }, viewOf(true))),
    ).toEqual(['spec.color: Required value']);
  });

  it('ratchets on update: an error in a value the update leaves unchanged is not reported', () => {
    const schema = schemaOf(true);
    const old: Thing = thing({ color: 'green', parts: [{}] });
    // Nothing changed in the invalid values: no error (objects stored before the schema got stricter stay updatable).
    expect(text(schemaUpdateErrors(thing({ color: 'green', parts: [{}], note: 'x' }), old, schema))).toEqual([]);
    // A changed enum value, a list that changed: reported again.
    expect(text(schemaUpdateErrors(thing({ color: 'pink', parts: [{}, { name: 'b' }] }), old, schema))).toEqual([
      'spec.color: Unsupported value: "pink": supported values: "red", "blue"',
      'spec.parts[0].name: Required value',
    ]);
    // A required field missing from an object that changed is reported.
    expect(text(schemaUpdateErrors(thing({ note: 'x' }), thing({}), schema))).toEqual(['spec.color: Required value']);
    expect(text(schemaUpdateErrors(thing({}), thing({}), schema))).toEqual([]);
    // A stored object without the value's parent (null) compares as absent.
    const storedNull = { metadata: {}, spec: null } as unknown as Thing;
    expect(text(schemaUpdateErrors(thing({ color: 'red', parts: [{}] }), storedNull, schema))).toEqual([
      'spec.parts[0].name: Required value',
    ]);
  });

  it("keeps the kind's own order when the schema finds nothing, and counts `metadata` itself as metadata", () => {
    const meta = invalid(FieldPath.root('metadata'), 'x', 'metadata itself');
    const own = invalid(FieldPath.root('spec', 'note'), 'no', 'own rule');
    const s = withStructuralValidation<Thing>({ ...strategy, validate: () => [own, meta] });
    const view = viewOf(true);
    expect(text(s.validate({ metadata: {}, spec: { color: 'red' } }, view))).toEqual(text([own, meta]));
    expect(text(s.validate({ metadata: {}, spec: { color: 'pink' } }, view))).toEqual([
      String(meta),
      'spec.color: Unsupported value: "pink": supported values: "red", "blue"',
      String(own),
    ]);
  });
});
