import type { Path } from '../fieldpath/path.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Atom, MapType } from '../schema/types.js';
import type { PathElement } from '../fieldpath/path-element.js';

/** What a walk found to change: paths to take away with all below them, then paths to add. */
interface Changes {
  remove: FieldSet | undefined;
  add: FieldSet | undefined;
}

/**
 * Reconciles a manager's field set with the type it is owned at
 * (`typed.ReconcileFieldSetWithSchema`): a set that names fields below a list, map or struct
 * the schema makes atomic (written before the schema turned it atomic, or sent by a client in
 * `managedFields`) owns the atomic field itself instead, and nothing below it. Returns the
 * reconciled set, or undefined when nothing changes. Types are walked as structured-merge-diff
 * walks them: a map before a scalar before a list, fields not in the schema and deduced maps
 * left alone.
 */
export function reconcileFieldSetWithSchema(set: FieldSet, type: Atom): FieldSet | undefined {
  const changes: Changes = { remove: undefined, add: undefined };
  visit(set, type, [], false, changes);
  if (changes.remove === undefined && changes.add === undefined) return undefined;
  let out = set;
  if (changes.remove) out = out.recursiveDifference(changes.remove);
  if (changes.add) out = out.union(changes.add);
  return out;
}

function collapse(path: Path, changes: Changes): void {
  const one = FieldSet.of(path);
  changes.remove = changes.remove ? changes.remove.union(one) : one;
  changes.add = changes.add ? changes.add.union(one) : FieldSet.of(path);
}

function visit(set: FieldSet | undefined, type: Atom, path: Path, isAtomic: boolean, changes: Changes): void {
  if (type.map) {
    const m = type.map;
    if (isUntypedDeducedMap(m)) return;
    if (!isAtomic && m.elementRelationship === 'atomic') {
      if (set !== undefined && set.size() > 0) collapse(path, changes);
      return;
    }
    if (set !== undefined) visitItems(set, path, changes, (pe) => mapElementType(m, pe));
    return;
  }
  if (type.scalar) return;
  if (type.list) {
    const l = type.list;
    if (!isAtomic && l.elementRelationship === 'atomic') {
      collapse(path, changes);
      return;
    }
    if (set !== undefined) visitItems(set, path, changes, () => l.elementType);
  }
}

/** Children that are not members, then members, each with its type (`visitMapItems`, `visitListItems`). */
function visitItems(set: FieldSet, path: Path, changes: Changes, typeOf: (pe: PathElement) => Atom | undefined): void {
  const handle = (pe: PathElement, isMember: boolean): void => {
    const t = typeOf(pe);
    if (t === undefined) return;
    const child = set.child(pe);
    visit(child, t, [...path, pe], isMember && child === undefined, changes);
  };
  for (const node of set.children) if (!set.hasMember(node.pe)) handle(node.pe, false);
  for (const pe of set.members) handle(pe, true);
}

/** `typeRefAtPath`: a declared field's type, else the map's element type, else none. */
function mapElementType(m: MapType, pe: PathElement): Atom | undefined {
  if (pe.kind === 'field') {
    const f = m.fields.get(pe.name);
    if (f) return f.type;
  }
  return m.elementType;
}

/** A map with no fields whose other keys are deduced (`isUntypedDeducedMap`). */
function isUntypedDeducedMap(m: MapType): boolean {
  const e = m.elementType;
  if (e === undefined || m.fields.size > 0) return false;
  return e.name === '__untyped_deduced_' || (e.name === undefined && e.scalar === 'untyped');
}
