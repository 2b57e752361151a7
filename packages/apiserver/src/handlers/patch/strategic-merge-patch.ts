import { badRequest } from '../../errors/api-error.js';
import { getOwn, setOwn } from '@kevents/api';
import { WorkBudget } from './work-budget.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** List fields of ObjectMeta with a merge strategy: `finalizers` (set) and `ownerReferences` (by uid). */
const mergeKeys: Readonly<Record<string, string | null>> = { finalizers: null, ownerReferences: 'uid' };

/** A list item a `$patch: delete` removed (kept in place until the end, so positions stay put). */
const removed: unique symbol = Symbol('removed');

/** The ascending positions of several items with one key value, the live ones from `head`. */
interface Positions {
  at: number[];
  head: number;
}

/**
 * Where the object items of a list are, by merge key value: the position of the live item with
 * each value, or the ascending positions when several share it. An item only ever leaves as the
 * first of its value (a merge finds, deletes or re-keys the first item with its key), so the
 * first live position is always at the head.
 */
class KeyIndex {
  private readonly at = new Map<unknown, number | Positions>();
  private readonly budget: WorkBudget;

  constructor(budget: WorkBudget) {
    this.budget = budget;
  }

  /** The position of the first live item with key value `k`, or -1. */
  first(k: unknown): number {
    const p = this.at.get(k);
    if (p === undefined) return -1;
    if (typeof p === 'number') return p;
    return p.head < p.at.length ? p.at[p.head]! : -1;
  }

  /** Forgets the first live item with key value `k` (there is one). */
  dropFirst(k: unknown): void {
    const p = this.at.get(k)!;
    if (typeof p === 'number') this.at.delete(k);
    else p.head++;
  }

  /** Records an item with key value `k` at `pos`. */
  add(k: unknown, pos: number): void {
    const p = this.at.get(k);
    if (p === undefined) {
      this.at.set(k, pos);
      return;
    }
    const q = typeof p === 'number' ? { at: [p], head: 0 } : p;
    if (q !== p) this.at.set(k, q);
    const at = q.at;
    if (at.length === q.head || at[at.length - 1]! < pos) {
      at.push(pos);
      return;
    }
    // Only an item whose merge changed its key comes back in the middle.
    let lo = q.head;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    this.budget.chargeShift(at.length - lo);
    at.splice(lo, 0, pos);
  }
}

function mergeList(target: unknown, patch: unknown[], key: string | null, budget: WorkBudget): unknown[] {
  const base = Array.isArray(target) ? [...target] : [];
  budget.charge(base.length + patch.length);
  if (key === null) {
    // A set: the patch's values that are not there yet, in order (a Set compares as includes does).
    const present = new Set<unknown>(base);
    for (const v of patch) {
      if (present.has(v)) continue;
      present.add(v);
      base.push(v);
    }
    return base;
  }
  // By key: each patch item merges into the first object item with the same key value (===, as
  // a Map compares), deletes it (`$patch: delete`), or is appended. The index makes finding
  // that item one lookup instead of a search of the list.
  const index = new KeyIndex(budget);
  base.forEach((b, i) => {
    if (isObject(b)) index.add(getOwn(b, key), i);
  });
  for (const item of patch) {
    if (!isObject(item)) continue;
    const k = getOwn(item, key);
    const idx = index.first(k);
    if (getOwn(item, '$patch') === 'delete') {
      if (idx >= 0) {
        base[idx] = removed;
        index.dropFirst(k);
      }
      continue;
    }
    if (idx < 0) {
      index.add(k, base.length);
      base.push(item);
      continue;
    }
    const merged = strategicMerge(base[idx], item, '', budget);
    base[idx] = merged;
    // A merge can drop or null the key ($retainKeys, a null): the item moves to its new value.
    const mk = isObject(merged) ? getOwn(merged, key) : removed;
    if (mk !== k) {
      index.dropFirst(k);
      if (mk !== removed) index.add(mk, idx);
    }
  }
  return base.filter((v) => v !== removed);
}

/**
 * `$setElementOrder`: the items the directive names come in its order, the others keep their
 * relative places after them (`normalizeElementOrder`). A stable counting sort by rank.
 */
function orderList(list: unknown[], order: unknown[], key: string | null, budget: WorkBudget): unknown[] {
  budget.charge(list.length + order.length);
  const id = (v: unknown): unknown => (key === null ? v : isObject(v) ? getOwn(v, key) : undefined);
  // The first place of each identity in the order (indexOf's answer), found in one lookup.
  const wanted = new Map<unknown, number>();
  order.forEach((v, i) => {
    const k = id(v);
    if (!wanted.has(k)) wanted.set(k, i);
  });
  const last = order.length;
  const ranks = list.map((v) => wanted.get(id(v)) ?? last);
  const start = new Array<number>(last + 2).fill(0);
  for (const r of ranks) start[r + 1]!++;
  for (let r = 1; r < start.length; r++) start[r]! += start[r - 1]!;
  const out = new Array<unknown>(list.length);
  ranks.forEach((r, i) => {
    out[start[r]!++] = list[i];
  });
  return out;
}

/**
 * A strategic merge patch for the Event kinds: a merge patch plus the directives
 * (`$patch: replace|delete|merge`, `$retainKeys`, `$deleteFromPrimitiveList/<f>`,
 * `$setElementOrder/<f>`) and the merge strategies of metadata lists. No Event field is a list
 * with a merge key, so other lists are replaced, as Kubernetes does. Every step is charged to
 * `budget` (a 422 once it is spent); lists merge, delete, order and retain in linear time
 * (sets and maps where the plain reading would search a list for every item).
 */
export function strategicMerge(target: unknown, patch: unknown, path = '', budget = new WorkBudget()): unknown {
  if (!isObject(patch)) return patch;
  const directive = getOwn(patch, '$patch');
  if (directive === 'delete') return undefined;
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge') {
    throw badRequest(`Unable to find the patch directive: ${String(directive)}`);
  }
  const src: Record<string, unknown> = directive === 'replace' || !isObject(target) ? {} : { ...target };
  const retain = getOwn(patch, '$retainKeys');
  const entries = Object.entries(patch);
  budget.charge(1 + entries.length + (isObject(target) ? Object.keys(target).length : 0));
  for (const [k, v] of entries) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const f = k.slice('$deleteFromPrimitiveList/'.length);
      const list = getOwn(src, f);
      if (Array.isArray(list) && Array.isArray(v)) {
        budget.charge(list.length + v.length);
        const drop = new Set<unknown>(v);
        setOwn(
          src,
          f,
          list.filter((x) => !drop.has(x)),
        );
      }
      continue;
    }
    if (v === null) {
      delete src[k];
      continue;
    }
    const childPath = path ? `${path}.${k}` : k;
    if (Array.isArray(v) && path === 'metadata' && Object.hasOwn(mergeKeys, k)) {
      setOwn(src, k, mergeList(getOwn(src, k), v, mergeKeys[k]!, budget));
    } else {
      const merged = strategicMerge(getOwn(src, k), v, childPath, budget);
      if (merged === undefined) delete src[k];
      else setOwn(src, k, merged);
    }
  }
  for (const [k, order] of entries) {
    if (!k.startsWith('$setElementOrder/') || !Array.isArray(order)) continue;
    const f = k.slice('$setElementOrder/'.length);
    const list = getOwn(src, f);
    if (Array.isArray(list) && path === 'metadata' && Object.hasOwn(mergeKeys, f)) {
      setOwn(src, f, orderList(list, order, mergeKeys[f]!, budget));
    }
  }
  if (Array.isArray(retain)) {
    const keys = Object.keys(src);
    budget.charge(keys.length + retain.length);
    const keep = new Set<unknown>(retain);
    for (const k of keys) if (!keep.has(k)) delete src[k];
  }
  return src;
}
