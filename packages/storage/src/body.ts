import { parseJson, type KubeObject } from '@kevents/api';
import { StorageError } from './errors.js';
import { metadataWithResourceVersion } from './metadata-order.js';

/**
 * Serialises an object without `metadata.resourceVersion`: the stored, immutable form. Two
 * writes with equal bodies are the same object (a no-op update).
 */
export function toBody(obj: KubeObject): string {
  if (typeof obj !== 'object' || obj === null) throw new StorageError('InvalidObject', 'object must be a JSON object');
  try {
    if (obj.metadata?.resourceVersion === undefined) return JSON.stringify(obj);
    return JSON.stringify({ ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } });
  } catch (err) {
    throw new StorageError('InvalidObject', `object is not serializable: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * A fresh copy of a stored body, with `metadata.resourceVersion` set where Go's field order puts it
 * ({@link metadataWithResourceVersion}).
 */
export function fromBody<T extends KubeObject>(body: string, rv: number): T {
  const obj = parseJson(body) as T;
  const metadata: unknown = obj.metadata;
  if (metadata === undefined || metadata === null) obj.metadata = { resourceVersion: String(rv) };
  else if (typeof metadata === 'object') obj.metadata = metadataWithResourceVersion(metadata, String(rv));
  return obj;
}

/**
 * The object just written, with its new resourceVersion: a shallow copy of what the caller
 * passed (the stores return it instead of parsing the body they just wrote).
 */
export function withResourceVersion<T extends KubeObject>(obj: T, rv: number): T {
  return { ...obj, metadata: metadataWithResourceVersion(obj.metadata ?? {}, String(rv)) };
}
