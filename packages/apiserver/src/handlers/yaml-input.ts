import { Composer, isAlias, isCollection, isPair, isScalar, Parser } from 'yaml';
import type { CST } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import { parseJson } from '@kevents/api';
import { excessiveNesting, maxNestingDepth, nestingDepth } from './json-depth.js';
import { countMemberNames, scanJsonText } from './json-duplicates.js';
import { maxBodyValues } from '../registry/object-values.js';
import { overflowingNumber } from './json-scan.js';
import { decodeGoyaml, GoyamlDecodeError, isMergeKey } from './yaml-decode.js';
import { goyamlScalarTags } from './yaml-schema.js';

const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const HASH = 35;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;

/** Characters after which (spaces aside) a YAML node may start: an indicator or a line's start. */
const nodeStart = new Set([NEWLINE, 58 /* : */, 45 /* - */, 63 /* ? */, 44 /* , */, 91 /* [ */, 123 /* { */]);

/**
 * The character at which a YAML text's flow collections (`[`, `{`) first nest deeper than
 * `limit`, or undefined. A bound checked before parsing: the `yaml` parser takes seconds on a few
 * MiB of nested brackets. A bracket or quote counts only where a node may start (after `:`, `-`,
 * `?`, `,`, an open bracket or at a line's start), so brackets and apostrophes inside plain
 * scalars (`note: a[1]`, `it's`) are text; quoted scalars and comments are skipped.
 */
export function excessiveYamlNesting(text: string, limit = maxNestingDepth): string | undefined {
  const n = text.length;
  if (n <= limit) return undefined;
  let depth = 0;
  let prev = NEWLINE;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === 13) continue;
    if (c === NEWLINE) {
      prev = NEWLINE;
      continue;
    }
    // A comment starts at `#` after white space or at a line's start.
    if (c === HASH && (i === 0 || isBlank(text.charCodeAt(i - 1)))) {
      while (i < n && text.charCodeAt(i) !== NEWLINE) i++;
      prev = NEWLINE;
      continue;
    }
    const atStart = nodeStart.has(prev);
    if (atStart && (c === DQUOTE || c === SQUOTE)) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (c === DQUOTE && d === BACKSLASH) i++;
        else if (d === c) {
          if (c === SQUOTE && text.charCodeAt(i + 1) === SQUOTE) i++;
          else break;
        }
      }
      prev = c;
      continue;
    }
    if (c === 91 || c === 123) {
      if (atStart || depth > 0) {
        if (++depth > limit) return c === 91 ? '[' : '{';
        prev = c;
      } else {
        // Text of a plain scalar: it starts nothing after it either.
        prev = PLAIN;
      }
      continue;
    }
    if ((c === 93 || c === 125) && depth > 0) depth--;
    prev = c;
  }
  return undefined;
}

const PLAIN = 97;
const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === NEWLINE || c === 13;

/**
 * goyaml's bound on alias expansion (`allowedAliasRatio`, gopkg.in/yaml.v2 decode.go, which
 * sigs.k8s.io/yaml decodes with): up to 99% of the decoded nodes may come from aliases in a
 * document of up to 400,000 nodes, scaling down to 10% at 4,000,000.
 */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - (0.89 * (decodeCount - low)) / (high - low);
}

/**
 * The most scalar text a YAML body's aliases may add when expanded: the body limit. goyaml counts
 * nodes only, so a 127 KB body of 2,000 aliases to one 100 KB string decodes to 200 MB (a
 * validation error quoting each value ran the server out of heap); a JSON body cannot hold more
 * than this, and kube's storage (etcd's 1.5 MiB) could not keep it anyway.
 */
export const maxExpandedScalarBytes = 3 * 1024 * 1024;

/**
 * Why goyaml would refuse to decode `doc`'s aliases, in its words, or undefined: an alias to no
 * anchor (`unknown anchor 'x' referenced`), an alias inside its own anchor (`anchor 'x' value
 * contains itself`), or `document contains excessive aliasing`. The last follows goyaml v2's
 * counters exactly: every node it decodes (the document, keys, values, alias nodes; not `<<`
 * keys) counts once, and those decoded inside an alias's expansion count as aliased too; it fails
 * when more than 100 are aliased, more than 1,000 decoded, and the aliased share passes
 * {@link allowedAliasRatio}; kevents also refuses, in the same words, a document whose aliases
 * expand to more than {@link maxExpandedScalarBytes} of scalar text. One pass in document order, anchors looked up as they were last
 * defined before each alias, an expansion added as its precomputed size (the condition only grows
 * during one): time linear in the text, even for a billion laughs.
 */
export function aliasingError(doc: Document): string | undefined {
  let contained: string | undefined;
  let unknown: string | undefined;
  let excessive = false;
  let decoded = 1; // the document node
  let aliased = 0;
  let bytes = 0;
  let aliasedBytes = 0;
  const anchors = new Map<string, YamlNode>();
  const sizes = new Map<YamlNode, number>();
  const byteSizes = new Map<YamlNode, number>();
  const visiting = new Set<YamlNode>();
  const check = (): void => {
    if (aliased > 100 && decoded > 1000 && aliased / decoded > allowedAliasRatio(decoded)) excessive = true;
  };
  /** Visits a node once, in document order; answers how many nodes decoding it takes. */
  const visit = (node: unknown): number => {
    decoded++;
    check();
    if (node === null || typeof node !== 'object') return 1;
    if (isScalar(node)) {
      const length = typeof node.source === 'string' ? node.source.length : 0;
      bytes += length;
      byteSizes.set(node as YamlNode, length);
    }
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) {
        unknown ??= node.source;
        return 1;
      }
      const s = visiting.has(target) ? Infinity : (sizes.get(target) ?? Infinity);
      if (s === Infinity) {
        contained ??= node.source;
        return 1;
      }
      decoded += s;
      aliased += s;
      const expanded = byteSizes.get(target) ?? 0;
      bytes += expanded;
      aliasedBytes += expanded;
      check();
      return 1 + s;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor !== undefined) anchors.set(anchor, node as YamlNode);
    visiting.add(node as YamlNode);
    let total = 1;
    const bytesBefore = bytes;
    if (isCollection(node)) {
      for (const item of node.items) {
        if (!isPair(item)) total += visit(item);
        else if (isMergeKey(item.key)) total += visit(item.value);
        else total += visit(item.key) + visit(item.value);
      }
    }
    visiting.delete(node as YamlNode);
    sizes.set(node as YamlNode, total);
    if (isCollection(node)) byteSizes.set(node as YamlNode, bytes - bytesBefore);
    return total;
  };
  if (doc.contents !== null) visit(doc.contents);
  if (unknown !== undefined) return `unknown anchor '${unknown}' referenced`;
  if (contained !== undefined) return `anchor '${contained}' value contains itself`;
  return excessive || aliasedBytes > maxExpandedScalarBytes ? 'document contains excessive aliasing' : undefined;
}

/**
 * What {@link readYaml} refuses: nesting past the bound (at `char`), a syntax error, excessive
 * aliasing. The message is `sigs.k8s.io/yaml.YAMLToJSON`'s error text (`yaml: line 3: ...`).
 */
export class YamlInputError extends Error {
  override readonly name = 'YamlInputError';
  readonly kind: 'depth' | 'syntax' | 'aliasing';
  /** For `depth`: the bracket at which the text nested too deep. */
  readonly char: string;

  constructor(kind: 'depth' | 'syntax' | 'aliasing', message: string, char = '{') {
    super(message);
    this.kind = kind;
    this.char = char;
  }
}

/** A YAML body read into its value. */
export interface YamlBody {
  readonly value: unknown;
  /**
   * Repeated keys in the words of goyaml's strict decoding (`line N: key "k" already set in map`):
   * the value keeps the last, as kube's lenient conversion does.
   */
  readonly duplicateKeys: readonly string[];
}

/** `sigs.k8s.io/yaml.YAMLToJSONStrict`'s error for a document's repeated keys (goyaml's `unmarshal errors`). */
export const yamlStrictError = (duplicateKeys: readonly string[]): string =>
  `yaml: unmarshal errors:\n  ${duplicateKeys.join('\n  ')}`;

const stackOverflow = 'Maximum call stack size exceeded';

/**
 * Parses a YAML body into its value as `sigs.k8s.io/yaml.YAMLToJSON` converts it (see
 * yaml-decode.ts): only the first document counts, and nothing after its content, as goyaml
 * reads only that; flow nesting past {@link maxNestingDepth} is refused before the parser runs
 * (block nesting the parser cannot hold is refused as too deep too), alias expansion as goyaml
 * bounds it, syntax errors as they are found. A body that is JSON without repeated keys or numbers
 * past a double (what kubectl and client libraries send) is read by the JSON parser, which gives
 * the same value several times faster.
 */
export function readYaml(text: string): YamlBody {
  // The parser makes an error object for each fault it finds; their stacks would cost more than
  // the parse (synchronous: no other code runs meanwhile).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return readYamlText(text);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

function readYamlText(text: string): YamlBody {
  const json = readYamlJson(text);
  if (json !== undefined) return json;
  const deep = excessiveYamlNesting(text);
  if (deep !== undefined) throw new YamlInputError('depth', `exceeded max depth of ${maxNestingDepth}`, deep);
  const doc = firstDocument(text);
  if (doc === undefined) return { value: null, duplicateKeys: [] };
  if (doc.errors.some((e) => e.message.includes(stackOverflow))) {
    throw new YamlInputError('depth', `exceeded max depth of ${maxNestingDepth}`, '{');
  }
  // goyaml reads one token past the first document's content, and no further: `[1]]` is `[1]`.
  const range = (doc.contents as { range?: [number, number, number] } | null)?.range;
  const trailing = (e: { code: string; pos: [number, number] }): boolean =>
    e.code === 'UNEXPECTED_TOKEN' &&
    range !== undefined &&
    range[1] > range[0] &&
    e.pos[0] >= range[1] &&
    !scannerRefuses(text.slice(e.pos[0], e.pos[1]));
  const first = doc.errors.find((e) => !trailing(e));
  if (first !== undefined) {
    // goyaml's form: `line N: ...`; its tag resolution errors name no line.
    const tagError = first.code === 'TAG_RESOLVE_FAILED' && first.message.startsWith('cannot decode ');
    const line = tagError ? '' : `line ${text.slice(0, first.pos[0]).split('\n').length}: `;
    throw new YamlInputError('syntax', `yaml: ${line}${first.message}`);
  }
  const aliasing = aliasingError(doc);
  if (aliasing !== undefined) throw new YamlInputError('aliasing', `yaml: ${aliasing}`);
  let read: YamlBody;
  try {
    read = decodeGoyaml(doc, text);
  } catch (err) {
    if (err instanceof RangeError && err.message.includes(stackOverflow)) {
      throw new YamlInputError('depth', `exceeded max depth of ${maxNestingDepth}`, '{');
    }
    if (err instanceof GoyamlDecodeError) throw new YamlInputError('syntax', err.message);
    throw err;
  }
  // Block nesting the flow pre-scan does not see, measured on the value (aliases can nest too).
  if (nestingDepth(read.value) > maxNestingDepth) {
    throw new YamlInputError('depth', `exceeded max depth of ${maxNestingDepth}`, '{');
  }
  return read;
}

/** Whether goyaml's scanner fails on a token: a reserved first character, an unterminated quote. */
function scannerRefuses(token: string): boolean {
  const c = token.charAt(0);
  if (c === '@' || c === '`') return true;
  return (c === '"' || c === "'") && (token.length < 2 || token.charAt(token.length - 1) !== c);
}

/**
 * The tokens of the stream up to its first document, and the one token after it when goyaml's
 * scanner would refuse that: goyaml reads no further, and the `yaml` package would otherwise
 * make an error object for every bad token of the rest (3 MiB of `]` took 44 s).
 */
function* firstDocumentTokens(tokens: Generator<CST.Token>): Generator<CST.Token> {
  let done = false;
  for (const token of tokens) {
    if (!done) {
      yield token;
      done = token.type === 'document';
      continue;
    }
    if (token.type === 'space' || token.type === 'newline' || token.type === 'comment') continue;
    if (token.type === 'error' && scannerRefuses(token.source)) yield token;
    return;
  }
}

/** The stream's first document, composed without reading the documents after it; undefined for none. */
function firstDocument(text: string): Document | undefined {
  try {
    const composer = new Composer({
      uniqueKeys: false,
      logLevel: 'error',
      customTags: goyamlScalarTags,
      // Explicit tags the schema lacks (`!!omap`) stay unresolved, as goyaml leaves them.
      resolveKnownTags: false,
    });
    for (const doc of composer.compose(firstDocumentTokens(new Parser().parse(text)), true)) return doc as Document;
    return undefined;
  } catch (err) {
    if (err instanceof RangeError && err.message.includes(stackOverflow)) {
      throw new YamlInputError('depth', `exceeded max depth of ${maxNestingDepth}`, '{');
    }
    throw err;
  }
}

/**
 * {@link readYaml} of a body that is JSON without repeated keys or numbers past a double, spelling
 * at most `bodyValues` member names; undefined for others.
 */
export function readYamlJson(text: string, bodyValues: number = maxBodyValues): YamlBody | undefined {
  const json = readJsonText(text, bodyValues);
  return json === undefined ? undefined : { value: json.value, duplicateKeys: [] };
}

/**
 * The value of a body that is a JSON object or array without repeated keys, or undefined when it
 * is anything else (the YAML parser then reads it). JSON is YAML, and for such a text both give
 * the same value.
 */
function readJsonText(text: string, bodyValues: number): { value: unknown } | undefined {
  let i = 0;
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (c !== 123 && c !== 91) return undefined;
  if (excessiveNesting(text) !== undefined) return undefined;
  // goyaml reads `1e400` as a string: the YAML parser decides.
  if (overflowingNumber(text) !== undefined) return undefined;
  // Too wide for an object: the YAML parser reads it (off the event loop when large), and its
  // answer is refused (yaml-thread.ts) or counted (decodeKind) like any other.
  const names = countMemberNames(text, bodyValues);
  if (names > bodyValues) return undefined;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return undefined;
  }
  return scanJsonText(text, value, names).duplicates ? undefined : { value };
}
