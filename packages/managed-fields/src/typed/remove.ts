import type { FieldSet } from '../fieldpath/set.js';
import { FieldSet as Set_ } from '../fieldpath/set.js';
import type { Path } from '../fieldpath/path.js';
import type { Atom } from '../schema/types.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonObject, JsonValue } from '../value/json-value.js';
import { atomKind, listItemToPathElement, mapFieldType } from './helpers.js';
import { toFieldSet } from './to-field-set.js';
import { setOwn } from '@kevents/api';

/**
 * The value without the fields of `items` (`TypedValue.RemoveItems`): a member removes the field
 * or list item and all beneath it; children descend. A map or list left with nothing becomes
 * null (structured-merge-diff's behaviour, which callers rely on to tell "emptied" from
 * "absent").
 */
export function removeItems(value: JsonValue | undefined, items: FieldSet, type: Atom): JsonValue {
  return removeWithSchema(value ?? null, items, type, false);
}

/** Options of {@link extractItems}. */
export interface ExtractItemsOptions {
  /** Also keep the key fields of every associative-list item kept (`WithAppendKeyFields`). */
  readonly appendKeyFields?: boolean;
}

/** Only the fields of `items`, with the maps and lists that lead to them (`TypedValue.ExtractItems`). */
export function extractItems(
  value: JsonValue | undefined,
  items: FieldSet,
  type: Atom,
  options: ExtractItemsOptions = {},
): JsonValue {
  let set = items;
  if (options.appendKeyFields) {
    const present = toFieldSet(value, type);
    const keyFields = new Set_();
    for (const path of items.paths()) {
      if (!present.has(path)) continue;
      path.forEach((pe, i) => {
        if (pe.kind !== 'key') return;
        for (const f of pe.fields) keyFields.insert([...path.slice(0, i + 1), { kind: 'field', name: f.name }] as Path);
      });
    }
    set = items.union(keyFields);
  }
  return removeWithSchema(value ?? null, set, type, true);
}

function removeWithSchema(v: JsonValue, toRemove: FieldSet, t: Atom, extract: boolean): JsonValue {
  switch (atomKind(t, v)) {
    case 'scalar':
      return v;
    case 'invalid':
      return null;
    case 'list': {
      if (!Array.isArray(v)) return null;
      const list = t.list!;
      if (v.length === 0 || list.elementRelationship === 'atomic') return extract ? v : null;
      const out: JsonValue[] = [];
      for (const child of v) {
        let item = child;
        let pe;
        try {
          pe = listItemToPathElement(list, child);
        } catch {
          if (!extract) out.push(item);
          continue;
        }
        const exact = toRemove.has([pe]);
        const sub = toRemove.withPrefix(pe);
        const prefix = !sub.empty();
        if (extract) {
          if (prefix) item = removeWithSchema(item, sub, list.elementType, extract);
          if (exact || prefix) out.push(item);
        } else {
          if (exact) continue;
          if (prefix) item = removeWithSchema(item, sub, list.elementType, extract);
          out.push(item);
        }
      }
      return out.length > 0 ? out : null;
    }
    case 'map': {
      if (!isJsonObject(v)) return null;
      const map = t.map!;
      if (Object.keys(v).length === 0 || map.elementRelationship === 'atomic') return extract ? v : null;
      const out: JsonObject = {};
      for (const [key, child] of Object.entries(v)) {
        const pe = { kind: 'field', name: key } as const;
        const fieldType = mapFieldType(t, key);
        if (toRemove.has([pe])) {
          // structured-merge-diff passes the whole set down here, not the subset.
          if (extract) setOwn(out, key, removeWithSchema(child, toRemove, fieldType, extract));
          continue;
        }
        const sub = toRemove.withPrefix(pe);
        let value = child;
        if (!sub.empty()) value = removeWithSchema(child, sub, fieldType, extract);
        else if (extract) continue;
        setOwn(out, key, value);
      }
      return Object.keys(out).length > 0 ? out : null;
    }
  }
}
