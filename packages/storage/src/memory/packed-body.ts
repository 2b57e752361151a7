/**
 * Object keys that most stored objects repeat (Kubernetes metadata and the Event fields). In a
 * packed body, `"<key>":` of the i-th key is the one character U+0001 + i: JSON text never holds
 * a raw character below U+0020 (JSON.stringify escapes them), so the packed form is unambiguous.
 * The order is part of the in-memory format only; nothing packed leaves the process.
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
  'finalizers',
  'kind',
  'apiVersion',
  'resourceVersion',
  'fieldPath',
  'eventTime',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'series',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
  'component',
  'host',
] as const;

const tokenOf = new Map<string, string>(packedKeys.map((k, i) => [k, String.fromCharCode(i + 1)]));
const textOf: readonly string[] = packedKeys.map((k) => `"${k}":`);
const backslash = 92;
const colon = 58;

/**
 * The memory store's form of a JSON text: every member name of {@link packedKeys} replaced by one
 * character (an 800-byte Event takes about 40% less). `json` must be JSON.stringify output.
 */
export function packBody(json: string): string {
  // Pieces joined at the end: `join` makes one flat string, where `+=` would keep a rope of
  // slices that holds the whole original text alive.
  const out: string[] = [];
  let last = 0;
  let i = json.indexOf('"');
  while (i >= 0) {
    // The closing quote: the first one not escaped (preceded by an even run of backslashes).
    let j = json.indexOf('"', i + 1);
    while (json.charCodeAt(j - 1) === backslash) {
      let run = 0;
      for (let b = j - 1; json.charCodeAt(b) === backslash; b--) run++;
      if (run % 2 === 0) break;
      j = json.indexOf('"', j + 1);
    }
    if (j < 0) break;
    if (json.charCodeAt(j + 1) === colon && j - i <= 25) {
      const token = tokenOf.get(json.slice(i + 1, j));
      if (token !== undefined) {
        out.push(json.slice(last, i), token);
        last = j + 2;
      }
    }
    i = json.indexOf('"', j + 1);
  }
  if (last === 0) return json;
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
