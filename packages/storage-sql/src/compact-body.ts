/**
 * The compact body form PostgreSQL stores (schema 4): an object's JSON text with the member names
 * Events repeat in every object written as one control character each. `"<key>":` of the i-th
 * key of {@link compactBodyKeys} is U+0001 + i, and `"f:<key>":` (a managedFields `fieldsV1`
 * member) is U+001F followed by that character. JSON text never holds a raw character below
 * U+0020 (JSON.stringify escapes them), so the form is unambiguous and a body that holds none
 * is its own JSON: rows written before schema 4 stay as they were and read the same. The 1,000,000
 * events of the SQL benchmark take 0.65 of their JSON's bytes.
 *
 * The table is part of the database format: it never changes (a new table would be a new schema
 * version with a marker of its own). It is not the memory store's `packedKeys`, an in-process
 * format free to change between releases. PostgreSQL's `kevents_body_json(text)` expands the form
 * the same way (the no-op check of an update against a row written before schema 4 uses it, and
 * so can anyone reading the table with SQL).
 */
export const compactBodyKeys = [
  'metadata',
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'managedFields',
  'manager',
  'operation',
  'apiVersion',
  'time',
  'fieldsType',
  'fieldsV1',
  'kind',
  'resourceVersion',
  'fieldPath',
  'involvedObject',
  'reason',
  'message',
  'source',
  'component',
  'host',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'reportingComponent',
  'reportingInstance',
] as const;

/** The character that prefixes a key's token for its `f:` member. */
const fieldsMark = 0x1f;
const backslash = 92;
const colon = 58;

const tokenOf = new Map<string, string>();
const expanded: string[] = [];
const expandedFields: string[] = [];
let longest = 0;
compactBodyKeys.forEach((k, i) => {
  longest = Math.max(longest, k.length + 2);
  const token = String.fromCharCode(i + 1);
  tokenOf.set(k, token);
  tokenOf.set(`f:${k}`, String.fromCharCode(fieldsMark) + token);
  expanded[i + 1] = `"${k}":`;
  expandedFields[i + 1] = `"f:${k}":`;
});

/**
 * The compact form of an object's JSON text as JSON.stringify writes it (no whitespace: a string
 * followed by `:` is a member name).
 */
export function compactBody(json: string): string {
  let out = '';
  let last = 0;
  let open = json.indexOf('"');
  while (open !== -1) {
    let close = json.indexOf('"', open + 1);
    while (close !== -1 && escaped(json, close)) close = json.indexOf('"', close + 1);
    if (close === -1) break;
    if (json.charCodeAt(close + 1) === colon && close - open <= longest + 1) {
      const token = tokenOf.get(json.slice(open + 1, close));
      if (token !== undefined) {
        out += json.slice(last, open) + token;
        last = close + 2;
      }
    }
    open = json.indexOf('"', close + 1);
  }
  return last === 0 ? json : out + json.slice(last);
}

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function escaped(s: string, at: number): boolean {
  let n = 0;
  while (s.charCodeAt(at - 1 - n) === backslash) n++;
  return (n & 1) === 1;
}

/** The JSON text of a body in the compact form (a body in JSON comes back as it is). */
export function expandBody(body: string): string {
  let out = '';
  let last = 0;
  const len = body.length;
  for (let i = 0; i < len; i++) {
    const c = body.charCodeAt(i);
    if (c >= 0x20) continue;
    const start = i;
    const text = c === fieldsMark ? expandedFields[body.charCodeAt(++i)] : expanded[c];
    // Not a token (a body no kevents wrote): left as it is, for JSON.parse to refuse.
    if (text === undefined) continue;
    out += body.slice(last, start) + text;
    last = i + 1;
  }
  return last === 0 ? body : out + body.slice(last);
}

/** The SQL expression of the keys for `kevents_body_json` (an array literal in token order). */
export function compactBodyKeysSql(): string {
  return `ARRAY[${compactBodyKeys.map((k) => `'${k}'`).join(', ')}]`;
}
