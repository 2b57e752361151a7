/**
 * The members of ObjectMeta that Go writes after `resourceVersion` (`metav1.ObjectMeta`'s field
 * order: name, generateName, namespace, selfLink, uid, resourceVersion, then these).
 */
const afterResourceVersion: ReadonlySet<string> = new Set([
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

/** Whether ObjectMeta's `resourceVersion` goes before the member `key` (Go's field order). */
export const comesAfterResourceVersion = (key: string): boolean => afterResourceVersion.has(key);

/**
 * A copy of `metadata` with `resourceVersion` set to `rv` where Go's field order puts it (in its
 * own place when the metadata has one, else before the first member that follows it): objects
 * read from a store are then in the order the serializer writes, and encoding them copies
 * nothing (a `resourceVersion` added last made every read object's metadata out of order).
 */
export function metadataWithResourceVersion(metadata: object, rv: string): Record<string, unknown> {
  const m = metadata as Record<string, unknown>;
  const keys = Object.keys(m);
  const out: Record<string, unknown> = {};
  let i = 0;
  for (; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === 'resourceVersion' || afterResourceVersion.has(key)) break;
    copy(out, key, m[key]);
  }
  out['resourceVersion'] = rv;
  for (; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== 'resourceVersion') copy(out, key, m[key]);
  }
  return out;
}

/** Sets a member as an own data property (an own `__proto__` member stays a member). */
function copy(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
