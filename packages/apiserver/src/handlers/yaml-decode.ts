import { goFormatNumber, goQuote, setOwn } from '@kevents/api';
import { isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YamlNode, Scalar } from 'yaml';
import { resolvePlain } from './yaml-schema.js';
import type { Resolved } from './yaml-schema.js';

/**
 * The most characters of a key an `invalid map key` or `unsupported map key` error prints;
 * longer ones end in `...`. goyaml prints the whole key, which aliases could make many times the
 * size of the body.
 */
export const maxInvalidKeyText = 1024;

/** A document decoded as `sigs.k8s.io/yaml.YAMLToJSON` decodes it. */
export interface GoyamlDecoded {
  readonly value: unknown;
  /**
   * `line N: key "k" already set in map` for each key goyaml's strict decoding finds set twice
   * (merged keys included), in its order; the value keeps the last, as the lenient decoding does.
   */
  readonly duplicateKeys: readonly string[];
}

/** What {@link decodeGoyaml} refuses, in `YAMLToJSON`'s words (`yaml: invalid map key: ...`). */
export class GoyamlDecodeError extends Error {
  override readonly name = 'GoyamlDecodeError';
}

const mergeTag = 'tag:yaml.org,2002:merge';

/**
 * Decodes a parsed document as goyaml v2 decodes it into `interface{}` and `sigs.k8s.io/yaml`
 * turns that into JSON, in one walk (aliases taken from the anchors defined before them, each
 * anchored node converted once):
 * - a key that is a map or a list fails at once (`yaml: invalid map key: map[interface
 *   {}]interface {}{"a":1}`, the innermost first);
 * - `<<` merges a map, or a list of maps (the earlier winning), into the map at that point:
 *   later keys override it and it overrides earlier ones; anything else fails (`yaml: map merge
 *   requires map or sequence of maps as the value`);
 * - keys become JSON names as `convertToJSONableObject` makes them (integers in decimal, exactly;
 *   floats as Go's 32-bit `%g`, `.inf`, `-.inf`, `.nan`; booleans `true`/`false`); a null key or
 *   one past int64 is `unsupported map key of type: ...`, reported after the walk;
 * - `.inf` and `.nan` values cannot be JSON (`json: unsupported value: +Inf`), reported last;
 * - `!!binary` is its base64 decoded (invalid base64 fails), `!!timestamp` its text.
 */
export function decodeGoyaml(doc: Document, text: string): GoyamlDecoded {
  const anchors = new Map<string, YamlNode>();
  const converted = new Map<YamlNode, unknown>();
  const duplicates: { at: number; key: string }[] = [];
  let unsupportedKey: string | undefined;
  let nonFinite = false;
  // An alias means the anchor defined last before it (goyaml links them as it parses): looked
  // up at its first visit, in document order, and kept for the visits a merge makes later.
  const targets = new Map<unknown, YamlNode | undefined>();
  const registered = new Set<YamlNode>();
  const resolve = (node: unknown): unknown => {
    if (!isAlias(node)) return node;
    if (!targets.has(node)) targets.set(node, anchors.get(node.source));
    return targets.get(node);
  };
  const register = (node: unknown): void => {
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor === undefined || registered.has(node as YamlNode)) return;
    registered.add(node as YamlNode);
    anchors.set(anchor, node as YamlNode);
  };

  const convert = (node: unknown, asKey = false): unknown => {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = resolve(node) as YamlNode | undefined;
      return target === undefined ? null : converted.has(target) ? converted.get(target) : convert(target);
    }
    const anchor = (node as { anchor?: string }).anchor;
    register(node);
    let value: unknown;
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      decodeMapInto(node, out, new Set());
      value = out;
    } else if (isSeq(node)) {
      value = node.items.map((item) => convert(item));
    } else if (isScalar(node)) {
      value = scalarValue(node);
      // A block scalar that ends the text without a line break has none in goyaml either.
      if (
        (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') &&
        typeof value === 'string' &&
        value.endsWith('\n') &&
        (node.range?.[1] ?? 0) >= text.length &&
        !/[\n\r]$/.test(text)
      ) {
        value = value.slice(0, -1);
      }
      if (!asKey && typeof value === 'number' && !Number.isFinite(value)) nonFinite = true;
    } else {
      value = null;
    }
    if (anchor !== undefined) converted.set(node as YamlNode, value);
    return value;
  };

  const decodeMapInto = (node: YamlNode, out: Record<string, unknown>, seen: Set<string>): void => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      if (isMergeKey(pair.key)) {
        merge(pair.value, out, seen);
        continue;
      }
      const keyNode = resolve(pair.key);
      if (isMap(keyNode) || isSeq(keyNode)) {
        convert(pair.key, true);
        throw new GoyamlDecodeError(`yaml: invalid map key: ${goSyntax(pair.key, resolve)}`);
      }
      convert(pair.key, true);
      const key = isScalar(keyNode) ? resolvedScalar(keyNode) : { kind: 'null' as const, value: null, id: 'nil' };
      const name = jsonName(key);
      if (name === undefined) {
        unsupportedKey ??= unsupportedKeyError(key, pair.value, resolve);
        convert(pair.value);
        continue;
      }
      const id = key.id;
      // A NaN key equals no other key in Go.
      if (seen.has(id) && !Number.isNaN(key.value)) {
        // goyaml's strict error names the line of the value.
        const at = (pair.value as YamlNode | null)?.range?.[0] ?? (pair.key as YamlNode | null)?.range?.[0] ?? 0;
        duplicates.push({ at, key: goKeySyntax(keyNode, resolve) });
      } else {
        seen.add(id);
      }
      setOwn(out, name, convert(pair.value));
    }
  };

  /** Decodes a map (inline, or an alias's) into `out`, as goyaml decodes a merged node in place. */
  const mergeMap = (node: unknown, out: Record<string, unknown>, seen: Set<string>): void => {
    if (!isAlias(node)) register(node);
    decodeMapInto(resolve(node) as YamlNode, out, seen);
  };

  const merge = (value: unknown, out: Record<string, unknown>, seen: Set<string>): void => {
    const source = resolve(value);
    if (isMap(source)) {
      mergeMap(value, out, seen);
      return;
    }
    // An alias must name a map; only a list written in place may list maps.
    if (!isAlias(value) && isSeq(source) && source.items.every((item) => isMap(resolve(item)))) {
      if (!isAlias(value) && (value as { anchor?: string }).anchor !== undefined) convert(value);
      for (let i = source.items.length - 1; i >= 0; i--) mergeMap(source.items[i], out, seen);
      return;
    }
    throw new GoyamlDecodeError('yaml: map merge requires map or sequence of maps as the value');
  };

  const value = convert(doc.contents);
  if (unsupportedKey !== undefined) throw new GoyamlDecodeError(unsupportedKey);
  // json.Marshal refuses a double JSON cannot hold, where one is left in the value.
  const unsupported = nonFinite ? firstNonFinite(value) : undefined;
  if (unsupported !== undefined) throw new GoyamlDecodeError(`json: unsupported value: ${goFormatNumber(unsupported)}`);
  if (duplicates.length === 0) return { value, duplicateKeys: [] };
  const lineOf = lineFinder(text);
  return { value, duplicateKeys: duplicates.map((d) => `line ${lineOf(d.at)}: key ${d.key} already set in map`) };
}

/**
 * The first ±Infinity or NaN in a decoded value, walked as json.Marshal walks it (map keys in
 * order); each object once, since aliases share them.
 */
function firstNonFinite(value: unknown): number | undefined {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return v;
    } else if (v !== null && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      const items = Array.isArray(v)
        ? v
        : Object.keys(v)
            .sort()
            .map((k) => (v as Record<string, unknown>)[k]);
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
  return undefined;
}

/** A `<<` key goyaml merges: plain, untagged (or tagged `!!merge`). */
export const isMergeKey = (key: unknown): boolean =>
  isScalar(key) && key.type === 'PLAIN' && key.source === '<<' && (key.tag === undefined || key.tag === mergeTag);

const resolvedCache = new WeakMap<Scalar, Resolved & { id: string }>();

/** A scalar as goyaml resolves it, once per node, with its identity as a Go map key. */
function resolvedScalar(node: Scalar): Resolved & { id: string } {
  let r = resolvedCache.get(node);
  if (r === undefined) {
    const resolved = resolveScalar(node);
    r = { ...resolved, id: `${resolved.kind}:${resolved.exact ?? String(resolved.value)}` };
    resolvedCache.set(node, r);
  }
  return r;
}

/** A scalar as goyaml resolves it: plain ones by their text, quoted and block ones as strings. */
function resolveScalar(node: Scalar): Resolved {
  const tag = node.tag;
  if (tag === undefined && node.type === 'PLAIN' && typeof node.source === 'string') return resolvePlain(node.source);
  if (tag === undefined || tag === 'tag:yaml.org,2002:str') return { kind: 'str', value: node.source ?? node.value };
  if (tag === 'tag:yaml.org,2002:int' || tag === 'tag:yaml.org,2002:float') {
    const r = resolvePlain(String(node.source ?? ''));
    return tag.endsWith('float') && r.kind === 'int' ? { kind: 'float', value: r.value } : r;
  }
  if (tag === 'tag:yaml.org,2002:bool' || tag === 'tag:yaml.org,2002:null') return resolvePlain(String(node.source));
  return { kind: 'str', value: typeof node.value === 'string' ? node.value : String(node.source ?? '') };
}

/** A scalar's decoded value: `!!binary` decoded from base64, everything else as resolved. */
function scalarValue(node: Scalar): unknown {
  if (node.tag === 'tag:yaml.org,2002:binary') {
    const data = String(node.source ?? '').replace(/[\r\n]/g, '');
    if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
      throw new GoyamlDecodeError('yaml: !!binary value contains invalid base64 data');
    }
    return Buffer.from(data, 'base64').toString('utf8');
  }
  return resolvedScalar(node).value;
}

/**
 * A key's JSON name as `convertToJSONableObject` writes it, or undefined for the keys it refuses
 * (null, uint64).
 */
function jsonName(key: Resolved): string | undefined {
  switch (key.kind) {
    case 'str':
      return String(key.value);
    case 'int':
      return key.exact ?? String(key.value);
    case 'bool':
      return key.value ? 'true' : 'false';
    case 'float':
      return goFloat32Key(key.value as number);
    default:
      return undefined;
  }
}

/** `strconv.FormatFloat(f, 'g', -1, 32)`, with `+Inf`, `-Inf` and `NaN` as `.inf`, `-.inf`, `.nan`. */
function goFloat32Key(f: number): string {
  const g = Math.fround(f);
  if (Number.isNaN(g)) return '.nan';
  if (g === Infinity) return '.inf';
  if (g === -Infinity) return '-.inf';
  if (g === 0) return Object.is(g, -0) ? '-0' : '0';
  let digits = '';
  for (let p = 1; p <= 9; p++) {
    digits = g.toPrecision(p);
    if (Math.fround(Number(digits)) === g) break;
  }
  const [mantissa, expText] = Number(digits).toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(Number(digits));
}

function unsupportedKeyError(key: Resolved, value: unknown, resolve: (n: unknown) => unknown): string {
  const type = key.kind === 'null' ? '%!s(<nil>)' : 'uint64';
  const shown = key.kind === 'null' ? '<nil>' : `0x${BigInt(key.exact ?? 0).toString(16)}`;
  const v = resolve(value);
  const valueText = v === null || v === undefined || (isScalar(v) && v.value === null) ? '<nil>' : goSyntax(v, resolve);
  return `unsupported map key of type: ${type}, key: ${shown}, value: ${valueText}`;
}

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
 * A YAML node as Go's `%#v` prints what goyaml makes of it: `map[interface {}]interface
 * {}{"a":1}` (keys sorted), `[]interface {}{"x", 2}`, `interface {}(nil)`, quoted strings, bare
 * numbers and booleans. Cut at {@link maxInvalidKeyText} characters.
 */
export function goSyntax(root: unknown, resolve: (n: unknown) => unknown): string {
  let out = '';
  const emit = (node: unknown): void => {
    if (out.length > maxInvalidKeyText) return;
    const n = resolve(node);
    if (isMap(n)) {
      const entries = n.items
        .filter(isPair)
        .map((p) => ({ key: resolve(p.key), value: p.value }))
        .sort((a, b) => compareKeys(plainValue(a.key), plainValue(b.key)));
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
      out += goScalar(plainValue(n));
    }
  };
  emit(root);
  return out.length > maxInvalidKeyText ? `${out.slice(0, maxInvalidKeyText)}...` : out;
}

/** `%#v` of a key on its own: a nil interface prints `<nil>`. */
export const goKeySyntax = (key: unknown, resolve: (n: unknown) => unknown): string =>
  plainValue(resolve(key)) === null && !isMap(resolve(key)) && !isSeq(resolve(key)) ? '<nil>' : goSyntax(key, resolve);

const plainValue = (node: unknown): unknown => (isScalar(node) ? resolvedScalar(node).value : null);

function goScalar(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  // Only what can be shown is quoted: a key may be megabytes long.
  if (typeof v === 'string') return goQuote(v.length > maxInvalidKeyText ? v.slice(0, maxInvalidKeyText + 1) : v);
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
