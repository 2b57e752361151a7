import type { FieldType, ObjectSchema } from './types.js';

/**
 * One violation of a structural kind's schema, as kube-apiserver reports a custom resource's
 * schema validation (`k8s.io/apiextensions-apiserver/pkg/apiserver/validation`): a missing
 * required field (`field.Required`) or a string outside its enum (`field.NotSupported`).
 */
export type SchemaViolation =
  | { readonly type: 'Required'; readonly field: string; readonly path: readonly (string | number)[] }
  | {
      readonly type: 'NotSupported';
      readonly field: string;
      /** Where the value is: member names and list indexes (`['spec', 'parts', 0, 'finish']`). */
      readonly path: readonly (string | number)[];
      readonly value: string;
      readonly supported: readonly string[];
    };

/** A position: kube-openapi's printed path (`spec.parts[0].name`, a map value `spec.m.key`) and its segments. */
interface At {
  readonly field: string;
  readonly path: readonly (string | number)[];
}
const root: At = { field: '', path: [] };
const member = (at: At, name: string): At => ({
  field: at.field ? `${at.field}.${name}` : name,
  path: [...at.path, name],
});
const item = (at: At, i: number): At => ({ field: `${at.field}[${i}]`, path: [...at.path, i] });

function visitValue(v: unknown, t: FieldType, at: At, out: SchemaViolation[]): void {
  if (v === undefined || v === null) return;
  switch (t.kind) {
    case 'string':
      if (t.enum && typeof v === 'string' && !t.enum.includes(v)) {
        out.push({ type: 'NotSupported', ...at, value: v, supported: t.enum });
      }
      return;
    case 'object':
      if (typeof v === 'object' && !Array.isArray(v)) visitObject(v as Record<string, unknown>, t.schema(), at, out);
      return;
    case 'array':
      // kube-openapi names an item `path[i]`.
      if (Array.isArray(v)) v.forEach((x, i) => visitValue(x, t.items, item(at, i), out));
      return;
    case 'map':
      // ... and a map value (additionalProperties) `path.key`.
      if (typeof v === 'object' && !Array.isArray(v)) {
        const m = v as Record<string, unknown>;
        for (const k of Object.keys(m)) visitValue(m[k], t.values, member(at, k), out);
      }
      return;
    default:
      return;
  }
}

/**
 * kube-openapi's object validator: the properties first (each against its own schema), then
 * the required ones that are absent. kube-openapi walks properties in Go map order; here they
 * go in the schema's order, so the answer is stable.
 */
function visitObject(
  o: Record<string, unknown>,
  schema: ObjectSchema,
  at: At,
  out: SchemaViolation[],
  skip?: string,
): void {
  for (const f of schema.fields) {
    if (f.name !== skip && Object.hasOwn(o, f.name)) visitValue(o[f.name], f.type, member(at, f.name), out);
  }
  for (const f of schema.fields) {
    if (f.required && (!Object.hasOwn(o, f.name) || o[f.name] === undefined || o[f.name] === null)) {
      out.push({ type: 'Required', ...member(at, f.name) });
    }
  }
}

/**
 * Validates a decoded object against its kind's `required` fields and string `enum`s (the
 * part of a CRD's structural-schema validation that a {@link ObjectSchema} describes). The
 * root's `metadata` is left out: kube-apiserver validates a custom resource's metadata with
 * `ValidateObjectMeta`, not with its schema. A null reads as absent (a structural schema prunes
 * nulls of fields that are not nullable), so a required field sent as null is `Required`.
 */
export function structuralViolations(value: Record<string, unknown>, schema: ObjectSchema): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  visitObject(value, schema, root, out, 'metadata');
  return out;
}
