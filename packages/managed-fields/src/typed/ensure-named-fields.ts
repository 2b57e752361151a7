import { FieldSet } from '../fieldpath/set.js';
import type { Atom } from '../schema/types.js';

/**
 * The set plus every struct field that leads to one of its members (`EnsureNamedFieldsAreMembers`):
 * owning `.spec.replicas` then also means owning `.spec` when `spec` is a declared field, but not
 * a map key or list item on the way. The updater uses it to prune whole structs.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, type: Atom): FieldSet {
  const out = new FieldSet();
  out.members = [...set.members];
  const map = type.map;
  for (const node of set.children) {
    if (node.pe.kind === 'field' && map && map.fields.has(node.pe.name)) out.insertMember(node.pe);
  }
  out.children = set.children.map((node) => {
    let childType: Atom = {};
    if (node.pe.kind === 'field' && map) childType = map.fields.get(node.pe.name)?.type ?? map.elementType ?? {};
    else if (node.pe.kind === 'key' && type.list) childType = type.list.elementType;
    return { pe: node.pe, set: ensureNamedFieldsAreMembers(node.set, childType) };
  });
  return out;
}
