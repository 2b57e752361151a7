import { goSort } from './go-sort.js';
import type { GoXorshift } from './go-sort.js';

/** One clause of an Accept header, as goautoneg parses it. */
export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  /** The parameters other than `q`, names and values trimmed of spaces, case kept. */
  readonly params: ReadonlyMap<string, string>;
}

/** The text between `from` and `to` without the spaces (not tabs) at either end, as `strings.TrimFunc(…, ' ')`. */
function trimmed(s: string, from: number, to: number): string {
  while (from < to && s.charCodeAt(from) === 32) from++;
  while (to > from && s.charCodeAt(to - 1) === 32) to--;
  return s.slice(from, to);
}

/** The end of the element that starts at `from`: the next `sep` before `to`, or `to` (goautoneg's `nextSplitElement`). */
function elementEnd(s: string, sep: number, from: number, to: number): number {
  // A bounded scan: indexOf would read past `to` to the end of the header, once per clause.
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === sep) return i;
  return to;
}

const COMMA = 44;
const SEMICOLON = 59;
const SLASH = 47;
const EQUALS = 61;

const noParams: ReadonlyMap<string, string> = new Map();

/** `strconv.ParseFloat(s, 32)`'s value with its error ignored, as goautoneg reads `q` (0 when unreadable). */
function goParseFloat32(s: string): number {
  if (/^[+-]?(?:inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return Number.NaN;
  const m = goFloatSyntax.exec(s);
  if (!m || !underscoresOK(s)) return 0;
  const [, sign, hex, hexMantissa, hexExponent, decMantissa, decExponent] = m;
  const mantissa = hex === undefined ? (decMantissa ?? '') : (hexMantissa ?? '');
  const exponent = hex === undefined ? decExponent : hexExponent;
  const digits = mantissa.replaceAll('_', '');
  if (!/[0-9a-f]/i.test(digits)) return 0;
  const neg = sign === '-';
  if (hex === undefined)
    return Math.fround((neg ? -1 : 1) * Number(`${digits}e${(exponent ?? '0').replaceAll('_', '')}`));
  // 0x mantissa p exponent: the mantissa's hex digits, the exponent a power of two. As Go's
  // readFloat, digits past the 16th only scale the value (a long mantissa is not Infinity), and a
  // zero mantissa is zero whatever the exponent.
  const dot = digits.indexOf('.');
  const whole = dot < 0 ? digits : digits.slice(0, dot) + digits.slice(dot + 1);
  const fraction = dot < 0 ? 0 : digits.length - dot - 1;
  let v = 0;
  let dropped = 0;
  for (const c of whole) {
    if (v < 2 ** 64) v = v * 16 + parseInt(c, 16);
    else dropped++;
  }
  if (v === 0) return neg ? -0 : 0;
  const e = Number((exponent ?? '').replaceAll('_', '')) - 4 * fraction + 4 * dropped;
  return Math.fround((neg ? -1 : 1) * v * 2 ** e);
}

/**
 * Go's float syntax (`readFloat`): a sign, decimal digits with an optional point and `e`
 * exponent, or `0x` hex digits with an optional point and a required `p` exponent; underscores
 * anywhere in digits, checked by {@link underscoresOK}. Each part can match in one way only
 * (`d*(\.d*)?`, not `d*\.?d*`, which splits a run of digits in n ways): a 16 KB `q` that does not
 * match cost 0.4 s of backtracking, 60 KB (an HTTP/2 header) 8 s.
 */
const goFloatSyntax =
  /^([+-]?)(?:(0[xX])([0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?)[pP]([+-]?[0-9][0-9_]*)|([0-9_]*(?:\.[0-9_]*)?)(?:[eE]([+-]?[0-9][0-9_]*))?)$/;

/** `strconv.underscoreOK`: underscores only between digits (a base prefix counts as a digit). */
function underscoresOK(s: string): boolean {
  if (!s.includes('_')) return true;
  let t = s[0] === '+' || s[0] === '-' ? s.slice(1) : s;
  let saw = '^';
  let hex = false;
  if (t.length >= 2 && t[0] === '0' && /[box]/i.test(t[1]!)) {
    hex = /x/i.test(t[1]!);
    t = t.slice(2);
    saw = '0';
  }
  for (const c of t) {
    if ((c >= '0' && c <= '9') || (hex && /[a-f]/i.test(c))) saw = '0';
    else if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else if (saw === '_') return false;
    else saw = '!';
  }
  return saw !== '_';
}

/** goautoneg's `Less`: not a strict order (a lower q sorts first against a wildcard), kept as it is. */
const less = (a: AcceptClause, b: AcceptClause): boolean =>
  a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');

/**
 * `goautoneg.ParseAccept` (github.com/munnerz/goautoneg, which kube-apiserver negotiates with):
 * clauses split at `,` and `;`, types and parameter names case-sensitive, a type without a
 * subtype dropped unless it is `*`, parameters without exactly one `=` dropped, `q` read as a
 * float32 (0 when unreadable), then sorted by goautoneg's `Less` with Go's `sort.Sort`
 * ({@link goSort}: insertion for up to 12 clauses, pdqsort past that, in n log n). `xorshift`
 * names the Go release whose pdqsort to follow (the oracle's, in tools/accept-oracle).
 */
export function parseAccept(header: string, xorshift?: GoXorshift): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (let start = 0; start < header.length;) {
    const end = elementEnd(header, COMMA, start, header.length);
    const clause = parseClause(header, start, end);
    if (clause) clauses.push(clause);
    start = end + 1;
  }
  goSort(clauses, less, xorshift);
  return clauses;
}

/** Whether a clause admits a media type as kube's negotiation matches them (exact, `type/*`, `*\/*`). */
export function clauseMatches(clause: AcceptClause, mediaType: string): boolean {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash);
  const subType = mediaType.slice(slash + 1);
  return (
    (clause.type === type && (clause.subType === subType || clause.subType === '*')) ||
    (clause.type === '*' && clause.subType === '*')
  );
}

/** One clause, `header[from, to)`: undefined when goautoneg drops it. */
function parseClause(header: string, from: number, to: number): AcceptClause | undefined {
  // The part trimmed of spaces, then split at its first `;` into the range and the parameters.
  while (from < to && header.charCodeAt(from) === 32) from++;
  while (to > from && header.charCodeAt(to - 1) === 32) to--;
  const rangeEnd = elementEnd(header, SEMICOLON, from, to);
  const slash = elementEnd(header, SLASH, from, rangeEnd);
  const type = trimmed(header, from, slash);
  let subType: string;
  if (slash + 1 >= rangeEnd) {
    // No subtype (`application`, `application/`): only `*` stands for `*/*`.
    if (type !== '*') return undefined;
    subType = '*';
  } else {
    const subEnd = elementEnd(header, SLASH, slash + 1, rangeEnd);
    // `a/b/c` is dropped; `a/b/` keeps `b` (what follows the second slash is empty).
    if (subEnd + 1 < rangeEnd) return undefined;
    subType = trimmed(header, slash + 1, subEnd);
  }
  let q = 1;
  let params = noParams;
  for (let p = rangeEnd + 1; p < to;) {
    const end = elementEnd(header, SEMICOLON, p, to);
    const eq = elementEnd(header, EQUALS, p, end);
    const valueEnd = eq < end ? elementEnd(header, EQUALS, eq + 1, end) : end;
    // Exactly one `=` with something after it (`a=b=` counts: the text after the second `=` is empty).
    if (eq + 1 < end && valueEnd + 1 >= end) {
      const name = trimmed(header, p, eq);
      const value = header.slice(eq + 1, valueEnd);
      if (name === 'q') q = goParseFloat32(value);
      else {
        if (params === noParams) params = new Map();
        (params as Map<string, string>).set(name, trimmed(value, 0, value.length));
      }
    }
    p = end + 1;
  }
  return { type, subType, q, params };
}
