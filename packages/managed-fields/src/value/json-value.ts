/**
 * The JSON values structured-merge-diff works on (`value.Value`): what JSON.parse returns.
 * `undefined` stands for "absent" where Go passes a nil `value.Value`; `null` is an explicit null.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object (a map or a struct in structured-merge-diff's terms). */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
