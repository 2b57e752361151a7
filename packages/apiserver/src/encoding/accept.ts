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
  if (/^[+-]?nan$/i.test(s)) return Number.NaN;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return 0;
  return Math.fround(Number(s));
}

/** The most clauses Go's `sort.Sort` orders by insertion (pdqsort's `maxInsertion`). */
const insertionSortMax = 12;

/** Exact types first, then `type/*`, then `*\/*`. */
const rank = (c: AcceptClause): number => (c.type === '*' ? 2 : c.subType === '*' ? 1 : 0);

/** goautoneg's `Less`: not a strict order (a lower q sorts first against a wildcard), kept as it is. */
const less = (a: AcceptClause, b: AcceptClause): boolean =>
  a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');

/**
 * `goautoneg.ParseAccept` (github.com/munnerz/goautoneg, which kube-apiserver negotiates with):
 * clauses split at `,` and `;`, types and parameter names case-sensitive, a type without a
 * subtype dropped unless it is `*`, parameters without exactly one `=` dropped, `q` read as a
 * float32 (0 when unreadable), then sorted by goautoneg's `Less` with Go's insertion sort (what
 * `sort.Sort` runs for up to 12 clauses; more are sorted by q, then exact types before
 * wildcards, in n log n).
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (let start = 0; start < header.length;) {
    const end = elementEnd(header, COMMA, start, header.length);
    const clause = parseClause(header, start, end);
    if (clause) clauses.push(clause);
    start = end + 1;
  }
  if (clauses.length > insertionSortMax) {
    // Go's sort.Sort switches to pdqsort here, whose order under goautoneg's Less depends on its
    // pivots; a strict order of the same keys costs n log n instead of an insertion sort's n².
    return clauses.sort((a, b) => b.q - a.q || rank(a) - rank(b));
  }
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
    }
  }
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
