import { goJsonSyntaxError, jsonStringEnd } from '@kevents/api';
import { invalidContinueError } from './errors.js';
import type { KeyPrefix } from './interface.js';

/** The only continue token version Kubernetes (and kevents) writes and reads. */
export const continueTokenVersion = 'meta.k8s.io/v1';

/** A decoded continue token: where the next page starts and the list's resourceVersion. */
export interface ContinueToken {
  /**
   * The first key of the next page, relative to the list's key prefix ({@link listKeyPrefix}):
   * `<name>\u0000` in a namespace's list, `<namespace>/<name>\u0000` in a cluster-wide one.
   */
  readonly start: string;
  /** The list's resourceVersion; -1 means "continue from the latest state". */
  readonly resourceVersion: number;
}

const invalid = 'continue key is not valid';

/**
 * The key right after an object's key: the start of the page that follows it. Keys are
 * `<namespace>/<name>` (just `<name>` for a cluster-scoped object).
 */
export const keyAfter = (key: string): string => `${key}\u0000`;

/**
 * A list's key prefix within its resource's keys, as kube's storage builds it for a list
 * (`<resource prefix>/<namespace>/`): `<namespace>/` for a namespace's list, nothing for a
 * cluster-wide list or a cluster-scoped resource. A continue token's start is relative to it, so
 * a token is read in the list it is sent with: one from namespace `a` sent to a list of namespace
 * `b` continues in `b` after the same name, a cluster-wide one (`a/x\u0000`) sent to a list of
 * `b` continues in `b` after the name `a/x`, and a namespace's one (`x\u0000`) sent to a
 * cluster-wide list continues after the key `x`.
 */
export const listKeyPrefix = (prefix: KeyPrefix): string =>
  prefix.namespace === undefined || prefix.namespace === '' ? '' : `${prefix.namespace}/`;

/**
 * `EncodeContinue(key, keyPrefix, rv)`: the token of a page of the list at `prefix` that starts at
 * `key` (a key of the resource within the list's prefix).
 */
export const encodeListContinue = (prefix: KeyPrefix, key: string, resourceVersion: number): string =>
  encodeContinue(key.slice(listKeyPrefix(prefix).length), resourceVersion);

/**
 * `DecodeContinue(token, keyPrefix)`: a token read in the list at `prefix`, its start made a key
 * of the resource (the list's prefix put in front).
 */
export function decodeListContinue(prefix: KeyPrefix, token: string): ContinueToken {
  const t = decodeContinue(token);
  return { start: listKeyPrefix(prefix) + t.start, resourceVersion: t.resourceVersion };
}

/**
 * Encodes a continue token as Kubernetes does (storage/continue.go): base64url without padding of
 * `{"v":"meta.k8s.io/v1","rv":<rv>,"start":"<start>"}`.
 */
export function encodeContinue(start: string, resourceVersion: number): string {
  const json = JSON.stringify({ v: continueTokenVersion, rv: resourceVersion, start });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/**
 * Decodes a continue token (its start relative to the list's prefix) as kube's `DecodeContinue`
 * does: Go's `base64.RawURLEncoding` (newlines skipped), then `json.Unmarshal` into its
 * `continueToken{v, rv, start}` (member names matched case-insensitively, `null` leaving a field
 * unset, the first type error kept). Throws a StorageError `InvalidContinue` with kube's text
 * (`continue key is not valid: ...`, Go's own errors after it) for bad base64, bad JSON, a value of
 * the wrong type, an unknown version, rv 0, an empty start key, or a start key that path cleaning
 * would change (path traversal). An rv past 2^53 is read approximately (a resourceVersion that far
 * ahead is too large either way).
 */
export function decodeContinue(token: string): ContinueToken {
  const data = goBase64RawURL(token);
  const syntax = goJsonSyntaxError(data);
  if (syntax !== undefined) throw invalidContinueError(`${invalid}: ${syntax}`);
  const { v, rv, start, error } = unmarshalToken(data.toString('utf8'));
  if (error !== undefined) throw invalidContinueError(`${invalid}: ${error}`);
  if (v !== continueTokenVersion) {
    throw invalidContinueError(`${invalid}: server does not recognize this encoded version ${v}`);
  }
  if (rv === 0) {
    throw invalidContinueError(`${invalid}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
  }
  if (start === '') {
    throw invalidContinueError(`${invalid}: encoded start key empty (version meta.k8s.io/v1)`);
  }
  const rooted = start.startsWith('/') ? start : `/${start}`;
  if (!isCleanPath(rooted)) throw invalidContinueError(`${invalid}: ${start}`);
  return { start: rooted.slice(1), resourceVersion: rv };
}

const base64URLDigits = /^[A-Za-z0-9_-]*$/;

/**
 * Go's `base64.RawURLEncoding.DecodeString`: `\r` and `\n` skipped, any other character outside
 * the alphabet (`=` too) or a last group of one digit is `illegal base64 data at input byte N`.
 */
function goBase64RawURL(token: string): Buffer {
  const src = Buffer.from(token, 'utf8');
  if (base64URLDigits.test(token) && src.length % 4 !== 1) return Buffer.from(token, 'base64url');
  let si = 0;
  let digits = '';
  for (;;) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 1) throw corruptBase64(si - j);
        return Buffer.from(digits, 'base64url');
      }
      const c = src[si++]!;
      if (isBase64URLDigit(c)) digits += String.fromCharCode(c);
      else if (c === 0x0a || c === 0x0d) j--;
      else throw corruptBase64(si - 1);
    }
  }
}

const isBase64URLDigit = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;

const corruptBase64 = (at: number) => invalidContinueError(`${invalid}: illegal base64 data at input byte ${at}`);

/** `continueToken`'s fields as `json.Unmarshal` sets them (zero values when absent or null), or its first type error. */
interface UnmarshaledToken {
  readonly v: string;
  readonly rv: number;
  readonly start: string;
  readonly error?: string;
}

/** Go's name for the JSON value that starts with `c` in an `UnmarshalTypeError`. */
function goValueKind(c: string): string {
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === '"') return 'string';
  if (c === 't' || c === 'f') return 'bool';
  return 'number';
}

const int64Text = /^-?(0|[1-9][0-9]*)$/;
const int64Max = 9223372036854775807n;
const int64Min = -9223372036854775808n;
const blank = /[ \t\r\n]*/y;
const numberText = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * `json.Unmarshal(text, &continueToken{})` for a text Go's scanner found valid: a member whose
 * name folds (as Go folds names: ASCII case, `ſ` as `s`) to `v`, `rv` or `start` sets that field,
 * the last one winning; other members are skipped.
 */
function unmarshalToken(text: string): UnmarshaledToken {
  let at = 0;
  const skipBlank = (): void => {
    blank.lastIndex = at;
    blank.test(text);
    at = blank.lastIndex;
  };
  /** The end of the value at `at` (valid JSON). */
  const valueEnd = (): number => {
    const c = text[at];
    if (c === '"') return jsonStringEnd(text, at + 1) + 1;
    if (c === 't' || c === 'n') return at + 4;
    if (c === 'f') return at + 5;
    if (c !== '{' && c !== '[') {
      numberText.lastIndex = at;
      numberText.test(text);
      return numberText.lastIndex;
    }
    let depth = 0;
    for (let i = at; ; i++) {
      const d = text[i];
      if (d === '"') i = jsonStringEnd(text, i + 1);
      else if (d === '{' || d === '[') depth++;
      else if ((d === '}' || d === ']') && --depth === 0) return i + 1;
    }
  };
  let v = '';
  let rv = 0;
  let start = '';
  let error: string | undefined;
  skipBlank();
  const top = text[at]!;
  if (top === 'n') return { v, rv, start };
  if (top !== '{') {
    return {
      v,
      rv,
      start,
      error: `json: cannot unmarshal ${goValueKind(top)} into Go value of type storage.continueToken`,
    };
  }
  at++;
  for (;;) {
    skipBlank();
    if (text[at] === '}') break;
    if (text[at] === ',') {
      at++;
      skipBlank();
    }
    const nameEnd = jsonStringEnd(text, at + 1) + 1;
    const name = (JSON.parse(text.slice(at, nameEnd)) as string).replace(/ſ/g, 's').toLowerCase();
    at = nameEnd;
    skipBlank();
    at++; // the colon
    skipBlank();
    const end = valueEnd();
    const literal = text.slice(at, end);
    at = end;
    const c = literal[0]!;
    if (c === 'n' || (name !== 'v' && name !== 'rv' && name !== 'start')) continue;
    const mistyped = (type: string, value = goValueKind(c)): void => {
      error ??= `json: cannot unmarshal ${value} into Go struct field continueToken.${name} of type ${type}`;
    };
    if (name === 'rv') {
      if (c === '"' || c === '{' || c === '[' || c === 't' || c === 'f') mistyped('int64');
      else if (!int64Text.test(literal) || BigInt(literal) > int64Max || BigInt(literal) < int64Min)
        mistyped('int64', `number ${literal}`);
      else rv = Number(literal);
    } else if (c !== '"') mistyped('string');
    else if (name === 'v') v = JSON.parse(literal) as string;
    else start = JSON.parse(literal) as string;
  }
  return { v, rv, start, ...(error === undefined ? {} : { error }) };
}

/** Whether Go's `path.Clean` leaves a rooted path unchanged: no empty, `.` or `..` segments, no trailing slash. */
function isCleanPath(rooted: string): boolean {
  if (rooted === '/') return true;
  for (const segment of rooted.slice(1).split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return false;
  }
  return true;
}
