import { FieldSet } from '../fieldpath/set.js';
import type { PathElement } from '../fieldpath/path-element.js';
import type { Atom } from '../schema/types.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';
import { atomKind, listItemToPathElement, mapFieldType } from './helpers.js';
import { pathElementIdentity } from './path-element-map.js';

/**
 * The fields a value sets (`TypedValue.ToFieldSet`): every scalar and atomic list or map is a
 * member; struct fields holding granular values are not (only their leaves), map keys always
 * are; associative list items are members by key or value, with their own fields beneath;
 * an item whose key repeats is one member with nothing beneath; null values and empty maps are
 * members. Validate the value first: items that cannot be keyed are skipped here.
 */
export function toFieldSet(value: JsonValue | undefined, type: Atom): FieldSet {
  const set = new FieldSet();
  const path: PathElement[] = [];

  const walk = (v: JsonValue | undefined, t: Atom): void => {
    switch (atomKind(t, v)) {
      case 'scalar':
        set.insert(path);
        return;
      case 'list': {
        const list = t.list!;
        if (list.elementRelationship === 'atomic') {
          set.insert(path);
          return;
        }
        if (!Array.isArray(v)) return;
        const pes: (PathElement | undefined)[] = v.map((child) => {
          try {
            return listItemToPathElement(list, child);
          } catch {
            return undefined;
          }
        });
        // Repeated items found by identity: a FieldSet's sorted insert per item made a list of
        // 4,500 finalizers cost n log n comparisons and n² moves.
        const ids = pes.map((pe) => (pe ? pathElementIdentity(pe) : undefined));
        const seen = new Set<string>();
        const duplicates = new Set<string>();
        pes.forEach((pe, i) => {
          const id = ids[i];
          if (!pe || id === undefined) return;
          if (!seen.has(id)) seen.add(id);
          else if (!duplicates.has(id)) {
            set.insert([...path, pe]);
            duplicates.add(id);
          }
        });
        for (let i = 0; i < v.length; i++) {
          const pe = pes[i];
          if (!pe || duplicates.has(ids[i]!)) continue;
          path.push(pe);
          walk(v[i]!, list.elementType);
          set.insert(path);
          path.pop();
        }
        return;
      }
      case 'map': {
        const map = t.map!;
        if (map.elementRelationship === 'atomic') {
          set.insert(path);
          return;
        }
        if (!isJsonObject(v)) return;
        for (const [key, child] of Object.entries(v)) {
          path.push({ kind: 'field', name: key });
          walk(child, mapFieldType(t, key));
          if (child === null || (isJsonObject(child) && Object.keys(child).length === 0) || !map.fields.has(key)) {
            set.insert(path);
          }
          path.pop();
        }
        return;
      }
      case 'invalid':
        return;
    }
  };
  walk(value, type);
  return set;
}
