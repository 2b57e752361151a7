import type { Atom, ListType, MapType } from './types.js';

function untypedAtomicType(): Atom {
  const list: { elementType?: Atom; elementRelationship: 'atomic'; keys: readonly string[] } = {
    elementRelationship: 'atomic',
    keys: [],
  };
  const map: { fields: ReadonlyMap<string, never>; elementType?: Atom; elementRelationship: 'atomic' } = {
    fields: new Map<string, never>(),
    elementRelationship: 'atomic',
  };
  const atom: Atom = { scalar: 'untyped', list: list as ListType, map: map as MapType, name: '__untyped_atomic_' };
  list.elementType = atom;
  map.elementType = atom;
  return atom;
}

/** `__untyped_atomic_`: any value, owned as a whole. */
export const untypedAtomic: Atom = untypedAtomicType();

function deducedType(): Atom {
  const map: { fields: ReadonlyMap<string, never>; elementType?: Atom; elementRelationship: 'separable' } = {
    fields: new Map<string, never>(),
    elementRelationship: 'separable',
  };
  const atom: Atom = {
    scalar: 'untyped',
    list: { elementType: untypedAtomic, elementRelationship: 'atomic', keys: [] },
    map: map as MapType,
    name: '__untyped_deduced_',
  };
  map.elementType = atom;
  return atom;
}

/**
 * `__untyped_deduced_` (structured-merge-diff's `DeducedParseableType`): maps are granular at
 * every depth, lists and scalars atomic. Used for objects without a schema, for
 * `x-kubernetes-preserve-unknown-fields` and for free-form fields (`type: object` without
 * properties).
 */
export const deduced: Atom = deducedType();
