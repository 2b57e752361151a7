import { goEscapeJSON } from '@kevents/api';
import { YamlEmitter } from './yaml-emitter.js';
import { goFloat, JsonObject, NumberText, parseJsonTree } from './yaml-json-tree.js';
import type { JsonTree } from './yaml-json-tree.js';
import { compareGoyamlKeys } from './yaml-key-order.js';
import { plainIsString } from './yaml-plain-resolve.js';
import { analyzeScalar } from './yaml-scalar-analysis.js';
import type { ScalarAnalysis } from './yaml-scalar-analysis.js';
import type { JSONListShape } from './list-stream.js';

/**
 * The YAML text kube-apiserver answers `Accept: application/yaml` with, for the JSON text of the
 * object: byte for byte what `sigs.k8s.io/yaml.JSONToYAML` (v1.4.0, over its goyaml v2 fork)
 * returns. That reads the JSON with goyaml into Go maps, slices and scalars and writes them back
 * with goyaml's `Marshal`: keys in goyaml's order (`keyList.Less`: "a9" before "a10"), block
 * style with two-space indentation, a list inside a map at the map's own indentation, `{}` and
 * `[]` for empty collections, strings plain where that reads back as the same string and quoted
 * otherwise (`"true"`, `"1.0"`, `"2024-01-01T00:00:00Z"`, `'- a'`, `"a\tb"`), strings with line
 * feeds as literal blocks (`|`, `|-`, `|+`), long plain and quoted strings folded at spaces past
 * column 80, characters outside the BMP and controls escaped in double quotes, integers digit for
 * digit and other numbers as Go's shortest `%g` (`1e+21`, `1.5e-07`, `1.23456789e+08` for
 * 123456789.0).
 *
 * Linear in the text's size (plus the indentation that deep nesting adds to every line, as in
 * goyaml), and total on valid JSON: where goyaml's reader refuses a JSON text, this writes what
 * goyaml's emitter writes for the same value: `\/` or a lone surrogate escape, a key longer than
 * 1,022 characters or holding a raw line separator (Go's encoder never writes those), and a raw
 * DEL, C1 control (but NEL), U+FFFE or U+FFFF in a string, which Go's encoder does write raw:
 * kube-apiserver then answers 500 (`yaml: control characters are not allowed`), kevents the value,
 * double-quoted with goyaml's escapes (`\x7F`, `\x80`…`\x9F`, `\uFFFE`). Throws a SyntaxError
 * on text that is not JSON.
 */
export function jsonToYaml(jsonText: string): string {
  // JSON.parse is several times faster than parseJsonTree and makes less garbage, but it loses
  // what a number looked like and reads raw line breaks in strings as any other character: its
  // value serves unless a number's text matters or the text has such a break.
  if (!rawBreak.test(jsonText)) {
    try {
      return emit(JSON.parse(jsonText) as Value, 'parsed');
    } catch (err) {
      if (err !== textNeeded) throw err;
    }
  }
  return emit(parseJsonTree(jsonText), 'exact');
}

/**
 * A JSON text as Go's encoder writes it, for {@link jsonToYaml}: {@link goEscapeJSON} (U+2028 and
 * U+2029 escaped, which raw are line breaks to goyaml; `<`, `>` and `&`, which YAML reads the same
 * either way). It leaves NEL raw, as Go does.
 */
export const goJsonText = goEscapeJSON;

/** A value from JSON.parse (plain objects, numbers as parsed) or from parseJsonTree. */
type Value = JsonTree | { [key: string]: Value } | Value[];

const rawBreak = /[\u0085\u2028\u2029]/;

/** Thrown where a number from JSON.parse is written differently depending on its text. */
const textNeeded = new Error('a number whose text matters');

/**
 * Where numbers come from: `JSON.parse` of a text (`parsed`: some need their text), parseJsonTree
 * (`exact`: integers as numbers, the rest as their text), or objects kevents serializes itself
 * (`values`: what `JSON.stringify` writes for them, integers as integers).
 */
type Numbers = 'parsed' | 'exact' | 'values';

function emit(tree: Value, numbers: Numbers): string {
  const e = new YamlEmitter();
  node(e, tree, -1, false, numbers);
  // The end of the document: the last line ends.
  e.writeIndent(-1);
  return e.take();
}

/**
 * A number as goyaml writes it. From parseJsonTree (`exact`), a JavaScript number is an integer
 * written as `String` writes it. From JSON.parse, a fraction or an integer below 1e6 is written the
 * same whether its text was an integer (Go's int) or not (float64); any other needs its text. A
 * value's integer is written as `JSON.stringify` writes it (digits), a fraction as Go's float.
 */
function numberWord(v: number, numbers: Numbers): string {
  if (numbers === 'exact') return String(v);
  if (!Number.isFinite(v)) throw textNeeded;
  if (!Number.isInteger(v)) return goFloat(v);
  if (numbers === 'values' || (Math.abs(v) < 1e6 && !Object.is(v, -0))) return JSON.stringify(v);
  throw textNeeded;
}

/**
 * Writes a node whose parent sits at `indent` (-1 at the root); `mapping`: the node is a map's
 * value (a list there is not indented further when it starts on a line of its own).
 */
function node(e: YamlEmitter, v: Value, indent: number, mapping: boolean, numbers: Numbers): void {
  if (typeof v === 'string') {
    // Go's JSON text of a value holds NEL raw, and goyaml reads it as a line break: folded.
    const str =
      numbers === 'values' && v.includes('\u0085') ? (parseJsonTree(goJsonText(JSON.stringify(v))) as string) : v;
    scalar(e, str, indent, false, analyzeScalar(str));
  } else if (typeof v === 'number') e.word(numberWord(v, numbers));
  else if (v === null) e.word('null');
  else if (typeof v === 'boolean') e.word(v ? 'true' : 'false');
  else if (v instanceof NumberText) e.word(v.text);
  else if (v instanceof JsonObject) map(e, v.entries, indent, numbers);
  else if (Array.isArray(v)) {
    if (v.length === 0) return emptyCollection(e, '[', ']');
    const inner = indent < 0 ? 0 : mapping && !e.indention ? indent : indent + 2;
    for (const item of v) {
      e.writeIndent(inner);
      e.writeIndicator('-', true, false, true);
      node(e, item, inner, false, numbers);
    }
  } else {
    const keys = Object.keys(v);
    if (keys.length > 1) keys.sort(compareGoyamlKeys);
    map(
      e,
      keys.map((k) => [k, v[k]!]),
      indent,
      numbers,
    );
  }
}

function emptyCollection(e: YamlEmitter, open: string, close: string): void {
  e.writeIndicator(open, true, true, false);
  e.writeIndicator(close, false, false, false);
}

/** The longest key, in UTF-8 bytes, that libyaml writes as a simple key (`key: value`). */
const simpleKeyMaxBytes = 128;

/**
 * Keys as written when simple (`kind`, `"1"`, `'#k'`: no line breaks, at most 128 bytes, so never
 * folded and never after a space), or null for a complex key; the same keys recur in every item
 * of a list. Bounded: cleared when full.
 */
const keyTexts = new Map<string, string | null>();
const keyTextsMax = 4096;
const keyTextMaxLength = 64;

function simpleKeyText(key: string): string | null {
  let text = keyTexts.get(key);
  if (text !== undefined) return text;
  const a = analyzeScalar(key);
  if (a.multiline || (key.length * 3 > simpleKeyMaxBytes && Buffer.byteLength(key) > simpleKeyMaxBytes)) text = null;
  else {
    const k = new YamlEmitter();
    scalar(k, key, 0, true, a);
    text = k.take();
  }
  if (key.length <= keyTextMaxLength) {
    if (keyTexts.size >= keyTextsMax) keyTexts.clear();
    keyTexts.set(key, text);
  }
  return text;
}

function map(e: YamlEmitter, entries: [string, Value][], indent: number, numbers: Numbers): void {
  if (entries.length === 0) return emptyCollection(e, '{', '}');
  const inner = indent < 0 ? 0 : indent + 2;
  for (const [key, value] of entries) {
    entryHead(e, key, inner);
    node(e, value, inner, true, numbers);
  }
}

/** A map entry up to its value: the key (simple, or `? key` and `:` on lines of their own) at `inner`. */
function entryHead(e: YamlEmitter, key: string, inner: number): void {
  e.writeIndent(inner);
  const text = simpleKeyText(key);
  if (text !== null) {
    e.word(text);
    e.writeIndicator(':', false, false, false);
  } else {
    e.writeIndicator('?', true, false, true);
    scalar(e, key, inner, false, analyzeScalar(key));
    e.writeIndent(inner);
    e.writeIndicator(':', true, false, true);
  }
}

/**
 * Writes a string: goyaml asks for a literal block when it holds a line feed, plain when that
 * reads back as the same string, double quotes otherwise, and libyaml's
 * `yaml_emitter_select_scalar_style` settles for what the characters allow.
 */
function scalar(e: YamlEmitter, s: string, indent: number, simpleKey: boolean, a: ScalarAnalysis): void {
  let style: 'plain' | 'single' | 'double' | 'literal' = s.includes('\n')
    ? 'literal'
    : plainIsString(s)
      ? 'plain'
      : 'double';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain' && (!a.blockPlain || (s.length === 0 && simpleKey))) style = 'single';
  if (style === 'single' && !a.singleQuoted) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  const own = indent < 0 ? 2 : indent + 2;
  if (style === 'plain') e.plain(s, own, !simpleKey);
  else if (style === 'single') e.singleQuoted(s, own, !simpleKey);
  else if (style === 'double') e.doubleQuoted(s, own, !simpleKey);
  else e.literal(s, own);
}

/**
 * The YAML of a list described by `shape` (its envelope's members and the elements of its
 * array, as values), in pieces of about `chunkChars`: joined, byte for byte
 * `jsonToYaml(JSON.stringify(list))`, but written element by element, so a streamed answer holds
 * one piece at a time and other requests are served between pieces (`chunkStream`).
 */
export function* yamlListChunks(shape: JSONListShape, chunkChars: number): Generator<string, void, undefined> {
  const e = new YamlEmitter();
  const keys = Object.keys(shape.envelope);
  if (keys.length > 1) keys.sort(compareGoyamlKeys);
  for (const key of keys) {
    if (key !== shape.arrayKey || shape.length === 0) {
      map(e, [[key, shape.envelope[key] as Value]], -1, 'values');
      continue;
    }
    // The root map's entry for the array, as `map` and `node` write it, a few elements at a time.
    entryHead(e, key, 0);
    const inner = e.indention ? 2 : 0;
    // One element at a time, the chunk's size checked after each: elements of up to 3 MiB each
    // written 16 at a time held the event loop for seconds between two chunks.
    for (let i = 0; i < shape.length; i++) {
      e.writeIndent(inner);
      e.writeIndicator('-', true, false, true);
      node(e, shape.values(i, i + 1)[0] as Value, inner, false, 'values');
      if (e.length >= chunkChars) yield e.take();
    }
  }
  e.writeIndent(-1);
  yield e.take();
}
