import { compareStrings } from './compare.js';
import { isJsonObject } from './json-value.js';
import type { JsonValue } from './json-value.js';

/**
 * Which Go encoder's string escaping to follow. Both escape `<`, `>`, `&`, U+2028 and U+2029
 * (HTML-safe); `encoding/json` (Go 1.22+) writes backspace and form feed as `\b` and `\f`,
 * json-iterator (which structured-merge-diff serializes FieldsV1 with) as `\u0008` and `\u000c`.
 */
export type GoJSONFlavor = 'encoding/json' | 'jsoniter';

const hex = (c: number): string => '\\u' + c.toString(16).padStart(4, '0');

/** A JSON string literal as Go writes it. Lone surrogates become U+FFFD as Go's UTF-8 has no room for them. */
export function goJSONString(s: string, flavor: GoJSONFlavor = 'encoding/json'): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (flavor === 'encoding/json' && c === 0x08) out += '\\b';
    else if (flavor === 'encoding/json' && c === 0x0c) out += '\\f';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) out += hex(c);
    else out += s[i]!;
  }
  return out + '"';
}

/**
 * A value's JSON text as Go's encoders write a `map[string]interface{}`: object keys sorted
 * (byte order), HTML-safe string escaping, numbers in JavaScript's (here identical) shortest form.
 */
export function goJSON(v: JsonValue, flavor: GoJSONFlavor = 'encoding/json'): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goJSONString(v, flavor);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map((x) => goJSON(x, flavor)).join(',') + ']';
  if (!isJsonObject(v)) return 'null';
  const keys = Object.keys(v).sort(compareStrings);
  return '{' + keys.map((k) => goJSONString(k, flavor) + ':' + goJSON(v[k]!, flavor)).join(',') + '}';
}
