/**
 * Object keys that most stored objects repeat: Kubernetes metadata and the fields of an Event in
 * its stored form (core/v1, whichever version it was written in). In a packed body, `"<key>":` of
 * the i-th key is the one character U+0001 + i: JSON text never holds a raw character below
 * U+0020 (JSON.stringify escapes them), so the packed form is unambiguous. There is room for 31
 * keys. The order is part of the in-memory format only; nothing packed leaves the process.
 */
const packedKeys = [
  'metadata',
  'name',
  'generateName',
  'namespace',
  'uid',
  'creationTimestamp',
  'labels',
  'annotations',
  'ownerReferences',
  'managedFields',
  'kind',
  'apiVersion',
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
  'lastObservedTime',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
] as const;

const textOf: readonly string[] = packedKeys.map((k) => `"${k}":`);
const openBrace = 123;
const comma = 44;

/** The packed keys by the char code of their first letter: `[<key>":, token]`, longest first. */
const byFirstChar: ([string, string][] | undefined)[] = [];
packedKeys.forEach((k, i) => {
  const c = k.charCodeAt(0);
  (byFirstChar[c] ??= []).push([`${k}":`, String.fromCharCode(i + 1)]);
});
for (const list of byFirstChar) list?.sort((a, b) => b[0].length - a[0].length);

/**
 * The memory store's form of a JSON text: every member name of {@link packedKeys} replaced by one
 * character (a stored Event takes about a third less). `json` must be JSON.stringify output: there
 * a quote right after `{` or `,` and followed by `<key>":` always opens a member name (a quote
 * inside a string is escaped, and a string's closing quote is never followed by a letter).
 */
export function packBody(json: string): string {
  // Pieces joined at the end: `join` makes one flat string, where `+=` would keep a rope of
  // slices that holds the whole original text alive.
  let out: string[] | undefined;
  let last = 0;
  let i = json.indexOf('"');
  while (i > 0) {
    const before = json.charCodeAt(i - 1);
    if (before === openBrace || before === comma) {
      const candidates = byFirstChar[json.charCodeAt(i + 1)];
      if (candidates !== undefined) {
        for (let c = 0; c < candidates.length; c++) {
          const [text, token] = candidates[c];
          if (json.startsWith(text, i + 1)) {
            (out ??= []).push(json.slice(last, i), token);
            last = i + 1 + text.length;
            break;
          }
        }
      }
    }
    i = json.indexOf('"', last > i ? last : i + 1);
  }
  if (out === undefined) return json;
  out.push(json.slice(last));
  return out.join('');
}

/** The JSON text of a packed body. */
export function unpackBody(packed: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < packed.length; i++) {
    const c = packed.charCodeAt(i);
    if (c < 32) {
      out += packed.slice(last, i) + textOf[c - 1];
      last = i + 1;
    }
  }
  return last === 0 ? packed : out + packed.slice(last);
}
