import { encodeObject, serializeObject } from '@kevents/api';
import type { KubeObject, ObjectSchema, ProtobufType } from '@kevents/api';
import type { VersionedView } from './view.js';

/** What {@link schemaView} needs to know of a resource served in the shape it is stored in. */
export interface SchemaViewOptions {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind?: string;
  readonly resource: string;
  readonly singularName: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly storageVersionHash?: string;
  readonly schema: ObjectSchema;
  readonly listSchema: ObjectSchema;
  /** The Go type kube-apiserver holds the resource in ({@link VersionedView.goType}). */
  readonly goType?: string;
  /** The protobuf messages of the kind and its list ({@link VersionedView.protobuf}). */
  readonly protobuf?: { readonly object: ProtobufType; readonly list: ProtobufType };
  /** Field labels this version accepts beyond `metadata.name` and `metadata.namespace` (they map to themselves). */
  readonly fieldLabels?: readonly string[];
}

/**
 * A view whose wire form is the stored form (no conversion): the encoder of the schema writes
 * it in Go's field order, kind and apiVersion first.
 */
export function schemaView<T extends KubeObject>(o: SchemaViewOptions): VersionedView<T> {
  const groupVersion = o.group ? `${o.group}/${o.version}` : o.version;
  const head = `{"kind":${JSON.stringify(o.kind)},"apiVersion":${JSON.stringify(groupVersion)},`;
  const labels = new Set(['metadata.name', 'metadata.namespace', ...(o.fieldLabels ?? [])]);
  const untyped = (obj: T): Record<string, unknown> => {
    const { kind: _k, apiVersion: _a, ...rest } = obj as T & Record<string, unknown>;
    return rest;
  };
  return {
    group: o.group,
    version: o.version,
    groupVersion,
    kind: o.kind,
    listKind: o.listKind ?? `${o.kind}List`,
    resource: o.resource,
    singularName: o.singularName,
    ...(o.shortNames ? { shortNames: o.shortNames } : {}),
    ...(o.categories ? { categories: o.categories } : {}),
    ...(o.storageVersionHash ? { storageVersionHash: o.storageVersionHash } : {}),
    ...(o.goType ? { goType: o.goType } : {}),
    ...(o.protobuf ? { protobuf: o.protobuf } : {}),
    gr: { group: o.group, resource: o.resource },
    schema: o.schema,
    listSchema: o.listSchema,
    pathPrefix: o.group ? `/apis/${groupVersion}` : `/api/${o.version}`,
    toInternal: (external) => {
      delete external['kind'];
      delete external['apiVersion'];
      return external as unknown as T;
    },
    toExternal: (internal) => encodeObject({ ...untyped(internal), kind: o.kind, apiVersion: groupVersion }, o.schema),
    toListItem: (internal) => encodeObject(untyped(internal), o.schema),
    toJSON: (internal, withTypeMeta) => {
      const text = serializeObject(untyped(internal), o.schema);
      return withTypeMeta ? head + text.slice(1) : text;
    },
    withTypeMeta: (itemJSON) => head + itemJSON.slice(1),
    // encodeObject keeps, drops or fills in members by their presence and zeroness alone.
    externalFollowsShape: true,
    fieldLabel: (label) => (labels.has(label) ? label : undefined),
  };
}
