import { ApiError } from '../errors/api-error.js';

/**
 * The most JSON values one object written through the API may hold by default (`buildApiServer`'s
 * `maxObjectValues`): object members and array elements at every depth, the root not counted. kevents' own bound (kube-apiserver has none
 * but the 3 MiB body): decoding, validating, tracking managed fields of and storing an object
 * costs the single event loop a few microseconds per value, so an object of 3 MiB built of tiny
 * values (200,000 labels) held every other request for seconds. At this bound the slowest shapes
 * cost the loop ~100 ms; an Event holds 30-100 values, a Lease 10-20.
 */
export const maxObjectValues = 10_000;

/**
 * The most values a request body, a patched object or an apply's result may hold before it is
 * decoded: {@link maxObjectValues} and room for what a view writes beside the stored fields (its
 * zero values, `null` times), so that any stored object sent back whole (a GET then a PUT) is
 * read. What is stored is then held to {@link maxObjectValues}. Past it, the same 413.
 */
export const maxBodyValues = maxObjectValues + 1_000;

/**
 * How many values `value` holds below its root (members of its objects and elements of its
 * arrays, at every depth), as its JSON holds them (members set to `undefined` left out),
 * counting no further than `limit + 1`. Iterative: as deep as the value
 * nests.
 */
export function countValuesUpTo(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      n += v.length;
      if (n > limit) return n;
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') stack.push(x);
      }
      continue;
    }
    for (const k of Object.keys(v)) {
      const x: unknown = (v as Record<string, unknown>)[k];
      // A member set to undefined (an object being built) is no value: JSON leaves it out.
      if (x === undefined) continue;
      if (++n > limit) return n;
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return n;
}

/** The 413 for an object past {@link maxObjectValues} (or a body past {@link maxBodyValues}), worded as kube's body-size 413. */
export const tooManyValues = (limit: number = maxObjectValues): ApiError =>
  new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: limit is ${limit} values (object members and array elements) in one object`,
  );

/**
 * Whether a new object decoded from a body of `decodedValues` values (none of them managedFields)
 * is stored within `limit` ({@link maxObjectValues} by default) without being counted. A create adds a few system
 * fields, the zero values its kind writes, and one managedFields entry whose `fieldsV1` holds at
 * most two keys per value of the object (the value's own and a map's or list item's `.`): about
 * three times the body's values and the kind's zero values. A body of a fifth of the bound leaves
 * room for 1,300 zero values (an Event writes ~15).
 */
export function withinObjectValues(decodedValues: number | undefined, limit: number = maxObjectValues): boolean {
  return decodedValues !== undefined && decodedValues <= limit / 5;
}

/**
 * Throws {@link tooManyValues} when an object about to be stored would hold more than `limit`
 * ({@link maxObjectValues} by default) values once stored: its `metadata.resourceVersion`, which
 * the store sets on a create, counted too.
 */
export function checkStoredValues(
  obj: { readonly metadata?: { readonly resourceVersion?: string } },
  limit: number = maxObjectValues,
): void {
  const unset = obj.metadata?.resourceVersion === undefined ? 1 : 0;
  if (countValuesUpTo(obj, limit) + unset > limit) throw tooManyValues(limit);
}

/** Throws {@link tooManyValues} when `value` holds more than `limit` values. */
export function checkObjectValues(value: unknown, limit: number = maxObjectValues): void {
  if (countValuesUpTo(value, limit) > limit) throw tooManyValues(limit);
}
