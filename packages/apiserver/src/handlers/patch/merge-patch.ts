import { getOwn, setOwn } from '@kevents/api';
import { WorkBudget } from './work-budget.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * RFC 7386 JSON merge patch: objects merge recursively, null deletes, anything else replaces.
 * Linear in the patch and the members of the objects it reaches, each step charged to `budget`.
 */
export function mergePatch(target: unknown, patch: unknown, budget = new WorkBudget()): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  const entries = Object.entries(patch);
  budget.charge(1 + entries.length + (isObject(target) ? Object.keys(target).length : 0));
  for (const [k, v] of entries) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(getOwn(out, k), v, budget));
  }
  return out;
}
