/**
 * Copying and comparing JSON trees, iteratively (no depth exhausts the stack) and charged to a
 * {@link WorkBudget} step by step (no size holds the event loop past the budget).
 */
import { setOwn } from '@kevents/api';
import type { WorkBudget } from './work-budget.js';

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

/** An empty container of the same kind. */
const emptyLike = (v: object): Record<string, unknown> | unknown[] => (Array.isArray(v) ? [] : {});

/**
 * A deep copy of JSON data. Its members are own data properties, `__proto__` included (set as
 * data, never as the prototype), and the patch appliers read them with `getOwn`, so a member
 * named `__proto__`, `constructor` or `prototype` is data and nothing else. (The objects keep
 * Object.prototype: V8 holds prototype-less objects in slow dictionary mode.) Every container
 * of the copy is new: it shares nothing with `value`, even where `value` shares a container
 * between two places.
 */
export function cloneTree(value: unknown, budget: WorkBudget): unknown {
  if (!isContainer(value)) return value;
  const root = emptyLike(value);
  // Containers still to fill, and what each is filled from.
  const from: object[] = [value];
  const into: (Record<string, unknown> | unknown[])[] = [root];
  while (from.length > 0) {
    const src = from.pop()!;
    const dst = into.pop()!;
    if (Array.isArray(src)) {
      const out = dst as unknown[];
      budget.charge(src.length + 1);
      for (const v of src as unknown[]) {
        if (isContainer(v)) {
          const c = emptyLike(v);
          out.push(c);
          from.push(v);
          into.push(c);
        } else {
          out.push(v);
        }
      }
    } else {
      const o = src as Record<string, unknown>;
      const out = dst as Record<string, unknown>;
      const keys = Object.keys(o);
      budget.charge(keys.length + 1);
      for (const k of keys) {
        const v = o[k];
        if (isContainer(v)) {
          const c = emptyLike(v);
          setOwn(out, k, c);
          from.push(v);
          into.push(c);
        } else {
          setOwn(out, k, v);
        }
      }
    }
  }
  return root;
}

/**
 * Whether two JSON values are equal: the same scalars, arrays of equal elements in the same
 * order, objects with the same own members and equal values (in any order).
 */
export function equalTrees(a: unknown, b: unknown, budget: WorkBudget): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    budget.charge(1);
    if (x === y) continue;
    if (!isContainer(x) || !isContainer(y)) return false;
    const xa = Array.isArray(x);
    if (xa !== Array.isArray(y)) return false;
    if (xa) {
      const xs = x as unknown[];
      const ys = y as unknown[];
      if (xs.length !== ys.length) return false;
      budget.charge(xs.length);
      for (let i = 0; i < xs.length; i++) stack.push([xs[i], ys[i]]);
    } else {
      const xo = x as Record<string, unknown>;
      const yo = y as Record<string, unknown>;
      const kx = Object.keys(xo);
      const ky = Object.keys(yo);
      budget.charge(kx.length + ky.length);
      if (kx.length !== ky.length) return false;
      for (const k of kx) {
        if (!Object.hasOwn(yo, k)) return false;
        stack.push([xo[k], yo[k]]);
      }
    }
  }
  return true;
}
