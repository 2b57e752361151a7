/** Freezes a parsed JSON value and everything in it (the objects stores share between watchers). */
export function deepFreeze<V>(v: V): V {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}
