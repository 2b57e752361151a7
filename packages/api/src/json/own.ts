/**
 * Object members as plain data. Client JSON (bodies, patches) comes from JSON.parse, which keeps `__proto__`,
 * `constructor` and `prototype` as ordinary own keys; reading `obj[key]` or assigning
 * `obj[key] = v` would instead reach (or replace) the prototype. These helpers touch own
 * members only.
 */

/** The own member `key` of `o` (undefined when `o` has none, whatever its prototype holds). */
export const getOwn = (o: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(o, key) ? o[key] : undefined;

/** Sets the own member `key` of `o`; `__proto__` is defined as data, never as the prototype. */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    o[key] = value;
  }
}
