import { YamlEmitter } from './yaml-emitter.js';
import { goFloat, JsonObject, NumberText, parseJsonTree } from './yaml-json-tree.js';
import type { JsonTree } from './yaml-json-tree.js';
import { compareGoyamlKeys } from './yaml-key-order.js';
import { plainIsString } from './yaml-plain-resolve.js';
import { analyzeScalar } from './yaml-scalar-analysis.js';
import type { ScalarAnalysis } from './yaml-scalar-analysis.js';

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
 * goyaml), and total on valid JSON: where goyaml refuses a JSON text that kube-apiserver's own
 * encoder never writes (`\/` or a lone surrogate escape, a raw DEL or C1 control, a key longer
 * than 1,022 characters or holding a raw line separator), this writes what goyaml would have
 * written for the same value. Throws a SyntaxError on text that is not JSON.
 */
export function jsonToYaml(jsonText: string): string {
  // JSON.parse is several times faster than parseJsonTree and makes less garbage, but it loses
  // what a number looked like and reads raw line breaks in strings as any other character: its
  // value serves unless a number's text matters or the text has such a break.
  if (!rawBreak.test(jsonText)) {
    try {
      return emit(JSON.parse(jsonText) as Value, false);
    } catch (err) {
      if (err !== textNeeded) throw err;
    }
  }
  return emit(parseJsonTree(jsonText), true);
}

/** A value from JSON.parse (plain objects, numbers as parsed) or from parseJsonTree. */
type Value = JsonTree | { [key: string]: Value } | Value[];

const rawBreak = /[\u0085\u2028\u2029]/;

/** Thrown where a number from JSON.parse is written differently depending on its text. */
const textNeeded = new Error('a number whose text matters');

function emit(tree: Value, exactNumbers: boolean): string {
  const e = new YamlEmitter();
  node(e, tree, -1, false, exactNumbers);
  // The end of the document: the last line ends.
  e.writeIndent(-1);
  return e.parts.join('');
}

/**
 * A number as goyaml writes it. From parseJsonTree (`exact`), a JavaScript number is an integer
 * written as `String` writes it. From JSON.parse, a fraction or an integer below 1e6 is written the
 * same whether its text was an integer (Go's int) or not (float64); any other needs its text.
 */
function numberWord(v: number, exact: boolean): string {
  if (exact) return String(v);
  if (!Number.isFinite(v)) throw textNeeded;
  if (!Number.isInteger(v)) return goFloat(v);
  if (Math.abs(v) < 1e6 && !Object.is(v, -0)) return String(v);
  throw textNeeded;
}

/**
 * Writes a node whose parent sits at `indent` (-1 at the root); `mapping`: the node is a map's
 * value (a list there is not indented further when it starts on a line of its own).
 */
function node(e: YamlEmitter, v: Value, indent: number, mapping: boolean, exact: boolean): void {
  if (typeof v === 'string') scalar(e, v, indent, false, analyzeScalar(v));
  else if (typeof v === 'number') e.word(numberWord(v, exact));
  else if (v === null) e.word('null');
  else if (typeof v === 'boolean') e.word(v ? 'true' : 'false');
  else if (v instanceof NumberText) e.word(v.text);
  else if (v instanceof JsonObject) map(e, v.entries, indent, exact);
  else if (Array.isArray(v)) {
    if (v.length === 0) return emptyCollection(e, '[', ']');
    const inner = indent < 0 ? 0 : mapping && !e.indention ? indent : indent + 2;
    for (const item of v) {
      e.writeIndent(inner);
      e.writeIndicator('-', true, false, true);
      node(e, item, inner, false, exact);
    }
  } else {
    const keys = Object.keys(v);
    if (keys.length > 1) keys.sort(compareGoyamlKeys);
    map(
      e,
      keys.map((k) => [k, v[k]!]),
      indent,
      exact,
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
    text = k.parts.join('');
  }
  if (key.length <= keyTextMaxLength) {
    if (keyTexts.size >= keyTextsMax) keyTexts.clear();
    keyTexts.set(key, text);
  }
  return text;
}

function map(e: YamlEmitter, entries: [string, Value][], indent: number, exact: boolean): void {
  if (entries.length === 0) return emptyCollection(e, '{', '}');
  const inner = indent < 0 ? 0 : indent + 2;
  for (const [key, value] of entries) {
    e.writeIndent(inner);
    const text = simpleKeyText(key);
    if (text !== null) {
      e.word(text);
      e.writeIndicator(':', false, false, false);
    } else {
      // A complex key: `? key`, then `: value` on a line of its own.
      e.writeIndicator('?', true, false, true);
      scalar(e, key, inner, false, analyzeScalar(key));
      e.writeIndent(inner);
      e.writeIndicator(':', true, false, true);
    }
    node(e, value, inner, true, exact);
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
