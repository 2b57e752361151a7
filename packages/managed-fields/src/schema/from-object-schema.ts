import type { FieldType, ObjectSchema } from '@kevents/api';
import { deduced } from './deduced.js';
import type { Atom, ElementRelationship, ListType, MapType, Scalar, StructField } from './types.js';

/**
 * Kubernetes' OpenAPI extensions of a definition (`field` undefined) or of one of its fields:
 * `x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`,
 * `x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`.
 */
export type ExtensionsLookup = (definitionId: string, field: string | undefined) => Readonly<Record<string, unknown>>;

/** Options of {@link fromObjectSchema}. */
export interface FromObjectSchemaOptions {
  /**
   * Where list and map types come from. kevents keeps them beside its schemas, in the table
   * packages/api's OpenAPI generator reads (`fieldExtensions`/`schemaExtensions` in
   * openapi/kubernetes-extensions.ts); pass a lookup over that table. Without one, every list is
   * atomic and every struct and map granular, which is kube's reading of a schema without
   * extensions.
   */
  readonly extensions?: ExtensionsLookup;
}

/** A schema whose extensions cannot be read (unknown list type, list map without keys). */
export class SchemaExtensionError extends Error {
  override readonly name = 'SchemaExtensionError';
}

/** kube-openapi's `getListElementRelationship` (schemaconv/smd.go). */
export function listRelationship(ext: Readonly<Record<string, unknown>>): {
  relationship: ElementRelationship;
  keys: string[];
} {
  const listType = ext['x-kubernetes-list-type'];
  if (listType !== undefined) {
    switch (listType) {
      case 'atomic':
        return { relationship: 'atomic', keys: [] };
      case 'set':
        return { relationship: 'associative', keys: [] };
      case 'map': {
        const keys = ext['x-kubernetes-list-map-keys'];
        if (!Array.isArray(keys)) throw new SchemaExtensionError('missing map keys');
        return { relationship: 'associative', keys: keys.filter((k): k is string => typeof k === 'string') };
      }
      default:
        throw new SchemaExtensionError(`unknown list type ${String(listType)}`);
    }
  }
  const strategy = ext['x-kubernetes-patch-strategy'];
  if (strategy !== undefined) {
    switch (strategy) {
      case 'merge':
      case 'merge,retainKeys': {
        const key = ext['x-kubernetes-patch-merge-key'];
        if (key === undefined) return { relationship: 'associative', keys: [] };
        if (typeof key !== 'string') throw new SchemaExtensionError(`uninterpreted merge key: ${String(key)}`);
        return { relationship: 'associative', keys: [key] };
      }
      case 'retainKeys':
        return { relationship: 'atomic', keys: [] };
      default:
        throw new SchemaExtensionError(`unknown patch strategy ${String(strategy)}`);
    }
  }
  return { relationship: 'atomic', keys: [] };
}

/** kube-openapi's `getMapElementRelationship`: undefined when the extension is absent. */
export function mapRelationship(ext: Readonly<Record<string, unknown>>): ElementRelationship | undefined {
  const v = ext['x-kubernetes-map-type'];
  if (v === undefined) return undefined;
  if (v === 'atomic') return 'atomic';
  if (v === 'granular') return 'separable';
  throw new SchemaExtensionError(`unknown map type ${String(v)}`);
}

/** kube-openapi's `convertPrimitive` for strings: formats other than none and `byte` are untyped. */
function stringScalar(format: string | undefined): Scalar {
  return format === undefined || format === '' || format === 'byte' ? 'string' : 'untyped';
}

/**
 * The typed schema of a kevents object schema (`@kevents/api` `ObjectSchema`), built as
 * kube-openapi's `schemaconv.ToSchemaFromOpenAPI` builds one from the OpenAPI definition that
 * schema produces: strings, integers and booleans are scalars (`metav1.Time` and formatted
 * strings untyped), objects are granular structs whose unknown fields are schema errors, maps
 * are granular, free-form JSON (`fieldsV1`) is deduced, and arrays take their list type from
 * the extensions (atomic when none). Shared definitions are converted once, so the result may
 * be cyclic.
 */
export function fromObjectSchema(root: ObjectSchema, options: FromObjectSchemaOptions = {}): Atom {
  const ext = options.extensions ?? (() => ({}));
  const cache = new Map<string, Atom>();

  const objectAtom = (s: ObjectSchema): Atom => {
    const known = cache.get(s.id);
    if (known) return known;
    const fields = new Map<string, StructField>();
    const map: MapType = {
      fields,
      elementRelationship: mapRelationship(ext(s.id, undefined)) ?? 'separable',
    };
    const atom: Atom = { map, name: s.id };
    cache.set(s.id, atom);
    for (const f of s.fields) fields.set(f.name, { type: fieldAtom(f.type, ext(s.id, f.name)) });
    return atom;
  };

  const fieldAtom = (t: FieldType, fieldExt: Readonly<Record<string, unknown>>): Atom => {
    switch (t.kind) {
      case 'string':
        return { scalar: stringScalar(t.format) };
      case 'integer':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'time':
        return { scalar: 'untyped' };
      case 'any':
        return deduced;
      case 'object': {
        const atom = objectAtom(t.schema());
        const override = mapRelationship(fieldExt);
        return override && atom.map ? { ...atom, map: { ...atom.map, elementRelationship: override } } : atom;
      }
      case 'map': {
        const map: MapType = {
          fields: new Map(),
          elementType: fieldAtom(t.values, {}),
          elementRelationship: mapRelationship(fieldExt) ?? 'separable',
        };
        return { map };
      }
      case 'array': {
        const { relationship, keys } = listRelationship(fieldExt);
        const list: ListType = { elementType: fieldAtom(t.items, {}), elementRelationship: relationship, keys };
        return { list };
      }
    }
  };

  return objectAtom(root);
}
