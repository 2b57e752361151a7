import { FieldSet } from '../fieldpath/set.js';
import type { PathElement } from '../fieldpath/path-element.js';
import type { Atom, ListType } from '../schema/types.js';
import { equalValues } from '../value/compare.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';
import { TypedValueError } from './errors.js';
import type { TypedValueProblem } from './errors.js';
import type { AtomKind } from './helpers.js';
import {
  atomKind,
  childPath,
  invalidAtomMessage,
  listItemToPathElement,
  mapFieldType,
  validateScalar,
} from './helpers.js';
import { PathElementMap } from './path-element-map.js';

/** What changed between two values (`typed.Comparison`). */
export interface Comparison {
  readonly removed: FieldSet;
  readonly modified: FieldSet;
  readonly added: FieldSet;
}

/** Whether nothing changed. */
export function isSameComparison(c: Comparison): boolean {
  return c.removed.empty() && c.modified.empty() && c.added.empty();
}

/** The comparison without the fields (and everything under them) of `fields` (`ExcludeFields`). */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (!fields || fields.empty()) return c;
  return {
    removed: c.removed.recursiveDifference(fields),
    modified: c.modified.recursiveDifference(fields),
    added: c.added.recursiveDifference(fields),
  };
}

interface Walk {
  readonly path: PathElement[];
  readonly cmp: Comparison;
  readonly problems: TypedValueProblem[];
}

/**
 * Compares two values of one type (`TypedValue.Compare`): leaves (scalars, atomic lists and
 * maps) that appear, disappear or change value; granular maps and lists that appear or
 * disappear as a whole are reported too. Associative-list items are matched by key or value;
 * a key repeated on either side makes the item one leaf.
 */
export function compare(lhs: JsonValue | undefined, rhs: JsonValue | undefined, type: Atom): Comparison {
  const w: Walk = {
    path: [],
    cmp: { removed: new FieldSet(), modified: new FieldSet(), added: new FieldSet() },
    problems: [],
  };
  compareValue(w, lhs, rhs, type);
  if (w.problems.length > 0) throw new TypedValueError(w.problems);
  return w.cmp;
}

function pathText(w: Walk): string {
  return w.path.reduce((s, pe) => childPath(s, pe), '');
}

function compareValue(w: Walk, lhs: JsonValue | undefined, rhs: JsonValue | undefined, t: Atom): void {
  if (lhs === undefined && rhs === undefined) {
    w.problems.push({ path: pathText(w), message: 'at least one of lhs and rhs must be provided' });
    return;
  }
  const kl = atomKind(t, lhs);
  const kr = atomKind(t, rhs);
  let inLeaf: boolean;
  if (rhs === undefined) inLeaf = handle(w, kl, lhs, rhs, t);
  else if (lhs === undefined || kl === kr) inLeaf = handle(w, kr, lhs, rhs, t);
  else {
    handle(w, kl, lhs, rhs, t);
    inLeaf = handle(w, kr, lhs, rhs, t);
  }
  if (!inLeaf) {
    if (lhs === undefined) w.cmp.added.insert(w.path);
    else if (rhs === undefined) w.cmp.removed.insert(w.path);
  }
}

function leaf(w: Walk, lhs: JsonValue | undefined, rhs: JsonValue | undefined): true {
  if (lhs === undefined) w.cmp.added.insert(w.path);
  else if (rhs === undefined) w.cmp.removed.insert(w.path);
  else if (!equalValues(rhs, lhs)) w.cmp.modified.insert(w.path);
  return true;
}

/** Handles one atom kind; true when the value was a leaf. */
function handle(w: Walk, kind: AtomKind, lhs: JsonValue | undefined, rhs: JsonValue | undefined, t: Atom): boolean {
  switch (kind) {
    case 'invalid':
      w.problems.push({ path: pathText(w), message: invalidAtomMessage(t) });
      return false;
    case 'scalar': {
      const l = validateScalar(t.scalar!, lhs, 'lhs: ');
      const r = validateScalar(t.scalar!, rhs, 'rhs: ');
      if (l && r) {
        w.problems.push({ path: pathText(w), message: l }, { path: pathText(w), message: r });
        return false;
      }
      return leaf(w, lhs, rhs);
    }
    case 'list': {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if (t.list!.elementRelationship === 'atomic' || ((l?.length ?? 0) === 0 && (r?.length ?? 0) === 0)) {
        return leaf(w, lhs, rhs);
      }
      compareList(w, t.list!, l, r);
      return false;
    }
    case 'map': {
      const l = isJsonObject(lhs) ? lhs : undefined;
      const r = isJsonObject(rhs) ? rhs : undefined;
      const lEmpty = l === undefined || Object.keys(l).length === 0;
      const rEmpty = r === undefined || Object.keys(r).length === 0;
      if (t.map!.elementRelationship === 'atomic' || (lEmpty && rEmpty)) return leaf(w, lhs, rhs);
      const keys = new Set([...(l ? Object.keys(l) : []), ...(r ? Object.keys(r) : [])]);
      for (const key of keys) {
        w.path.push({ kind: 'field', name: key });
        compareValue(
          w,
          l && Object.hasOwn(l, key) ? l[key] : undefined,
          r && Object.hasOwn(r, key) ? r[key] : undefined,
          mapFieldType(t, key),
        );
        w.path.pop();
      }
      return false;
    }
  }
}

function compareList(
  w: Walk,
  list: ListType,
  lhs: readonly JsonValue[] | undefined,
  rhs: readonly JsonValue[] | undefined,
): void {
  const all: PathElement[] = [];
  const collect = (
    items: readonly JsonValue[] | undefined,
    values: PathElementMap<JsonValue[]>,
    other?: PathElementMap<JsonValue[]>,
  ): void => {
    (items ?? []).forEach((child, i) => {
      let pe: PathElement;
      try {
        pe = listItemToPathElement(list, child);
      } catch (err) {
        w.problems.push({ path: pathText(w), message: `element ${i}: ${(err as Error).message}` });
        return;
      }
      const known = values.get(pe);
      if (known) known.push(child);
      else {
        values.set(pe, [child]);
        if (!other || !other.has(pe)) all.push(pe);
      }
    });
  };
  const lValues = new PathElementMap<JsonValue[]>();
  const rValues = new PathElementMap<JsonValue[]>();
  collect(lhs, lValues);
  collect(rhs, rValues, lValues);

  const item = (pe: PathElement, l: JsonValue | undefined, r: JsonValue | undefined): void => {
    w.path.push(pe);
    compareValue(w, l, r, list.elementType);
    w.path.pop();
  };
  for (const pe of all) {
    const lList = lValues.get(pe) ?? [];
    const rList = rValues.get(pe) ?? [];
    if (lList.length <= 1 && rList.length <= 1) item(pe, lList[0], rList[0]);
    else if (lList.length >= 2 && rList.length >= 2) {
      const same = lList.length === rList.length && lList.every((v, i) => equalValues(v, rList[i]!));
      if (!same) w.cmp.modified.insert([...w.path, pe]);
    } else if (lList.length >= 2) {
      if (rList.length !== 0) item(pe, undefined, rList[0]);
      w.cmp.removed.insert([...w.path, pe]);
    } else {
      if (lList.length !== 0) item(pe, lList[0], undefined);
      w.cmp.added.insert([...w.path, pe]);
    }
  }
}
