import { canonicalObject } from '@kevents/api';
import type { Emit, FieldType, ObjectSchema, StoredTextPlan } from '@kevents/api';
import { packedKeys, uuidMark } from './packed-body.js';

/*
 * A {@link StoredTextPlan} made ready for `plannedText`: each object type's fields in order with
 * their member-name texts and zero values, looked up by member name and by packed name token.
 */

/** A field of an object shape. */
export interface FieldShape {
  /** `"<name>":`, and the same after a comma. */
  readonly name: string;
  readonly commaName: string;
  readonly emit: Emit;
  readonly shape: Shape;
  /** The text of the field's zero value, as the canonical encoder writes an absent `always` field. */
  readonly zero: string;
}

/** A compiled field type; every one has all members (one hidden class for the walk's property reads). */
export interface Shape {
  readonly kind: FieldType['kind'];
  readonly type: FieldType;
  /** An object's fields in order. */
  readonly fields: FieldShape[];
  /** The field of each member name, and of each packed name token (by char code): {@link unknownMember} where none. */
  readonly index: Map<string, number>;
  readonly byToken: Int16Array;
  /** The index of an object's `resourceVersion` field (-1: none). */
  readonly resourceVersionField: number;
  /** A map's values, an array's items. */
  readonly inner: Shape | undefined;
}

/** A member no field shows (dropped). */
export const unknownMember = -1;
/** A stored member a plan converts otherwise (the object gives up unless it is null). */
export const convertedMember = -2;

const noFields: FieldShape[] = [];
const noIndex = new Map<string, number>();
const noTokens = new Int16Array(0);
const objectShapes = new WeakMap<ObjectSchema, Shape>();
/** The packed name token of a member name (0: none). */
export const tokenOf = (name: string): number => packedKeys.indexOf(name as (typeof packedKeys)[number]) + 1;

/** An object shape whose members are looked up by `sources` (member name → field index). */
function objectShapeOf(type: FieldType, fields: FieldShape[], sources: ReadonlyMap<string, number>): Shape {
  const byToken = new Int16Array(uuidMark).fill(unknownMember);
  for (const [name, i] of sources) {
    const token = tokenOf(name);
    if (token > 0) byToken[token] = i;
  }
  const rv = sources.get('resourceVersion');
  return {
    kind: 'object',
    type,
    fields,
    index: new Map(sources),
    byToken,
    resourceVersionField: rv === undefined || rv < 0 ? -1 : rv,
    inner: undefined,
  };
}

function objectShape(schema: ObjectSchema, type: FieldType): Shape {
  const known = objectShapes.get(schema);
  if (known !== undefined) return known;
  const fields: FieldShape[] = [];
  const shape = objectShapeOf(type, fields, new Map(schema.fields.map((f, i) => [f.name, i])));
  objectShapes.set(schema, shape);
  for (const f of schema.fields) {
    fields.push({
      name: `${JSON.stringify(f.name)}:`,
      commaName: `,${JSON.stringify(f.name)}:`,
      emit: f.emit,
      shape: shapeOf(f.type),
      zero: zeroText(f.type),
    });
  }
  return shape;
}

function shapeOf(t: FieldType): Shape {
  if (t.kind === 'object') return objectShape(t.schema(), t);
  const inner = t.kind === 'map' ? shapeOf(t.values) : t.kind === 'array' ? shapeOf(t.items) : undefined;
  return {
    kind: t.kind,
    type: t,
    fields: noFields,
    index: noIndex,
    byToken: noTokens,
    resourceVersionField: -1,
    inner,
  };
}

/** The text the canonical encoder writes for an absent field of type `t` that it always writes. */
function zeroText(t: FieldType): string {
  switch (t.kind) {
    case 'string':
      return '""';
    case 'integer':
      return '0';
    case 'boolean':
      return 'false';
    case 'object':
      return JSON.stringify(canonicalObject({}, t.schema()));
    case 'map':
      return '{}';
    case 'array':
      return '[]';
    default:
      return 'null';
  }
}

const plans = new WeakMap<StoredTextPlan, Shape>();

/** The shape of a plan's text: its schema's fields, looked up by the stored members they are read from. */
export function planShape(plan: StoredTextPlan): Shape {
  const known = plans.get(plan);
  if (known !== undefined) return known;
  const type: FieldType = { kind: 'object', schema: () => plan.schema };
  const { fields } = objectShape(plan.schema, type);
  const sources = new Map<string, number>();
  for (const m of plan.converted ?? []) sources.set(m, convertedMember);
  plan.schema.fields.forEach((f, i) => {
    const source = plan.sources?.[f.name];
    const from = source === undefined ? f.name : source;
    if (from === null) return;
    if (sources.has(from)) throw new Error(`stored text plan: the stored member ${from} is read twice`);
    sources.set(from, i);
  });
  const shape = { ...objectShapeOf(type, fields, sources), resourceVersionField: -1 };
  plans.set(plan, shape);
  return shape;
}
