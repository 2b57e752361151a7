import { pathElementsEqual } from '../fieldpath/path-element.js';
import type { PathElement } from '../fieldpath/path-element.js';
import type { Atom, ListType } from '../schema/types.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonObject, JsonValue } from '../value/json-value.js';
import { TypedValueError } from './errors.js';
import type { TypedValueProblem } from './errors.js';
import {
  atomKind,
  childPath,
  invalidAtomMessage,
  listItemToPathElement,
  mapFieldType,
  validateScalar,
} from './helpers.js';
import { PathElementMap } from './path-element-map.js';
import { setOwn } from '@kevents/api';

interface Indexed {
  pes: PathElement[];
  observed: PathElementMap<JsonValue>;
}

/**
 * Merges an applied configuration into a live object (`TypedValue.Merge`, rule "keep RHS"):
 * scalars and atomic lists and maps are replaced by the configuration's; granular maps and
 * structs merge field by field; associative lists merge item by item (matched by key or
 * value), keeping the live items the configuration does not name and ordering the result as
 * structured-merge-diff does (configuration order for the items it names, live items kept in
 * place around them). Nothing is removed: pruning fields the applier dropped is the updater's
 * job. Throws a {@link TypedValueError} for duplicate keys in the configuration and other
 * problems; returns undefined when the result is empty.
 */
export function merge(lhs: JsonValue | undefined, rhs: JsonValue | undefined, type: Atom): JsonValue | undefined {
  const problems: TypedValueProblem[] = [];
  const out = mergeValue(lhs, rhs, type, '', problems);
  if (problems.length > 0) throw new TypedValueError(problems);
  return out;
}

function mergeValue(
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  t: Atom,
  path: string,
  problems: TypedValueProblem[],
): JsonValue | undefined {
  if (lhs === undefined && rhs === undefined) {
    problems.push({ path, message: 'at least one of lhs and rhs must be provided' });
    return undefined;
  }
  const kl = atomKind(t, lhs);
  const kr = atomKind(t, rhs);
  if (rhs === undefined) return handle(kl, lhs, rhs, t, path, problems);
  if (lhs !== undefined && kl !== kr) handle(kl, lhs, rhs, t, path, problems); // only its errors count
  return handle(kr, lhs, rhs, t, path, problems);
}

const keepRHS = (lhs: JsonValue | undefined, rhs: JsonValue | undefined): JsonValue | undefined =>
  rhs !== undefined ? rhs : lhs;

function handle(
  kind: ReturnType<typeof atomKind>,
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  t: Atom,
  path: string,
  problems: TypedValueProblem[],
): JsonValue | undefined {
  switch (kind) {
    case 'invalid':
      problems.push({ path, message: invalidAtomMessage(t) });
      return undefined;
    case 'scalar': {
      const l = validateScalar(t.scalar!, lhs, 'lhs: ');
      const r = validateScalar(t.scalar!, rhs, 'rhs: ');
      if (l && r) {
        problems.push({ path, message: l }, { path, message: r });
        return undefined;
      }
      return keepRHS(lhs, rhs);
    }
    case 'list': {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      const emptyPromoteToLeaf = (l === undefined || l.length === 0) && (r === undefined || r.length === 0);
      if (t.list!.elementRelationship === 'atomic' || emptyPromoteToLeaf) return keepRHS(lhs, rhs);
      return mergeList(t.list!, l, r, path, problems);
    }
    case 'map': {
      const l = isJsonObject(lhs) ? lhs : undefined;
      const r = isJsonObject(rhs) ? rhs : undefined;
      const emptyPromoteToLeaf =
        (l === undefined || Object.keys(l).length === 0) && (r === undefined || Object.keys(r).length === 0);
      if (t.map!.elementRelationship === 'atomic' || emptyPromoteToLeaf) return keepRHS(lhs, rhs);
      const out: JsonObject = {};
      const keys = new Set([...(l ? Object.keys(l) : []), ...(r ? Object.keys(r) : [])]);
      for (const key of keys) {
        const lv = l && Object.hasOwn(l, key) ? l[key] : undefined;
        const rv = r && Object.hasOwn(r, key) ? r[key] : undefined;
        const v = mergeValue(lv, rv, mapFieldType(t, key), childPath(path, { kind: 'field', name: key }), problems);
        if (v !== undefined) setOwn(out, key, v);
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
  }
}

function index(
  list: ListType,
  items: readonly JsonValue[] | undefined,
  allowDuplicates: boolean,
  path: string,
  problems: TypedValueProblem[],
): Indexed {
  const pes: PathElement[] = [];
  const observed = new PathElementMap<JsonValue>();
  (items ?? []).forEach((child, i) => {
    let pe: PathElement;
    try {
      pe = listItemToPathElement(list, child);
    } catch (err) {
      problems.push({ path, message: `element ${i}: ${(err as Error).message}` });
      return;
    }
    if (observed.has(pe)) {
      if (!allowDuplicates) {
        problems.push({ path, message: `duplicate entries for key ${childPath('', pe)}` });
        return;
      }
      observed.set(pe, null); // duplicated items are not merged with the new value
    } else observed.set(pe, child);
    pes.push(pe);
  });
  return { pes, observed };
}

function mergeList(
  list: ListType,
  lhs: readonly JsonValue[] | undefined,
  rhs: readonly JsonValue[] | undefined,
  path: string,
  problems: TypedValueProblem[],
): JsonValue | undefined {
  const before = problems.length;
  const right = index(list, rhs, false, path, problems);
  const left = index(list, lhs, true, path, problems);
  if (problems.length > before) return undefined;

  // structured-merge-diff drops the errors of list items (merge.go shadows them); so do we.
  const item = (pe: PathElement, l: JsonValue | undefined, r: JsonValue | undefined): JsonValue | undefined =>
    mergeValue(l, r, list.elementType, childPath(path, pe), []);

  const out: JsonValue[] = [];
  const push = (v: JsonValue | undefined): void => {
    if (v !== undefined) out.push(v);
  };
  const sharedOrder = right.pes.filter((pe) => left.observed.has(pe));
  let nextShared = sharedOrder.shift();
  const mergedRHS = new PathElementMap<true>();
  const lLen = left.pes.length;
  const rLen = right.pes.length;
  for (let lI = 0, rI = 0; lI < lLen || rI < rLen;) {
    if (lI < lLen && rI < rLen) {
      const pe = left.pes[lI]!;
      if (pathElementsEqual(pe, right.pes[rI]!)) {
        mergedRHS.set(pe, true);
        push(item(pe, left.observed.get(pe), right.observed.get(pe)));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (right.observed.has(pe) && nextShared !== undefined && !pathElementsEqual(nextShared, pe)) {
        lI++; // shared item, but not the one we want in this round
        continue;
      }
    }
    if (lI < lLen) {
      const pe = left.pes[lI]!;
      if (!right.observed.has(pe)) {
        push(item(pe, lhs![lI]!, undefined));
        lI++;
        continue;
      } else if (mergedRHS.has(pe)) lI++;
    }
    if (rI < rLen) {
      const pe = right.pes[rI]!;
      mergedRHS.set(pe, true);
      push(item(pe, left.observed.get(pe), right.observed.get(pe)));
      rI++;
      if (nextShared !== undefined && pathElementsEqual(nextShared, pe)) nextShared = sharedOrder.shift();
    }
  }
  return out.length > 0 ? out : undefined;
}
