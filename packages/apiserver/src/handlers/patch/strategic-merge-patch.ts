import { badRequest } from '../../errors/api-error.js';
import { getOwn, setOwn } from '@kevents/api';
import { WorkBudget } from './work-budget.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

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
      this.budget.chargeHashed(1);
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
    budget.chargeHashed(base.length);
    const present = new Set<unknown>(base);
    for (const v of patch) {
      // A container of the patch is never in the set (the set holds the target's values and
      // values added before it): it is appended without being hashed.
      if (isContainer(v)) {
        base.push(v);
        continue;
      }
      if (present.has(v)) continue;
      budget.chargeHashed(1);
      present.add(v);
      base.push(v);
    }
    return base;
  }
  // By key: each patch item merges into the first object item with the same key value (===, as
  // a Map compares), deletes it (`$patch: delete`), or is appended. The index makes finding
  // that item one lookup instead of a search of the list.
  const index = new KeyIndex(budget);
  const owned = new Set<object>();
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
    // An item a patch item merged into is this patch's own: the next ones change it in place.
    const merged = mergeInto(base[idx], item, '', budget, owned.has(base[idx]));
    if (isObject(merged) && !owned.has(merged)) {
      budget.chargeHashed(1);
      owned.add(merged);
    }
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
 * `$deleteFromPrimitiveList`: `list` without the values `values` names (===, as a Set compares).
 * The table is built of the list's values and `values` only looked up in it, however long it is;
 * a container `values` holds is never an item of the list, so it is not looked up.
 */
function withoutValues(list: unknown[], values: unknown[], budget: WorkBudget): unknown[] {
  budget.charge(list.length + values.length);
  budget.chargeHashed(list.length);
  const drop = new Map<unknown, boolean>();
  for (const x of list) if (!isContainer(x)) drop.set(x, false);
  for (const x of values) if (!isContainer(x) && drop.has(x)) drop.set(x, true);
  return list.filter((x) => isContainer(x) || !drop.get(x));
}

/**
 * `$setElementOrder`: the items the directive names come in its order, the others keep their
 * relative places after them (`normalizeElementOrder`). A stable counting sort by rank.
 */
function orderList(list: unknown[], order: unknown[], key: string | null, budget: WorkBudget): unknown[] {
  budget.charge(list.length + order.length);
  const id = (v: unknown): unknown => (key === null ? v : isObject(v) ? getOwn(v, key) : undefined);
  // The first place in the order of each identity the list holds (indexOf's answer): the table is
  // built of the list's identities and the order only looked up in it, however long it is. A
  // container the order names is never an item of the list (nor the identity of one), so it is
  // not looked up.
  const ids = list.map(id);
  const wanted = new Map<unknown, number>();
  budget.chargeHashed(ids.length);
  for (const k of ids) if (!isContainer(k)) wanted.set(k, -1);
  order.forEach((v, i) => {
    const k = id(v);
    if (!isContainer(k) && wanted.get(k) === -1) wanted.set(k, i);
  });
  const last = order.length;
  const ranks = ids.map((k) => {
    const r = isContainer(k) ? -1 : wanted.get(k)!;
    return r < 0 ? last : r;
  });
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
  return mergeInto(target, patch, path, budget, false);
}

/**
 * {@link strategicMerge}, changing `target` itself when `own` (an object this patch made, that
 * nothing else refers to) instead of copying it: a list item that many patch items with its key
 * merge into is copied once, not once for each of them.
 */
function mergeInto(target: unknown, patch: unknown, path: string, budget: WorkBudget, own: boolean): unknown {
  if (!isObject(patch)) return patch;
  const directive = getOwn(patch, '$patch');
  if (directive === 'delete') return undefined;
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge') {
    throw badRequest(`Unable to find the patch directive: ${String(directive)}`);
  }
  const entries = Object.entries(patch);
  const copied = directive !== 'replace' && isObject(target) && !own ? Object.keys(target).length : 0;
  // Charged before the copy: each of the target's members is listed and copied.
  budget.charge(1 + entries.length + 2 * copied);
  let src: Record<string, unknown>;
  if (directive === 'replace' || !isObject(target)) src = {};
  else src = own ? target : { ...target };
  const retain = getOwn(patch, '$retainKeys');
  for (const [k, v] of entries) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const f = k.slice('$deleteFromPrimitiveList/'.length);
      const list = getOwn(src, f);
      if (Array.isArray(list) && Array.isArray(v)) {
        setOwn(src, f, withoutValues(list, v, budget));
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
      const merged = mergeInto(getOwn(src, k), v, childPath, budget, false);
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
    // The table is built of the object's keys and the list only looked up in it.
    budget.chargeHashed(keys.length);
    const keep = new Map<string, boolean>(keys.map((k) => [k, false]));
    for (const r of retain) if (typeof r === 'string' && keep.has(r)) keep.set(r, true);
    for (const k of keys) if (!keep.get(k)) delete src[k];
  }
  return src;
}
