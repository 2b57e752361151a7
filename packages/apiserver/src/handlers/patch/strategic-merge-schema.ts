import { badRequest } from '../../errors/api-error.js';
import type { FieldSchema, FieldType, ObjectSchema } from '@kevents/api';

/**
 * A Go type as a strategic merge patch looks it up (`strategicpatch.PatchMetaFromStruct`): its
 * kind as `reflect.Kind` names it, a struct's fields (json names, in declaration order), a
 * pointer's or slice's element.
 */
export type GoType =
  | { readonly kind: 'struct'; readonly name: string; readonly fields: () => readonly GoField[] }
  | { readonly kind: 'ptr' | 'slice'; readonly elem: GoType }
  | { readonly kind: 'string' | 'int32' | 'int64' | 'bool' | 'uint8' | 'map' };

/** A struct field: its json name, type and patch tags (`patchStrategy`, `patchMergeKey`). */
export interface GoField {
  readonly json: string;
  readonly type: GoType;
  readonly strategy?: 'merge';
  readonly mergeKey?: string;
}

/**
 * The patch tags of the served kinds' fields (k8s.io/api): only ObjectMeta's lists merge. No
 * Event or Lease field has a tag of its own.
 */
const patchTags: Readonly<Record<string, Readonly<Record<string, { mergeKey?: string }>>>> = {
  ObjectMeta: { finalizers: {}, ownerReferences: { mergeKey: 'uid' } },
};

const structs = new WeakMap<ObjectSchema, GoType>();

/** `fieldsV1` (and any free-form JSON): `*FieldsV1`, whose one field is `Raw []byte`. */
const fieldsV1: GoType = {
  kind: 'ptr',
  elem: {
    kind: 'struct',
    name: 'FieldsV1',
    fields: () => [{ json: 'Raw', type: { kind: 'slice', elem: { kind: 'uint8' } } }],
  },
};

/** The Go type of a field of a kevents schema: structs behind pointers where Go omits them empty. */
function goTypeOfField(t: FieldType, emit: FieldSchema['emit']): GoType {
  switch (t.kind) {
    case 'string':
      return { kind: 'string' };
    case 'integer':
      return { kind: t.format };
    case 'boolean':
      return { kind: 'bool' };
    case 'map':
      return { kind: 'map' };
    case 'array':
      return { kind: 'slice', elem: goTypeOfField(t.items, 'always') };
    case 'any':
      return fieldsV1;
    case 'time': {
      const time = goStruct(t.precision === 'micros' ? microTimeSchema : timeSchema);
      return emit === 'always' ? time : { kind: 'ptr', elem: time };
    }
    case 'object': {
      const s = goStruct(t.schema());
      return emit === 'always' ? s : { kind: 'ptr', elem: s };
    }
  }
}

const timeSchema: ObjectSchema = { id: 'Time', goType: 'Time', description: '', fields: [] };
const microTimeSchema: ObjectSchema = { id: 'MicroTime', goType: 'MicroTime', description: '', fields: [] };

/**
 * The Go struct a kevents {@link ObjectSchema} describes (its fields read when first looked up),
 * with the patch tags of k8s.io/api.
 */
export function goStruct(schema: ObjectSchema): GoType {
  let t = structs.get(schema);
  if (t === undefined) {
    let fields: readonly GoField[] | undefined;
    const tags = patchTags[schema.goType] ?? {};
    t = {
      kind: 'struct',
      name: schema.goType,
      fields: () =>
        (fields ??= schema.fields.map((f) => {
          const tag = Object.hasOwn(tags, f.name) ? tags[f.name] : undefined;
          const type = goTypeOfField(f.type, f.emit);
          return tag === undefined
            ? { json: f.name, type }
            : { json: f.name, type, strategy: 'merge' as const, ...tag };
        })),
    };
    structs.set(schema, t);
  }
  return t;
}

/** Go's case folding of struct field names (`bytes.EqualFold`, with the Kelvin sign and long s). */
const fold = (s: string): string =>
  s
    .replace(/\u017f/g, 's')
    .replace(/\u212a/g, 'k')
    .toLowerCase();

/** strconv.Quote's spelling of a field name (JSON's, with Go's escapes for control characters). */
const goQuote = (s: string): string =>
  JSON.stringify(s)
    .replace(/\\u0007/g, '\\a')
    .replace(/\\u000b/g, '\\v')
    .replace(/\\u00([0-9a-f]{2})/g, '\\x$1')
    .replace(/\u007f/g, '\\x7f');

/**
 * The field `key` of the struct `t` (`LookupPatchMetadataForStruct`): the field of that json name,
 * else the first whose name folds to it; Go's errors (400s here) when `t` is no struct or has
 * no such field.
 */
export function lookupField(t: GoType, key: string): GoField {
  const s = t.kind === 'ptr' ? t.elem : t;
  if (s.kind !== 'struct') {
    throw badRequest(`merging an object in json but data type is not struct, instead is: ${s.kind}`);
  }
  const fields = s.fields();
  const f = fields.find((x) => x.json === key) ?? fields.find((x) => fold(x.json) === fold(key));
  if (f === undefined)
    throw badRequest(`unable to find api field in struct ${s.name} for the json field ${goQuote(key)}`);
  return f;
}

/**
 * The element type of the list field `key` of `t` (`LookupPatchMetadataForSlice`), with the
 * field's patch tags.
 */
export function lookupListField(t: GoType, key: string): { elem: GoType; merge: boolean; mergeKey: string } {
  const f = lookupField(t, key);
  let elem: GoType;
  if (f.type.kind === 'slice') {
    elem = f.type.elem;
    if (elem.kind === 'slice') throw badRequest('unexpected slice of slice');
  } else if (f.type.kind === 'ptr') {
    elem = f.type.elem.kind === 'slice' ? f.type.elem.elem : f.type.elem;
  } else {
    throw badRequest(`expected slice or array type, but got: ${t.kind}`);
  }
  return { elem, merge: f.strategy === 'merge', mergeKey: f.mergeKey ?? '' };
}
