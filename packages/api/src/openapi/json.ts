/** A JSON value as the OpenAPI documents are built from. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}
