import type { KubeObject } from '@kevents/api';
import type { ResourceStrategy } from './strategy.js';

/** Picks the desired state of an object: what a change of bumps `metadata.generation`. */
export type SpecOf<T extends KubeObject> = (obj: T) => unknown;

/**
 * The default desired state: every top-level field but `metadata` and `status` (what a custom
 * resource with a status subresource compares in kube-apiserver's `PrepareForUpdate`).
 */
export const specFields = <T extends KubeObject>(obj: T): Record<string, unknown> => {
  const { metadata: _m, status: _s, kind: _k, apiVersion: _a, ...spec } = obj as T & Record<string, unknown>;
  return spec;
};

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).every((k) => isEmpty((v as never)[k])));

/**
 * `apiequality.Semantic.DeepEqual` on decoded JSON: as Go compares typed objects, an absent
 * field, a null, an empty list and an empty map are the same (Go's nil and empty slices and maps
 * are equal, and a decoded object has no other way to tell them apart).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => semanticEqual(x, bb[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (!semanticEqual(ra[k], rb[k])) return false;
  return true;
}

/** `PrepareForCreate` of a kind with a spec: a new object is at generation 1. */
export function initialGeneration(obj: KubeObject): void {
  obj.metadata.generation = 1;
}

/**
 * `PrepareForUpdate` of a kind with a spec: the generation (the stored one, which
 * `rest.BeforeUpdate` restored) goes up by one when the desired state changed.
 */
export function nextGeneration<T extends KubeObject>(obj: T, old: T, spec: SpecOf<T> = specFields): void {
  if (!semanticEqual(spec(obj), spec(old))) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
}

/**
 * `markAsDeleting` and `rest.BeforeDelete`: the first time an object is marked for deletion
 * (its finalizers keep it), a generation that is set goes up by one, since controllers of the
 * object change what they do. Call before `deletionTimestamp` is set.
 */
export function generationOnDeletion(obj: KubeObject): void {
  const g = obj.metadata.generation;
  if (obj.metadata.deletionTimestamp === undefined && g !== undefined && g > 0) obj.metadata.generation = g + 1;
}

/**
 * The strategy of a kind with a spec/status split, with `metadata.generation` kept as
 * kube-apiserver's strategies of such kinds keep it (Deployments, custom resources): 1 on
 * create, one more on every update or patch that changes the desired state, and untouched by
 * anything else (metadata, status, a no-op write). The strategy's own `prepareForCreate` and
 * `prepareForUpdate` run first, so the comparison sees the object as it will be stored.
 *
 * @param spec - the desired state; default every top-level field but `metadata` and `status`
 * @example
 * ```ts
 * export const widgetStrategy = withSpecGeneration<Widget>({ namespaced: true, ... }, (w) => w.spec);
 * ```
 */
export function withSpecGeneration<T extends KubeObject>(
  strategy: ResourceStrategy<T>,
  spec: SpecOf<T> = specFields,
): ResourceStrategy<T> {
  return {
    ...strategy,
    prepareForCreate: (obj) => {
      strategy.prepareForCreate?.(obj);
      initialGeneration(obj);
    },
    prepareForUpdate: (obj, old) => {
      strategy.prepareForUpdate?.(obj, old);
      nextGeneration(obj, old, spec);
    },
  };
}
