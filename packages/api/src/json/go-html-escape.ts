/** The characters Go's `encoding/json` escapes in every string it writes, whatever they hold. */
const unsafe = /[<>&\u2028\u2029]/;
const unsafeAll = /[<>&\u2028\u2029]/g;

const escapes: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * A JSON text as Go's `json.Marshal` and `json.Encoder` write it (`EscapeHTML` on, as kube's JSON
 * serializer leaves it): `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026`, and U+2028 and
 * U+2029 as `\u2028` and `\u2029`. Those characters can only stand inside a JSON string, so the
 * text is escaped as a whole; it is returned as it is when it holds none of them (one scan), and
 * escaping an escaped text changes nothing.
 */
export function goEscapeJSON(text: string): string {
  return unsafe.test(text) ? text.replace(unsafeAll, (c) => escapes[c]!) : text;
}

/** Whether a text holds a character {@link goEscapeJSON} escapes. */
export function needsGoEscapes(text: string): boolean {
  return unsafe.test(text);
}
