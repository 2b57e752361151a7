import type { ManagedFieldsEntry } from '@kevents/api';
import { equalValues } from '../value/compare.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonObject, JsonValue } from '../value/json-value.js';

function entries(obj: JsonObject): ManagedFieldsEntry[] {
  const meta = obj['metadata'];
  const mf = isJsonObject(meta) ? meta['managedFields'] : undefined;
  return Array.isArray(mf) ? (mf as unknown as ManagedFieldsEntry[]) : [];
}

function withoutTime(e: ManagedFieldsEntry): JsonValue {
  const { time: _time, ...rest } = e;
  return rest as unknown as JsonValue;
}

function withoutManagedFields(obj: JsonObject): JsonValue {
  const meta = obj['metadata'];
  if (!isJsonObject(meta)) return obj;
  const { managedFields: _mf, ...restMeta } = meta;
  return { ...obj, metadata: restMeta };
}

/**
 * kube-apiserver's `IgnoreManagedFieldsTimestampsTransformer`: when a write changes nothing but
 * the times of managedFields entries (an apply or update that repeats what is stored), the new
 * object gets the old entries back, so the store sees no change and keeps the resourceVersion.
 * Returns `newObj` itself when anything else differs, else a copy with the old managedFields.
 */
export function ignoreManagedFieldsTimestamps(newObj: JsonObject, oldObj: JsonObject): JsonObject {
  const oldEntries = entries(oldObj);
  const newEntries = entries(newObj);
  if (oldEntries.length !== newEntries.length || newEntries.length === 0) return newObj;
  if (newEntries.every((e, i) => e.time === oldEntries[i]!.time)) return newObj;
  for (let i = 0; i < newEntries.length; i++) {
    if (!equalValues(withoutTime(newEntries[i]!), withoutTime(oldEntries[i]!))) return newObj;
  }
  if (!equalValues(withoutManagedFields(newObj), withoutManagedFields(oldObj))) return newObj;
  const out = structuredClone(newObj);
  (out['metadata'] as JsonObject)['managedFields'] = structuredClone(oldEntries) as unknown as JsonValue;
  return out;
}
