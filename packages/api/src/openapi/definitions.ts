import type { FieldType, ObjectSchema } from '../schema/types.js';
import type { JsonObject } from './json.js';
import { fieldExtensions, schemaExtensions } from './kubernetes-extensions.js';

/** Which OpenAPI version a schema is written for: Swagger 2.0 or OpenAPI 3.0. */
export type Dialect = 'v2' | 'v3';

/** A group/version/kind as the `x-kubernetes-group-version-kind` extension spells it. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** Definition id of `metav1.Time` (RFC 3339, seconds). */
export const timeDefinitionId = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
/** Definition id of `metav1.MicroTime` (RFC 3339, microseconds). */
export const microTimeDefinitionId = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';

const timeDefinitions: Readonly<Record<string, JsonObject>> = {
  [timeDefinitionId]: {
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    type: 'string',
    format: 'date-time',
  },
  [microTimeDefinitionId]: {
    description: 'MicroTime is version of Time with microsecond level precision.',
    type: 'string',
    format: 'date-time',
  },
};

/** The JSON reference to a definition: `#/definitions/<id>` (v2) or `#/components/schemas/<id>` (v3). */
export function definitionRef(id: string, dialect: Dialect): string {
  return dialect === 'v2' ? `#/definitions/${id}` : `#/components/schemas/${id}`;
}

/** A reference schema: `{$ref}`, carrying a description the way Kubernetes does for the dialect. */
export function refSchema(id: string, dialect: Dialect, description?: string): JsonObject {
  const $ref = definitionRef(id, dialect);
  if (description === undefined) return { $ref };
  // OpenAPI 3.0 ignores siblings of $ref, so Kubernetes wraps the reference in allOf.
  return dialect === 'v2' ? { $ref, description } : { allOf: [{ $ref }], description };
}

/** The definition ids a field type references directly (objects and times). */
function referencedIds(type: FieldType): string[] {
  switch (type.kind) {
    case 'object':
      return [type.schema().id];
    case 'time':
      return [type.precision === 'seconds' ? timeDefinitionId : microTimeDefinitionId];
    case 'map':
      return referencedIds(type.values);
    case 'array':
      return referencedIds(type.items);
    default:
      return [];
  }
}

/**
 * Every object schema reachable from the roots, by id. Two different schemas with one id are
 * an error: definitions are keyed by id.
 */
export function collectSchemas(roots: readonly ObjectSchema[]): Map<string, ObjectSchema> {
  const seen = new Map<string, ObjectSchema>();
  const visit = (s: ObjectSchema): void => {
    const known = seen.get(s.id);
    if (known) {
      if (known !== s) throw new Error(`two different schemas share the definition id ${s.id}`);
      return;
    }
    seen.set(s.id, s);
    for (const f of s.fields) visitType(f.type);
  };
  const visitType = (t: FieldType): void => {
    if (t.kind === 'object') visit(t.schema());
    else if (t.kind === 'map') visitType(t.values);
    else if (t.kind === 'array') visitType(t.items);
  };
  roots.forEach(visit);
  return seen;
}

/** The OpenAPI schema of a field type. */
export function fieldTypeSchema(type: FieldType, dialect: Dialect, description?: string): JsonObject {
  const described = (s: JsonObject): JsonObject => (description === undefined ? s : { description, ...s });
  switch (type.kind) {
    case 'string': {
      const s: JsonObject = { type: 'string' };
      if (type.format) s['format'] = type.format;
      if (type.enum) s['enum'] = [...type.enum];
      return described(s);
    }
    case 'integer':
      return described({ type: 'integer', format: type.format });
    case 'boolean':
      return described({ type: 'boolean' });
    case 'time':
      return refSchema(type.precision === 'seconds' ? timeDefinitionId : microTimeDefinitionId, dialect, description);
    case 'object':
      return refSchema(type.schema().id, dialect, description);
    case 'map':
      return described({ type: 'object', additionalProperties: fieldTypeSchema(type.values, dialect) });
    case 'array':
      return described({ type: 'array', items: fieldTypeSchema(type.items, dialect) });
    case 'any':
      return described({ type: 'object' });
  }
}

/** The OpenAPI definition of one object schema; `gvks` become `x-kubernetes-group-version-kind`. */
export function objectDefinition(
  schema: ObjectSchema,
  dialect: Dialect,
  gvks: readonly GroupVersionKind[] = [],
): JsonObject {
  const def: JsonObject = { description: schema.description, type: 'object' };
  if (schema.fields.length > 0) {
    const properties: JsonObject = {};
    for (const f of schema.fields) {
      properties[f.name] = {
        ...fieldTypeSchema(f.type, dialect, f.description),
        ...fieldExtensions(schema.id, f.name),
      };
    }
    def['properties'] = properties;
    const required = schema.fields.filter((f) => f.required).map((f) => f.name);
    if (required.length > 0) def['required'] = required;
  }
  Object.assign(def, schemaExtensions(schema.id));
  if (gvks.length > 0) {
    def['x-kubernetes-group-version-kind'] = gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
  }
  return def;
}

/**
 * The definitions (v2) or component schemas (v3) of the roots and everything they reference,
 * sorted by id. `gvks` gives the kinds each definition is served as; a definition missing from
 * it falls back to its schema's own `gvk`.
 */
export function buildDefinitions(
  roots: readonly ObjectSchema[],
  dialect: Dialect,
  gvks: ReadonlyMap<string, readonly GroupVersionKind[]>,
): JsonObject {
  const schemas = collectSchemas(roots);
  const ids = new Set<string>(schemas.keys());
  for (const s of schemas.values()) for (const f of s.fields) for (const id of referencedIds(f.type)) ids.add(id);
  const out: JsonObject = {};
  for (const id of [...ids].sort()) {
    const timeDef = timeDefinitions[id];
    if (timeDef) {
      out[id] = { ...timeDef };
      continue;
    }
    const schema = schemas.get(id);
    if (!schema) continue;
    const kinds = gvks.get(id) ?? (schema.gvk ? [schema.gvk] : []);
    out[id] = objectDefinition(schema, dialect, kinds);
  }
  return out;
}
