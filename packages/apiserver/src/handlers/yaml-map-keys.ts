import { goFormatNumber, goQuote } from '@kevents/api';
import { isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';

/** What goyaml v2 (which `sigs.k8s.io/yaml` decodes with) says of a document's mapping keys. */
export interface MapKeyFindings {
  /**
   * `invalid map key: <the key as Go's %#v prints it>` for the first key that is a map or a list,
   * in goyaml's decoding order (a key's own keys before the key): kube refuses such a document.
   */
  readonly invalidKey?: string;
  /** `line N: key <key> already set in map` for each repeated key, in document order (strict decoding). */
  readonly duplicates: readonly string[];
}

/**
 * The most characters of a key {@link MapKeyFindings.invalidKey} prints; longer keys end in `...`.
 * goyaml prints the whole key, which aliases could make many times the size of the body.
 */
export const maxInvalidKeyText = 1024;

type Resolve = (node: unknown) => unknown;

/**
 * One pass over `doc` in document order, aliases looked up as the anchors were last defined
 * before them (never expanded): linear in the document, where the `yaml` package's own checks
 * (`uniqueKeys`, and stringifying collection keys in `toJS`) cost the keys' number squared or
 * worse (1 KiB of nested `? ` keys took 19 s).
 */
export function mapKeyFindings(doc: Document, text: string): MapKeyFindings {
  const anchors = new Map<string, YamlNode>();
  const resolve: Resolve = (node) => (isAlias(node) ? anchors.get(node.source) : node);
  let invalid: unknown;
  const repeated: YamlNode[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || isAlias(node)) return;
    const anchor = (node as { anchor?: string }).anchor;
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        walk(pair.key);
        if (invalid !== undefined) return;
        const key = resolve(pair.key);
        // A merge key (`<<`) merges its maps in; goyaml checks neither it nor its repeats.
        if (isScalar(key) && typeof key.value === 'symbol') {
          walk(pair.value);
          if (invalid !== undefined) return;
          continue;
        }
        if (isMap(key) || isSeq(key)) {
          invalid = key;
          return;
        }
        const id = keyIdentity(key);
        if (seen.has(id)) repeated.push(pair.key as YamlNode);
        else seen.add(id);
        walk(pair.value);
        if (invalid !== undefined) return;
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        walk(item);
        if (invalid !== undefined) return;
      }
    }
    if (anchor !== undefined) anchors.set(anchor, node as YamlNode);
  };
  walk(doc.contents);
  if (invalid !== undefined) {
    return { invalidKey: `invalid map key: ${goSyntax(invalid, resolve)}`, duplicates: [] };
  }
  if (repeated.length === 0) return { duplicates: [] };
  const lineOf = lineFinder(text);
  return {
    duplicates: repeated.map(
      (key) => `line ${lineOf(key.range?.[0] ?? 0)}: key ${goKeySyntax(resolve(key), resolve)} already set in map`,
    ),
  };
}

/** A scalar key's identity in a Go `map[interface{}]interface{}`: its type and value. */
const keyIdentity = (key: unknown): string => {
  const v: unknown = isScalar(key) ? key.value : key === undefined ? null : key;
  return v === null || v === undefined ? 'nil' : `${typeof v}:${String(v)}`;
};

/** The 1-based line of each offset, from the line starts found once. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/**
 * A decoded YAML node as Go's `%#v` prints what goyaml makes of it: `map[interface {}]interface
 * {}{"a":1}` (keys sorted), `[]interface {}{"x", 2}`, `interface {}(nil)`, quoted strings, bare
 * numbers and booleans. Cut at {@link maxInvalidKeyText} characters.
 */
function goSyntax(root: unknown, resolve: Resolve): string {
  let out = '';
  const emit = (node: unknown): void => {
    if (out.length > maxInvalidKeyText) return;
    const n = resolve(node);
    if (isMap(n)) {
      const entries = n.items
        .filter(isPair)
        .map((p) => ({ key: resolve(p.key), value: p.value }))
        .sort((a, b) => compareKeys(scalarValue(a.key), scalarValue(b.key)));
      out += 'map[interface {}]interface {}{';
      entries.forEach((e, i) => {
        if (i > 0) out += ', ';
        emit(e.key);
        out += ':';
        emit(e.value);
      });
      out += '}';
    } else if (isSeq(n)) {
      out += '[]interface {}{';
      n.items.forEach((item, i) => {
        if (i > 0) out += ', ';
        emit(item);
      });
      out += '}';
    } else {
      out += goScalar(scalarValue(n));
    }
  };
  emit(root);
  return out.length > maxInvalidKeyText ? `${out.slice(0, maxInvalidKeyText)}...` : out;
}

/** `%#v` of a key on its own: a nil interface prints `<nil>`. */
const goKeySyntax = (key: unknown, resolve: Resolve): string =>
  scalarValue(key) === null ? '<nil>' : goSyntax(key, resolve);

const scalarValue = (node: unknown): unknown => (isScalar(node) ? node.value : null);

function goScalar(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goFormatNumber(v);
  return String(v);
}

/** Go's fmtsort order for interface keys: nil first, then by type, then by value. */
function compareKeys(a: unknown, b: unknown): number {
  const rank = (v: unknown): number =>
    v === null || v === undefined ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3;
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
