import { goQuote, int64, unixToInternal } from '../go-format.js';

/**
 * go-oidc's reading of the ID token's time claims (`exp`, `iat`, `nbf`): its `idToken` struct
 * decoded by Go's encoding/json, each time through `jsonTime.UnmarshalJSON` (oidc.go). What that
 * means, and what this module reproduces:
 * - members are matched to the struct fields by exact name, else case-insensitively (Go's
 *   `foldName`), and the last matching member in the document wins;
 * - the value is decoded into a `json.Number`: a number, or a string holding a valid JSON number;
 *   `null` leaves it empty (and `strconv.ParseFloat: parsing "": invalid syntax` follows, except
 *   for the pointer field `nbf`, which `null` clears); booleans, objects and arrays fail;
 * - an integer that fits in int64 is taken as is; anything else is parsed as a float64 (failing
 *   when out of range, `1e309`) and converted with Go's `int64(f)`, which on amd64 gives
 *   math.MinInt64 for values out of int64's range — so `exp: 1e300` is an instant billions of
 *   years in the past: expired;
 * - `time.Unix(unix, 0)` adds the internal epoch offset with int64 wrap-around.
 * The first failing member (in document order) ends decoding with its error, as Go's decoder does.
 */

/** An instant as Go holds it: seconds since year 1 (int64, wrapped), nanoseconds 0. */
export type GoSeconds = bigint;

/** The time claims go-oidc decodes; `exp` and `iat` default to Go's zero time (year 1). */
export interface IdTokenTimes {
  readonly exp: GoSeconds;
  readonly iat: GoSeconds;
  readonly nbf: GoSeconds | undefined;
  /** Whether a member named (or folding to) `exp` is present. */
  readonly expPresent: boolean;
}

const minInt64 = -(1n << 63n);
const maxInt64 = (1n << 63n) - 1n;
const two63 = 2 ** 63;

/** Go's `isValidNumber` (a JSON number literal). */
const isValidNumber = (s: string): boolean => /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(s);

/** Go's `int64(f)` for a float64 on amd64: truncation, or math.MinInt64 when out of range. */
function int64OfFloat(f: number): bigint {
  if (!(f > -two63) || f >= two63) return minInt64;
  return BigInt(Math.trunc(f));
}

/** The decoded key folded as Go's encoding/json folds names (upper case of lower case, per rune). */
export function foldName(key: string): string {
  let out = '';
  for (const ch of key) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) {
      out += ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
      continue;
    }
    const lower = ch.toLowerCase();
    const l = [...lower].length === 1 ? lower : ch;
    const upper = l.toUpperCase();
    out += [...upper].length === 1 ? upper : l;
  }
  return out;
}

/** One top-level member of a JSON object text: its decoded key and its value's source text. */
export interface Member {
  readonly key: string;
  readonly raw: string;
}

const isWs = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The end of the JSON string starting at `i` (just past its closing quote). */
function skipString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '"') return j + 1;
  }
  throw new Error('unterminated string');
}

/** The end of the JSON value starting at `i`. */
function skipValue(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < s.length;) {
      const d = s[j];
      if (d === '"') {
        j = skipString(s, j);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    throw new Error('unterminated value');
  }
  let j = i;
  while (j < s.length && !isWs(s[j]) && s[j] !== ',' && s[j] !== '}' && s[j] !== ']') j++;
  return j;
}

/** The top-level members of a JSON object text that `JSON.parse` has already accepted, in order. */
export function members(text: string): Member[] {
  const out: Member[] = [];
  let i = 0;
  const ws = () => {
    while (isWs(text[i])) i++;
  };
  ws();
  if (text[i] !== '{') return out;
  i++;
  for (;;) {
    ws();
    if (text[i] === '}' || i >= text.length) return out;
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = keyEnd;
    ws();
    i++; // ':'
    ws();
    const end = skipValue(text, i);
    out.push({ key, raw: text.slice(i, end) });
    i = end;
    ws();
    if (text[i] === ',') i++;
  }
}

/** `jsonTime.UnmarshalJSON` of one value (its JSON text). @throws Error with Go's text. */
export function jsonTime(raw: string, field: string): GoSeconds {
  let n: string;
  const c = raw[0];
  if (c === '"') {
    n = JSON.parse(raw) as string;
    if (!isValidNumber(n))
      throw new Error(`json: invalid number literal, trying to unmarshal ${goQuote(raw)} into Number`);
  } else if (c === 'n') n = '';
  else if (c === 't' || c === 'f' || c === '{' || c === '[') {
    const kind = c === '{' ? 'object' : c === '[' ? 'array' : 'bool';
    throw new Error(`json: cannot unmarshal ${kind} into Go struct field idToken.${field} of type json.Number`);
  } else n = raw;
  let unix: bigint;
  if (/^-?\d+$/.test(n) && BigInt(n) >= minInt64 && BigInt(n) <= maxInt64) unix = BigInt(n);
  else {
    if (!isValidNumber(n)) throw new Error(`strconv.ParseFloat: parsing ${goQuote(n)}: invalid syntax`);
    const f = Number(n);
    if (!Number.isFinite(f)) throw new Error(`strconv.ParseFloat: parsing ${goQuote(n)}: value out of range`);
    unix = int64OfFloat(f);
  }
  return int64(unix + unixToInternal);
}

/**
 * The `exp`, `iat` and `nbf` of a JWT payload (JSON text already accepted by `JSON.parse`) as
 * go-oidc decodes them. @throws Error with the Go error text of the first member that fails.
 */
export function idTokenTimes(payload: string): IdTokenTimes {
  let exp: GoSeconds = 0n;
  let iat: GoSeconds = 0n;
  let nbf: GoSeconds | undefined;
  let expPresent = false;
  for (const m of members(payload)) {
    const f = foldName(m.key);
    if (f === 'EXP') {
      exp = jsonTime(m.raw, 'exp');
      expPresent = true;
    } else if (f === 'IAT') iat = jsonTime(m.raw, 'iat');
    else if (f === 'NBF') nbf = m.raw === 'null' ? undefined : jsonTime(m.raw, 'nbf');
  }
  return { exp, iat, nbf, expPresent };
}

/** Go internal seconds as milliseconds since the Unix epoch (may be far outside Date's range). */
export const goSecondsToUnixMs = (s: GoSeconds): number => Number(s - unixToInternal) * 1000;

/** Milliseconds since the Unix epoch as Go internal milliseconds (for exact comparisons). */
export const unixMsToGoMs = (ms: number): bigint => BigInt(Math.floor(ms)) + unixToInternal * 1000n;
