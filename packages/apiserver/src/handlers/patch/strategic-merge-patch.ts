import { badRequest, unprocessable } from '../../errors/api-error.js';
import { coreEventSchema, getOwn, goFormatValue, setOwn } from '@kevents/api';
import type { ObjectSchema } from '@kevents/api';
import { WorkBudget } from './work-budget.js';
import { goStruct, lookupField, lookupListField } from './strategic-merge-schema.js';
import type { GoType } from './strategic-merge-schema.js';

// A strategic merge patch as kube-apiserver applies one (k8s.io/apimachinery's
// strategicpatch.StrategicMergeMapPatch with MergeParallelList and IgnoreUnmatchedNulls), with
// the same results and error texts, in linear time: where Go searches a list for every item,
// this builds a table of the object's side and looks the patch's side up in it.

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isContainer = (v: unknown): boolean => v !== null && typeof v === 'object';

const deletePrefix = '$deleteFromPrimitiveList';
const orderPrefix = '$setElementOrder';

/** Go's error for malformed input: a 400 with its text (kube answers most of them with a 500). */
const fail = (text: string): never => {
  throw badRequest(text);
};

/** `reflect.TypeOf(v)` of a decoded JSON value, as `%s` prints it. */
function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int64';
  return 'string';
}

/** `mergepatch.ErrBadArgType`. */
const badArgType = (expected: 'list' | 'map', actual: unknown): never =>
  fail(
    `expected a ${expected === 'list' ? '[]interface {}' : 'map[string]interface {}'}, but received a ${goTypeName(actual)}`,
  );

/** `mergepatch.ErrNoMergeKey`. */
const noMergeKey = (m: Obj, key: string): never =>
  fail(`map: ${goFormatValue(m)} does not contain declared merge key: ${key}`);

/** `mergepatch.ErrBadPatchType`: the directive as `%s` prints it. */
const badPatchType = (t: unknown, m: Obj): never => {
  const s =
    typeof t === 'string'
      ? t
      : isObject(t) || Array.isArray(t)
        ? goFormatValue(t)
        : `%!s(${t === null ? '<nil>' : `${goTypeName(t)}=${goFormatValue(t)}`})`;
  return fail(`unknown patch type: ${s} in map: ${goFormatValue(m)}`);
};

/** A list item or value a directive removed (`removeDirectives`'s "not kept"). */
const dropped: unique symbol = Symbol('dropped');

/**
 * A patch value put where the object has none (or one of another type): its maps that hold a
 * `$patch` are left out (`removeDirectives`) and, with `discardNulls`, its maps' null members
 * (`discardNullValuesFromPatch`). A new tree: the patch is never changed.
 */
function clean(v: unknown, discardNulls: boolean, budget: WorkBudget): unknown {
  budget.charge(1);
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const c = clean(x, discardNulls, budget);
      if (c !== dropped) out.push(c);
    }
    return out;
  }
  if (!isObject(v)) return v;
  const directive = getOwn(v, '$patch');
  if (directive !== undefined && !(discardNulls && directive === null)) return dropped;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null && discardNulls) continue;
    const c = clean(x, discardNulls, budget);
    if (c !== dropped) setOwn(out, k, c);
  }
  return out;
}

/**
 * The element kind of lists (`sliceElementType`): `map` or a scalar type's name; Go's errors
 * for lists of lists (a 422, as kube answers), mixed types, and no elements at all.
 */
function elementKind(lists: readonly unknown[][], budget: WorkBudget): string {
  let kind: string | undefined;
  for (const list of lists) {
    budget.charge(list.length);
    for (const v of list) {
      const t = goTypeName(v);
      if (kind === undefined) {
        // Go calls Kind() on the nil type of a null first element: a panic (a 500 on kube).
        if (v === null) fail('runtime error: invalid memory address or nil pointer dereference');
        if (Array.isArray(v)) {
          throw unprocessable(
            'the server rejected our request due to an error in our request: lists of lists are not supported',
          );
        }
        kind = t;
      } else if (t !== kind) {
        fail(`list element types are not identical: ${goFormatValue(lists)}`);
      }
    }
  }
  if (kind === undefined) return fail('no elements in any of the given slices');
  return kind === 'map[string]interface {}' ? 'map' : kind;
}

/** `$patch` in a map (`handleDirectiveInMergeMap`): `replace` is the patch itself, `delete` `{}`. */
function directiveInMap(directive: unknown, patch: Obj): Obj {
  if (directive === 'replace') {
    const out = { ...patch };
    delete out.$patch;
    return out;
  }
  if (directive === 'delete') return {};
  return badPatchType(directive, patch);
}

/** The field a `$deleteFromPrimitiveList/f` or `$setElementOrder/f` names (`extractKey`). */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    fail(
      prefix === deletePrefix
        ? 'invalid patch format of primitive list'
        : 'invalid patch format of setElementOrder list',
    );
  }
  return key.slice(slash + 1);
}

/**
 * A strategic merge patch of an object of the kind `schema` describes (core/v1 Event unless
 * told), as kube-apiserver applies it with the Go type's patch tags: maps merge, `null`
 * deletes, `metadata.finalizers` merge as a set and `metadata.ownerReferences` by `uid` (in Go's
 * order: the patch's items, then the object's others), every other list is replaced; the
 * directives `$patch`, `$retainKeys`, `$deleteFromPrimitiveList/<f>` and `$setElementOrder/<f>`;
 * malformed input fails with Go's text (400s; lists of lists a 422). Neither argument changes.
 * Every step is charged to `budget` (a 422 once it is spent), and lists merge, delete, order and
 * retain in linear time.
 */
export function strategicMerge(
  target: unknown,
  patch: Obj,
  budget = new WorkBudget(),
  schema: ObjectSchema = coreEventSchema,
): Obj {
  return mergeMap(isObject(target) ? target : undefined, false, patch, goStruct(schema), budget);
}

/**
 * `mergeMap`: `patch` merged into `original` (changed in place when `own`, an object this patch
 * made, else copied), fields looked up in `schema`.
 */
function mergeMap(original: Obj | undefined, own: boolean, patch: Obj, schema: GoType, budget: WorkBudget): Obj {
  if (Object.hasOwn(patch, '$patch')) return directiveInMap(patch.$patch, patch);
  const entries = Object.entries(patch);
  const copied = original !== undefined && !own ? Object.keys(original).length : 0;
  // Charged before the copy: each of the target's members is listed and copied.
  budget.charge(1 + entries.length + 2 * copied);
  const out: Obj = original === undefined ? {} : own ? original : { ...original };
  if (Object.hasOwn(patch, '$retainKeys')) retainKeys(out, entries, patch.$retainKeys, budget);
  let ordered: Set<string> | undefined;
  for (const [k, v] of entries) {
    if (!k.startsWith(orderPrefix)) continue;
    const f = orderList(out, patch, k, v, schema, budget);
    if (f !== undefined) {
      ordered ??= new Set();
      budget.chargeHashed(1);
      ordered.add(f);
    }
  }
  for (const [key, v] of entries) {
    if (key === '$retainKeys' || key.startsWith(orderPrefix) || ordered?.has(key)) continue;
    const isDeleteList = key.startsWith(deletePrefix);
    const k = isDeleteList ? extractKey(key, deletePrefix) || key : key;
    if (v === null) {
      delete out[k];
      continue;
    }
    const o = getOwn(out, k);
    if (o === undefined || goTypeName(o) !== goTypeName(v)) {
      if (isDeleteList) continue;
      const c = clean(v, true, budget);
      if (c === dropped) delete out[k];
      else setOwn(out, k, c);
    } else if (isObject(o)) {
      setOwn(out, k, mergeMap(o, false, v as Obj, lookupField(schema, k).type, budget));
    } else if (Array.isArray(o)) {
      const f = lookupListField(schema, k);
      setOwn(
        out,
        k,
        f.merge || isDeleteList ? mergeList(o, v as unknown[], f.elem, f.mergeKey, isDeleteList, budget) : v,
      );
    } else {
      setOwn(out, k, v);
    }
  }
  return out;
}

/**
 * `$retainKeys` (`applyRetainKeysDirective`): a list of the members to keep, which must name
 * every member the patch sets. The table is built of the members and the list only looked up in
 * it, however long it is.
 */
function retainKeys(out: Obj, entries: [string, unknown][], retain: unknown, budget: WorkBudget): void {
  if (!Array.isArray(retain)) fail('invalid patch format of retainKeys');
  const list = retain as unknown[];
  // Go makes a set of the list: it panics hashing a map or a list.
  const container = list.find(isContainer);
  if (container !== undefined) fail(`runtime error: hash of unhashable type ${goTypeName(container)}`);
  const set = entries
    .filter(([k, v]) => v !== null && k !== '$retainKeys' && !k.startsWith(deletePrefix) && !k.startsWith(orderPrefix))
    .map(([k]) => k);
  const keys = Object.keys(out);
  budget.charge(entries.length + keys.length + list.length);
  budget.chargeHashed(set.length + keys.length);
  const kept = new Map<string, boolean>();
  for (const k of [...set, ...keys]) kept.set(k, false);
  for (const r of list) if (typeof r === 'string' && kept.has(r)) kept.set(r, true);
  if (set.some((k) => !kept.get(k))) fail('invalid patch format of retainKeys');
  for (const k of keys) if (!kept.get(k)) delete out[k];
}

/** Items sharing one identity (a value, or a merge key's value), in list order. */
interface Group {
  items: unknown[];
  /** The first place of the identity in the patch's list (or its `$setElementOrder`), or -1. */
  patch: number;
  /** The first place of the identity in the object's list, or -1. */
  server: number;
}

/**
 * `normalizeElementOrder`: the patch's groups (in patch order) and the others (in the object's
 * order) merged as `mergeSortedSlice` does: an object's item goes first only when both it and
 * the patch's next item are in the object's list and it comes before it there.
 */
function interleave(patchGroups: Group[], serverGroups: Group[], budget: WorkBudget): unknown[] {
  const flat = (gs: Group[]): [unknown, number][] =>
    gs.flatMap((g) => g.items.map((x): [unknown, number] => [x, g.server]));
  const right = flat(patchGroups);
  const left = flat(serverGroups);
  budget.charge(left.length + right.length);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]![0]);
    else if (i >= left.length) out.push(right[j++]![0]);
    else {
      const [l, li] = left[i]!;
      const [r, ri] = right[j]!;
      if (li >= 0 && ri >= 0 && li < ri) {
        out.push(l);
        i++;
      } else {
        out.push(r);
        j++;
      }
    }
  }
  return out;
}

/** The groups of `list` in the order of the first places `at` their identities have in it. */
function groupsInOrder(
  list: unknown[],
  groupOf: (v: unknown, i: number) => Group | undefined,
  at: (g: Group) => number,
): Group[] {
  const out: Group[] = [];
  list.forEach((v, i) => {
    const g = groupOf(v, i);
    if (g !== undefined && at(g) === i) out.push(g);
  });
  return out;
}

/**
 * `mergeSlice` of a list with a merge strategy (or a `$deleteFromPrimitiveList`): scalars merge
 * as a set (or are deleted), maps by `mergeKey`, with `$patch: delete|replace` items; the result
 * in Go's order.
 */
function mergeList(
  original: unknown[],
  patch: unknown[],
  elem: GoType,
  mergeKey: string,
  isDeleteList: boolean,
  budget: WorkBudget,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind([original, patch], budget);
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromList(original, patch, budget);
    // Scalars in a list merged by key: the partition by key refuses the first.
    if (mergeKey !== '') badArgType('map', original.length > 0 ? original[0] : patch[0]);
    return mergeScalars(original, patch, budget);
  }
  if (mergeKey === '') fail(`cannot merge lists without merge key for ${elem.kind}`);
  return mergeMaps(original as Obj[], patch as Obj[], elem, mergeKey, budget);
}

/** `deleteFromSlice`: `list` without the values `values` names (a table of the list's values). */
function deleteFromList(list: unknown[], values: unknown[], budget: WorkBudget): unknown[] {
  budget.charge(list.length + values.length);
  budget.chargeHashed(list.length);
  const drop = new Map<unknown, boolean>();
  for (const x of list) drop.set(x, false);
  for (const x of values) if (drop.has(x)) drop.set(x, true);
  return list.filter((x) => !drop.get(x));
}

/** A set of scalars merged (`deduplicateScalars`, then ordered): each value once. */
function mergeScalars(original: unknown[], patch: unknown[], budget: WorkBudget): unknown[] {
  budget.charge(2 * (original.length + patch.length));
  const groups = new Map<unknown, Group>();
  const groupOf = (v: unknown): Group | undefined => groups.get(v);
  const add = (v: unknown): Group => {
    budget.chargeHashed(1);
    const g: Group = { items: [v], patch: -1, server: -1 };
    groups.set(v, g);
    return g;
  };
  original.forEach((v, i) => {
    const g = groups.get(v) ?? add(v);
    if (g.server < 0) g.server = i;
  });
  patch.forEach((v, j) => {
    const g = groups.get(v) ?? add(v);
    if (g.patch < 0) g.patch = j;
  });
  return interleave(
    groupsInOrder(patch, groupOf, (g) => g.patch),
    groupsInOrder(original, groupOf, (g) => (g.patch < 0 ? g.server : -1)),
    budget,
  );
}

/** An item a `$patch: delete` removed (kept in place until the end, so positions stay put). */
const removed: unique symbol = Symbol('removed');

/**
 * Maps merged by `key` (`mergeSliceWithSpecialElements`, `mergeSliceWithoutSpecialElements`):
 * `$patch: delete` items delete every item with their key, `$patch: replace` makes the patch's
 * other items the list, each other item merges into the first with its key or is appended as it
 * is; then the patch's keys come first.
 */
function mergeMaps(original: Obj[], patch: Obj[], elem: GoType, key: string, budget: WorkBudget): unknown[] {
  budget.charge(original.length + patch.length);
  const merges: Obj[] = [];
  const deletes: unknown[] = [];
  let replace = false;
  for (const item of patch) {
    if (!Object.hasOwn(item, '$patch')) {
      merges.push(item);
      continue;
    }
    const directive = item.$patch;
    if (directive === 'delete') {
      if (!Object.hasOwn(item, key)) noMergeKey(item, key);
      deletes.push(item[key]);
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') fail('merging lists cannot yet be specified in the patch');
    else badPatchType(directive, item);
  }
  const base: unknown[] = replace ? [...merges] : [...original];
  const patchItems = replace ? [] : merges;
  // Each key's group: its live positions in `base` (ascending, from `head`), where it is first.
  const groups = new Map<unknown, Group & { at: number[]; head: number }>();
  const owned: boolean[] = [];
  const place = (k: unknown, pos: number): void => {
    let g = groups.get(k);
    if (g === undefined) {
      budget.chargeHashed(1);
      g = { items: [], patch: -1, server: -1, at: [], head: 0 };
      groups.set(k, g);
    }
    g.at.push(pos);
  };
  (base as Obj[]).forEach((item, i) => {
    if (Object.hasOwn(item, key)) place(item[key], i);
  });
  // Deletions delete from the object's list, which a replace drops anyway.
  for (const k of replace ? [] : deletes) {
    const g = groups.get(k);
    if (g === undefined) continue;
    for (let i = g.head; i < g.at.length; i++) base[g.at[i]!] = removed;
    g.head = g.at.length;
  }
  const serverLength = base.length;
  for (const item of patchItems) {
    if (!Object.hasOwn(item, key)) noMergeKey(item, key);
    const k = item[key];
    const g = groups.get(k);
    if (g === undefined || g.head === g.at.length) {
      place(k, base.length);
      base.push(item);
      continue;
    }
    const pos = g.at[g.head]!;
    const merged = mergeMap(base[pos] as Obj, owned[pos] === true, item, elem, budget);
    base[pos] = merged;
    owned[pos] = true;
    // Only a null key merging into an item with a null key drops it: that item has no key now.
    if (!Object.hasOwn(merged, key)) g.head++;
  }
  // Partition (`partitionMapsByPresentInList`): every item needs its key.
  for (let i = 0; i < base.length; i++) {
    const item = base[i];
    if (item === removed) continue;
    if (!Object.hasOwn(item as Obj, key)) noMergeKey(item as Obj, key);
    const g = groups.get((item as Obj)[key])!;
    g.items.push(item);
    if (g.server < 0 && i < serverLength) g.server = i;
  }
  const groupOf = (v: unknown): Group | undefined => groups.get((v as Obj)[key]);
  patchItems.forEach((item, j) => {
    const g = groupOf(item)!;
    if (g.patch < 0) g.patch = j;
  });
  return interleave(
    groupsInOrder(patchItems, groupOf, (g) => g.patch),
    groupsInOrder(
      base.slice(0, serverLength),
      (v) => (v === removed ? undefined : groupOf(v)),
      (g) => (g.patch < 0 ? g.server : -1),
    ),
    budget,
  );
}

/**
 * `validatePatchWithSetOrderList`: the patch's items (but deletions and directives) must come in
 * the `$setElementOrder` list, in its order. One pass over both.
 */
function validateOrder(patchList: unknown[], order: unknown[], key: string, budget: WorkBudget): void {
  if (order.length === 0 || patchList.length === 0) return;
  budget.charge(2 * patchList.length + order.length);
  const items =
    key === ''
      ? patchList
      : patchList.filter((v) => (isObject(v) ? getOwn(v, '$patch') !== 'delete' : badArgType('map', v)));
  const same = (x: unknown, y: unknown): boolean => {
    if (key === '') return x === y;
    if (!isObject(x)) badArgType('map', x);
    if (!isObject(y)) badArgType('map', y);
    if (!Object.hasOwn(x as Obj, key)) noMergeKey(x as Obj, key);
    if (!Object.hasOwn(y as Obj, key)) noMergeKey(y as Obj, key);
    return (x as Obj)[key] === (y as Obj)[key];
  };
  let pi = 0;
  let si = 0;
  while (pi < items.length && si < order.length) {
    const x = items[pi];
    if (isObject(x) && Object.hasOwn(x, '$patch')) {
      pi++;
      continue;
    }
    if (same(x, order[si])) pi++;
    si++;
  }
  if (pi < items.length) {
    fail(
      `The order in patch list:\n${goFormatValue(patchList)}\n doesn't match ${orderPrefix} list:\n${goFormatValue(order)}\n`,
    );
  }
}

/**
 * `$setElementOrder/<f>` (`mergePatchIntoOriginal`): the list `f` (the object's, the patch's, or
 * both merged) with the items the directive names first, in its order, and the others in the
 * object's order between them. Returns `f` when the patch's list is used up. The table is built
 * of the list's items and the directive only looked up in it, however long it is.
 */
function orderList(
  out: Obj,
  patch: Obj,
  directiveKey: string,
  order: unknown,
  schema: GoType,
  budget: WorkBudget,
): string | undefined {
  if (!Array.isArray(order)) return badArgType('list', order);
  const f = extractKey(directiveKey, orderPrefix);
  const inObject = Object.hasOwn(out, f);
  const inPatch = Object.hasOwn(patch, f);
  const o = inObject ? out[f] : [];
  const p = inPatch ? patch[f] : [];
  if (!Array.isArray(o)) return badArgType('list', o);
  if (!Array.isArray(p)) return badArgType('list', p);
  const field = lookupListField(schema, f);
  const key = field.mergeKey;
  validateOrder(p, order, key, budget);
  let merged: unknown[];
  if (inObject && !inPatch) merged = o;
  else if (inPatch && !inObject) merged = clean(p, false, budget) as unknown[];
  else if (inPatch) merged = field.merge ? mergeList(o, p, field.elem, key, false, budget) : p;
  else return undefined;
  budget.charge(2 * merged.length + order.length + o.length);
  // Partition (`partitionMapsByPresentInList`, `partitionPrimitivesByPresentInList`). The latter
  // hashes every value of the directive and of the list: Go panics on a map or a list there.
  if (key === '') {
    const container = order.find(isContainer) ?? merged.find(isContainer);
    if (container !== undefined) fail(`runtime error: hash of unhashable type ${goTypeName(container)}`);
  }
  const groups = new Map<unknown, Group>();
  const ids = merged.map((item): unknown => {
    if (key === '') return item;
    if (!isObject(item) || !Object.hasOwn(item, key)) return removed;
    return item[key];
  });
  ids.forEach((id, i) => {
    if (id === removed) return;
    let g = groups.get(id);
    if (g === undefined) {
      budget.chargeHashed(1);
      g = { items: [], patch: -1, server: -1 };
      groups.set(id, g);
    }
    g.items.push(merged[i]);
  });
  const idOf = (v: unknown): unknown => (key === '' ? v : isObject(v) && Object.hasOwn(v, key) ? v[key] : removed);
  const groupOf = (v: unknown): Group | undefined => {
    const id = idOf(v);
    return id === removed ? undefined : groups.get(id);
  };
  let firstNonMap = -1;
  order.forEach((v, i) => {
    if (key !== '' && !isObject(v) && firstNonMap < 0) firstNonMap = i;
    const g = groupOf(v);
    if (g !== undefined && g.patch < 0) g.patch = i;
  });
  merged.forEach((item, i) => {
    if (key === '') return;
    if (!isObject(item)) badArgType('map', item);
    if (ids[i] === removed) noMergeKey(item as Obj, key);
    const g = groups.get(ids[i])!;
    if (firstNonMap >= 0 && (g.patch < 0 || g.patch > firstNonMap)) fail(`value for key ${firstNonMap} is not a map`);
  });
  const kind = elementKind([o, p], budget);
  if (kind === 'map') {
    for (const v of [...order, ...o]) {
      if (!isObject(v)) badArgType('map', v);
      if (!Object.hasOwn(v as Obj, key)) noMergeKey(v as Obj, key);
    }
  }
  o.forEach((v, i) => {
    const g = groupOf(v);
    if (g !== undefined && g.server < 0) g.server = i;
  });
  const patchGroups = groupsInOrder(order, groupOf, (g) => g.patch);
  const serverGroups = groupsInOrder(o, groupOf, (g) => (g.patch < 0 ? g.server : -1));
  // Items neither list holds (Go's sort has no order for them): last.
  for (const g of groups.values()) if (g.patch < 0 && g.server < 0) serverGroups.push(g);
  setOwn(out, f, interleave(patchGroups, serverGroups, budget));
  return f;
}
