import { maxObjectValues } from './object-values.js';

/**
 * The bounds on the values (object members and array elements at every depth) of what one request
 * writes, all derived from one number: the most values a stored object may hold
 * (`buildApiServer`'s `maxObjectValues`). Past any of them the answer is a 413 naming the bound.
 * (A JSON patch may spell four member names for each of kube's most operations and
 * {@link ValueLimits.bodyValues}: `jsonPatchMemberNames` of wide-json.ts.)
 */
export interface ValueLimits {
  /** The most values an object stored through the API may hold, `metadata.managedFields` included. */
  readonly objectValues: number;
  /**
   * The most values a request body, a patched object or an apply's result may hold before it is
   * decoded: {@link ValueLimits.objectValues} and 1,000 more, room for what a view writes beside the
   * stored fields, so that any stored object sent back whole is read.
   */
  readonly bodyValues: number;
  /** The most values a merge or strategic merge patch may spell: three times {@link ValueLimits.objectValues}. */
  readonly patchValues: number;
}

/** The {@link ValueLimits} of a server whose stored objects hold at most `objectValues` values (a positive integer). */
export function valueLimitsOf(objectValues: number): ValueLimits {
  if (!Number.isSafeInteger(objectValues) || objectValues < 1) {
    throw new RangeError(`maxObjectValues must be a positive integer, not ${objectValues}`);
  }
  const bodyValues = objectValues + 1_000;
  return {
    objectValues,
    bodyValues,
    patchValues: 3 * objectValues,
  };
}

/** The default bounds: {@link maxObjectValues} (10,000) values in a stored object. */
export const defaultValueLimits: ValueLimits = valueLimitsOf(maxObjectValues);
