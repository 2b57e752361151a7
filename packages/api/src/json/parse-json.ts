import { jsonStringEnd } from './string-end.js';

/** What the short escapes (`\n`, `\"`, ...) stand for. */
export const jsonShortEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
/** A character JSON holds in a string only escaped. */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const rawControl = /[\u0000-\u001f]/;
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Whether a key holds a character JSON cannot hold unescaped in a string (`"`, `\`, U+0000–U+001F). */
const needsEscape = (key: string): boolean => {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return true;
  }
  return false;
};

/** An object key of the text spelled with escapes: its quotes' offsets and what it says. */
interface EscapedKey {
  readonly start: number;
  readonly end: number;
  readonly key: string;
}

/**
 * `JSON.parse` that reads every object key as JSON says, on every Node version.
 *
 * V8 13.6 (Node 24.21) misreads an object key that holds an escape (`{"\u0061":1}`, `{"\n":1}`,
 * `{"é\u0001":1}`) when the object's shape so far has one known next key of the same length whose
 * text equals the escaped key's raw characters, made by any earlier text in this process
 * (nodejs/node#63785): one client's body would change how later bodies read. Texts without a
 * backslash in a key (nearly all) go to `JSON.parse` as they are. In the others each such key
 * is decoded here and spelled without escapes: as its characters, or, when it holds characters
 * JSON cannot hold unescaped (`"`, `\`, U+0000–U+001F), as a placeholder that no string of the
 * text can hold, named back after the parse in its place. All spellings of one key become the
 * same text, so repeated keys keep JSON.parse's rule (first place, last value). Errors are
 * `JSON.parse`'s own, for the text as given. Work is linear in the text's length. A text that
 * holds every UTF-16 code unit leaves no placeholder and goes to `JSON.parse` as it is (the keys
 * that would need one are valid in no Kubernetes object).
 *
 * A `\uXXXX` escape of a surrogate that is not half of a pair (`"\ud800x"`) is read as Go's
 * `encoding/json` reads it, as U+FFFD, in values and keys alike (`JSON.parse` keeps the lone
 * surrogate, which kube-apiserver never stores and a JSON answer would spell back as `\ud800`).
 */
export function parseJson(text: string): unknown {
  const value = parseKeys(text);
  return hasSurrogateEscape(text) ? wellFormed(value) : value;
}

function parseKeys(text: string): unknown {
  if (!mayHoldEscapedKey(text)) return JSON.parse(text);
  const keys = escapedKeys(text);
  if (keys === undefined || keys.length === 0) return JSON.parse(text);
  let mark = '';
  const names: string[] = [];
  const parts: string[] = [];
  let from = 0;
  for (const { start, end, key } of keys) {
    let spelled = key;
    if (needsEscape(key)) {
      if (mark === '') mark = absentCharacter(text) ?? '';
      if (mark === '') return JSON.parse(text);
      spelled = `${mark}${names.length.toString(36)}${mark}`;
      names.push(key);
    }
    parts.push(text.slice(from, start + 1), spelled);
    from = end;
  }
  parts.push(text.slice(from));
  let value: unknown;
  try {
    value = JSON.parse(parts.join(''));
  } catch {
    return JSON.parse(text);
  }
  return names.length === 0 ? value : namedBack(value, mark, names);
}

/**
 * Whether some string of the text that holds an escape is followed by a colon (is a key), looked
 * at only from each string's first backslash to its end ({@link jsonStringEnd}): a backslash is
 * always inside a string in JSON, and the first one after a string's end starts an escape.
 * Linear: the searches only move forward.
 */
function mayHoldEscapedKey(text: string): boolean {
  for (let slash = text.indexOf('\\'); slash !== -1;) {
    const end = jsonStringEnd(text, slash);
    if (end === -1) return false;
    if (colonAfter(text, end + 1)) return true;
    slash = text.indexOf('\\', end + 1);
  }
  return false;
}

/**
 * The object keys of the text that hold an escape, found by reading its strings as JSON
 * delimits them; undefined when the text is not JSON that far (JSON.parse will say why).
 */
function escapedKeys(text: string): EscapedKey[] | undefined {
  const found: EscapedKey[] = [];
  let slash = text.indexOf('\\');
  for (let start = text.indexOf('"'); start !== -1 && slash !== -1;) {
    let end = text.indexOf('"', start + 1);
    if (end !== -1 && text.charCodeAt(end - 1) === 0x5c) end = jsonStringEnd(text, start + 1);
    if (end === -1) return undefined;
    if (slash < start) slash = text.indexOf('\\', start);
    if (slash !== -1 && slash < end && colonAfter(text, end + 1)) {
      const key = decodeString(text, start + 1, end);
      if (key === undefined) return undefined;
      found.push({ start, end, key });
    }
    start = text.indexOf('"', end + 1);
  }
  return found;
}

function colonAfter(text: string, from: number): boolean {
  while (isBlank(text.charCodeAt(from))) from++;
  return text.charCodeAt(from) === 0x3a;
}

/** The string between two quotes with its escapes decoded, or undefined for a bad escape or a raw control character. */
function decodeString(text: string, from: number, to: number): string | undefined {
  let out = '';
  for (let i = from; i < to;) {
    const slash = text.indexOf('\\', i);
    const raw = text.slice(i, slash === -1 || slash >= to ? to : slash);
    if (rawControl.test(raw)) return undefined;
    out += raw;
    if (slash === -1 || slash >= to) break;
    const c = text[slash + 1]!;
    if (c === 'u') {
      const hex = text.slice(slash + 2, slash + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
      out += String.fromCharCode(parseInt(hex, 16));
      i = slash + 6;
    } else {
      if (!Object.hasOwn(jsonShortEscapes, c)) return undefined;
      out += jsonShortEscapes[c];
      i = slash + 2;
    }
  }
  return out;
}

/**
 * A character that no string of the text holds, spelled or escaped, so that no key of the text
 * can hold it (the placeholders' delimiter); undefined when the text holds every one.
 */
function absentCharacter(text: string): string | undefined {
  // One-byte characters first: a text of them stays one (JSON.parse reads such a text ~2× faster).
  for (const code of [0xff, 0xfe, 0xfd, 0xe000, 0xe001, 0xe002]) {
    const c = String.fromCharCode(code);
    if (!text.includes(c) && !new RegExp(`\\\\u${code.toString(16).padStart(4, '0')}`, 'i').test(text)) return c;
  }
  const present = new Uint8Array(0x10000);
  for (let i = 0; i < text.length; i++) present[text.charCodeAt(i)] = 1;
  for (const m of text.matchAll(/\\u([0-9a-fA-F]{4})/g)) present[parseInt(m[1]!, 16)] = 1;
  for (let code = 0xe000; code < 0x10000 + 0xe000; code++) {
    const c = code & 0xffff;
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && present[c] === 0) return String.fromCharCode(c);
  }
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets a member as JSON.parse does: an own data property, even `__proto__`. */
function setMember(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/**
 * The parsed value with its placeholder keys named back, members in their order (each occurrence
 * of a key has a placeholder of its own, `mark`, its index in `names` in base 36, `mark`: two of
 * one key land in the first's place with the last's value, as JSON.parse places them); walked
 * with a stack of its own (a deep text needs no deep call stack) that holds containers only.
 */
function namedBack(root: unknown, mark: string, names: readonly string[]): unknown {
  const top: Record<string, unknown> = { root };
  const stack: [Record<string, unknown> | unknown[], string | number][] = [[top, 'root']];
  const nameOf = (k: string): string =>
    k.length > 2 && k.startsWith(mark) && k.endsWith(mark) ? (names[parseInt(k.slice(1, -1), 36)] ?? k) : k;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [parent, at] = entry;
    const v = (parent as Record<string | number, unknown>)[at];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) stack.push([v, i]);
    } else if (isPlainObject(v)) {
      let o = v;
      const keys = Object.keys(v);
      if (keys.some((k) => k.startsWith(mark))) {
        o = {};
        for (const k of keys) setMember(o, nameOf(k), v[k]);
        if (Array.isArray(parent)) parent[at as number] = o;
        else setMember(parent, at as string, o);
      }
      for (const k in o) if (Object.hasOwn(o, k) && typeof o[k] === 'object' && o[k] !== null) stack.push([o, k]);
    }
  }
  return top.root;
}

/** A `\u` escape of a UTF-16 surrogate (paired or not: the walk below tells). */
const surrogateEscape = /\\u[dD][89a-fA-F]/;

/**
 * Whether a JSON text escapes a UTF-16 surrogate, which {@link parseJson} may read otherwise than
 * `JSON.parse` (a lone one as U+FFFD). JSON.stringify escapes only lone ones.
 */
export function hasSurrogateEscape(text: string): boolean {
  return text.includes('\\') && surrogateEscape.test(text);
}

interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const wellFormedString = (s: string): string =>
  (s as unknown as WellFormedString).isWellFormed() ? s : (s as unknown as WellFormedString).toWellFormed();

/**
 * The value with every lone surrogate of its strings and keys replaced by U+FFFD, as Go's
 * `unquote` writes `utf8.RuneError` for one; members keep their order (a key that becomes the
 * same as another lands as `JSON.parse` places a repeated key). Walked with a stack of its own.
 */
function wellFormed(root: unknown): unknown {
  const top: Record<string, unknown> = { root };
  const stack: [Record<string, unknown> | unknown[], string | number][] = [[top, 'root']];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [parent, at] = entry;
    const v = (parent as Record<string | number, unknown>)[at];
    if (typeof v === 'string') {
      const w = wellFormedString(v);
      if (w !== v) {
        if (Array.isArray(parent)) parent[at as number] = w;
        else setMember(parent, at as string, w);
      }
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' || typeof v[i] === 'string') stack.push([v, i]);
    } else if (isPlainObject(v)) {
      let o = v;
      const keys = Object.keys(v);
      if (keys.some((k) => wellFormedString(k) !== k)) {
        o = {};
        for (const k of keys) setMember(o, wellFormedString(k), v[k]);
        if (Array.isArray(parent)) parent[at as number] = o;
        else setMember(parent, at as string, o);
      }
      for (const k of Object.keys(o)) if (typeof o[k] === 'object' || typeof o[k] === 'string') stack.push([o, k]);
    }
  }
  return top.root;
}
