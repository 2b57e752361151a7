import type { ObjectSchema } from './types.js';

/**
 * How a view's JSON text of a stored object follows from the stored object's members, for stores
 * that can write that text straight from their stored form (the memory store's packed bodies):
 * the text is `JSON.stringify(canonicalObject(converted, schema))` where `converted` holds, for
 * each field of `schema`, the stored member {@link sources} names (a member of the field's own
 * name when it names none; nothing for `null`), a stored `null` being no member. A view declares
 * a plan only where its `toJSON` of the decoded object (without type meta) is exactly that text;
 * a stored object the plan cannot say (one of {@link converted} present, a value not canonical
 * for its field, a member name with an escape) takes the view's own `toJSON`.
 */
export interface StoredTextPlan {
  /** The schema of the view's text. */
  readonly schema: ObjectSchema;
  /** For fields of `schema` not copied from a stored member of the same name: the stored member, or null for none. */
  readonly sources?: Readonly<Record<string, string | null>>;
  /** Stored members the view converts otherwise: an object holding one (not null) takes the view's `toJSON`. */
  readonly converted?: readonly string[];
}
