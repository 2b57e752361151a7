// JSON patch bodies of ~3 MiB (the body limit), one for each shape the body scanners read a
// character at a time (json-depth.ts, json-shape.ts, json-duplicates.ts, patch/json-patch-strict.ts):
// the shapes that held the event loop longest, and those a faster reader of runs made slower
// (docs/benchmarks.md, "Tried and not kept", the body scanners). Used by body-scanners.js (in
// process) and body-hold.js (over HTTP).

/** A body a little under `bytes`: `head`, then `item(i)` joined by `sep` while it fits, then `tail`. */
function fill(bytes, head, item, sep, tail) {
  const parts = [];
  let size = head.length + tail.length;
  for (let i = 0; ; i++) {
    const s = item(i);
    if (size + s.length + sep.length > bytes) break;
    parts.push(s);
    size += s.length + sep.length;
  }
  return head + parts.join(sep) + tail;
}

/** One `add` operation whose value is the array of `item(i)`, filling `bytes`. */
const addArray = (bytes, item, sep = ',') => fill(bytes, '[{"op":"add","path":"/x","value":[', item, sep, ']}]');

/** The shapes, by name: a function of the size in bytes giving the body. */
export const jsonPatchShapes = {
  digits: (b) => addArray(b, (i) => String(i % 10)),
  numbers: (b) => addArray(b, (i) => String(i % 1000)),
  'numbers-spaced': (b) => addArray(b, (i) => String(i % 1000), ', '),
  floats: (b) => addArray(b, (i) => `-${i % 97}.5e-${i % 9}`),
  strings: (b) => addArray(b, (i) => `"s${i % 100}"`),
  'empty-objects': (b) => addArray(b, () => '{}', ', '),
  'empty-arrays': (b) => addArray(b, () => '[]', ', '),
  'nested-objects': (b) => addArray(b, (i) => `{"a":{"b":${i % 10}},"c":[true,null]}`),
  'empty-ops': (b) => fill(b, '[', () => '{}', ',', ']'),
  'members-100k': (b) => {
    const names = fill(b, '', (i) => `"member-${String(i).padStart(6, '0')}-${'n'.repeat(13)}":${i % 10}`, ',', '');
    return `[{"op":"add","path":"/x","value":{${names}}}]`;
  },
  'deep-nesting': (b) => {
    const d = 990;
    return addArray(b, () => '['.repeat(d) + ']'.repeat(d));
  },
  'escaped-strings': (b) => {
    const s = `"${'a\\"b\\\\c\\n\\u00e9d'.repeat(2000)}"`;
    return addArray(b, () => s);
  },
  'long-string': (b) => `[{"op":"add","path":"/x","value":"${'x'.repeat(b - 40)}"}]`,
};

/** 3 MiB less a little room. */
export const bodyBytes = 3 * 1024 * 1024 - 64;
