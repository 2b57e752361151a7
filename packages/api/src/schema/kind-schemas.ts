import { arrayOf, field, obj } from './types.js';
import type { FieldSchema, ObjectSchema } from './types.js';
import { listMetaSchema, objectMetaSchema, typeMetaFields } from './meta-schemas.js';

const conventions = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';

/** What {@link kindSchema} needs to describe a top-level kind. */
export interface KindSchemaOptions {
  /** The OpenAPI definition name (`com.example.v1.Widget`). */
  readonly id: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly description: string;
  /** The fields after kind, apiVersion and metadata, in the order they are written (`spec`, `status`). */
  readonly fields: readonly FieldSchema[];
  /** Enforce `required` and `enum` ({@link ObjectSchema.structural}). */
  readonly structural?: boolean;
  /** The Go type name in decode errors; default `kind`. */
  readonly goType?: string;
}

/**
 * The schema of a top-level kind: `kind` and `apiVersion` ({@link typeMetaFields}), `metadata`
 * (an `ObjectMeta`, always written), then `fields`; `gvk` set from the options.
 *
 * @example
 * ```ts
 * const widgetSchema = kindSchema({
 *   id: 'com.example.v1.Widget', group: 'example.com', version: 'v1', kind: 'Widget',
 *   description: 'A Widget is an example kind.', structural: true,
 *   fields: [field('spec', obj(() => widgetSpecSchema), 'always', 'spec is the desired widget.')],
 * });
 * ```
 */
export function kindSchema(o: KindSchemaOptions): ObjectSchema {
  return {
    id: o.id,
    goType: o.goType ?? o.kind,
    description: o.description,
    gvk: { group: o.group, version: o.version, kind: o.kind },
    ...(o.structural ? { structural: true } : {}),
    fields: [
      ...typeMetaFields(true),
      field(
        'metadata',
        obj(() => objectMetaSchema),
        'always',
        `Standard object's metadata. More info: ${conventions}#metadata`,
      ),
      ...o.fields,
    ],
  };
}

/**
 * The list kind of a top-level kind (`WidgetList`, definition `<item id>List`): kind,
 * apiVersion, a `ListMeta` and the required `items`.
 */
export function kindListSchema(item: ObjectSchema, description?: string): ObjectSchema {
  const gvk = item.gvk;
  if (!gvk) throw new Error(`kindListSchema: ${item.id} is not a top-level kind (it has no gvk)`);
  const listKind = `${gvk.kind}List`;
  return {
    id: `${item.id}List`,
    goType: `${item.goType}List`,
    description: description ?? `${listKind} is a list of ${gvk.kind}.`,
    gvk: { ...gvk, kind: listKind },
    fields: [
      ...typeMetaFields(true),
      field(
        'metadata',
        obj(() => listMetaSchema),
        'always',
        `Standard list metadata. More info: ${conventions}#types-kinds`,
      ),
      field('items', arrayOf(obj(() => item)), 'always', `items is a list of ${gvk.kind} objects.`, { required: true }),
    ],
  };
}
