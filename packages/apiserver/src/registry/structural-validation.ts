import { structuralViolations } from '@kevents/api';
import type { KubeObject, ObjectSchema, SchemaViolation } from '@kevents/api';
import { notSupported, required } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import { semanticEqual } from './generation.js';
import type { ResourceStrategy } from './strategy.js';

/**
 * A violation as the field error kube-apiserver makes of it (`kubeOpenAPIResultToFieldErrors`
 * in k8s.io/apiextensions-apiserver): `field.Required(path, "")`, or `field.NotSupported(path,
 * value, enum)`, which prints `Unsupported value: "x": supported values: "a", "b"`.
 */
export function violationError(v: SchemaViolation): FieldError {
  return v.type === 'Required' ? required(v.field) : notSupported(v.field, v.value, v.supported);
}

/** The schema errors of an object in its stored form (a `schemaView`'s stored form is its wire form). */
export function schemaErrors(obj: KubeObject, schema: ObjectSchema): FieldError[] {
  return structuralViolations(obj as unknown as Record<string, unknown>, schema).map(violationError);
}

const valueAt = (o: unknown, path: readonly (string | number)[]): unknown => {
  let v = o;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
};

/**
 * The value a violation belongs to, as validation ratcheting correlates it: the field of an
 * enum, the object of a missing required field, and for anything inside a list the whole list
 * (kube-apiserver correlates only `map` and `set` lists item by item; a schema here has neither).
 */
function ratchetPath(v: SchemaViolation): readonly (string | number)[] {
  const owner = v.type === 'Required' ? v.path.slice(0, -1) : v.path;
  const firstIndex = owner.findIndex((p) => typeof p === 'number');
  return firstIndex < 0 ? owner : owner.slice(0, firstIndex);
}

/**
 * The schema errors of an update, with kube-apiserver's validation ratcheting
 * (`CRDValidationRatcheting`, on by default since 1.30): an error in a value the update leaves as
 * it was is not reported, so objects stored before a schema got stricter can still be updated.
 */
export function schemaUpdateErrors(obj: KubeObject, old: KubeObject, schema: ObjectSchema): FieldError[] {
  return structuralViolations(obj as unknown as Record<string, unknown>, schema)
    .filter((v) => {
      const p = ratchetPath(v);
      return !semanticEqual(valueAt(obj, p), valueAt(old, p));
    })
    .map(violationError);
}

/**
 * The strategy's errors and the schema's in kube-apiserver's order for a custom resource:
 * metadata first (`ValidateObjectMeta`), then the schema's, then the strategy's own rules (as CEL
 * rules come after the schema).
 */
function inOrder(own: readonly FieldError[], schema: readonly FieldError[]): FieldError[] {
  if (schema.length === 0) return [...own];
  const isMeta = (e: FieldError): boolean => e.field === 'metadata' || e.field.startsWith('metadata.');
  return [...own.filter(isMeta), ...schema, ...own.filter((e) => !isMeta(e))];
}

/**
 * A strategy that also validates `required` and `enum` of every view whose schema is
 * {@link ObjectSchema.structural}, with the words, paths and order kube-apiserver uses for a
 * custom resource. `defineResource` applies it; the errors join the strategy's in one 422, after
 * the checks that come before validation (NotFound, uid and resourceVersion conflicts).
 */
export function withStructuralValidation<T extends KubeObject>(strategy: ResourceStrategy<T>): ResourceStrategy<T> {
  return {
    ...strategy,
    validate: (obj, view) => {
      const own = strategy.validate(obj, view);
      return view.schema.structural ? inOrder(own, schemaErrors(obj, view.schema)) : own;
    },
    validateUpdate: (obj, old, view) => {
      const own = strategy.validateUpdate(obj, old, view);
      return view.schema.structural ? inOrder(own, schemaUpdateErrors(obj, old, view.schema)) : own;
    },
  };
}
