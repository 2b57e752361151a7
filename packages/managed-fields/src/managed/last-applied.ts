import { parseJson } from '@kevents/api';
import type { FieldSet } from '../fieldpath/set.js';
import type { Atom } from '../schema/types.js';
import { compare } from '../typed/compare.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { validate } from '../typed/validate.js';
import { goJSON } from '../value/go-json.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonObject, JsonValue } from '../value/json-value.js';

/** `kubectl.kubernetes.io/last-applied-configuration`, which client-side apply writes. */
export const lastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** `apimachineryvalidation.TotalAnnotationSizeLimitB`: 256 KiB over all keys and values. */
export const totalAnnotationSizeLimit = 256 * 1024;

function annotations(obj: JsonValue | undefined): JsonObject | undefined {
  if (!isJsonObject(obj) || !isJsonObject(obj['metadata'])) return undefined;
  const a = obj['metadata']['annotations'];
  return isJsonObject(a) ? a : undefined;
}

/** `hasLastApplied`: a non-empty last-applied annotation. */
export function hasLastApplied(obj: JsonValue | undefined): boolean {
  const v = annotations(obj)?.[lastAppliedConfigAnnotation];
  return typeof v === 'string' && v.length > 0;
}

/**
 * `buildLastApplied`: the applied object without its own last-applied annotation, as Go's
 * encoding/json encoder writes a map (sorted keys, HTML-safe escaping, trailing newline).
 */
export function buildLastApplied(applied: JsonObject): string {
  const copy = structuredClone(applied);
  const a = annotations(copy);
  if (a) delete a[lastAppliedConfigAnnotation];
  return goJSON(copy) + '\n';
}

/**
 * `SetLastApplied`: sets the annotation on `obj` (mutating it), or leaves it out when the
 * annotations would exceed kube's total size limit.
 */
export function setLastApplied(obj: JsonObject, value: string): void {
  const meta = isJsonObject(obj['metadata']) ? obj['metadata'] : (obj['metadata'] = {});
  const a = isJsonObject(meta['annotations']) ? meta['annotations'] : (meta['annotations'] = {});
  a[lastAppliedConfigAnnotation] = value;
  let size = 0;
  for (const [k, v] of Object.entries(a))
    size += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  if (size > totalAnnotationSizeLimit) delete a[lastAppliedConfigAnnotation];
}

/**
 * `allowedConflictsFromLastApplied` (lastappliedmanager.go): the fields of the live object's
 * last-applied annotation whose values the live object still has. `kubectl apply
 * --server-side` may take those over from client-side apply without a conflict. Undefined when
 * there is no usable annotation (none, not JSON, another apiVersion, not valid for the schema).
 */
export function allowedConflictsFromLastApplied(
  live: JsonValue | undefined,
  type: Atom,
  groupVersion: string,
): FieldSet | undefined {
  const text = annotations(live)?.[lastAppliedConfigAnnotation];
  if (typeof text !== 'string' || text === '') return undefined;
  let lastApplied: JsonValue;
  try {
    lastApplied = parseJson(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (!isJsonObject(lastApplied) || lastApplied['apiVersion'] !== groupVersion) return undefined;
  try {
    validate(lastApplied, type);
    validate(live ?? null, type, { allowDuplicates: true });
    const set = toFieldSet(lastApplied, type);
    const c = compare(lastApplied, live, type);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}
