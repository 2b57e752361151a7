import { getOwn, setOwn } from '@kevents/api';
import { WorkBudget } from './work-budget.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * JSON merge patch as kube-apiserver applies it (evanphx/json-patch v4's `MergePatch`, RFC 7386
 * with one difference): objects merge recursively, null deletes, anything else replaces, and an
 * array put where the target has no object loses the null members of the objects inside it, at
 * any depth (`pruneNulls`; null elements stay). Linear in the patch and the members of the
 * objects it reaches, each step charged to `budget`.
 */
export function mergePatch(target: unknown, patch: unknown, budget = new WorkBudget()): unknown {
  if (!isObject(patch)) return Array.isArray(patch) && !isObject(target) ? pruneNulls(patch, budget) : patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  const entries = Object.entries(patch);
  budget.charge(1 + entries.length + (isObject(target) ? Object.keys(target).length : 0));
  for (const [k, v] of entries) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(getOwn(out, k), v, budget));
  }
  return out;
}

/** A copy of `value` without the null members of its objects, at every depth (`pruneNulls`). */
function pruneNulls(value: unknown, budget: WorkBudget): unknown {
  if (Array.isArray(value)) {
    budget.charge(1 + value.length);
    return value.map((e) => pruneNulls(e, budget));
  }
  if (!isObject(value)) return value;
  const entries = Object.entries(value);
  budget.charge(1 + entries.length);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) if (v !== null) setOwn(out, k, pruneNulls(v, budget));
  return out;
}
