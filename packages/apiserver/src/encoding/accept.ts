/** One clause of an Accept header, as goautoneg parses it. */
export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  /** The parameters other than `q`, names and values trimmed of spaces, case kept. */
  readonly params: ReadonlyMap<string, string>;
}

const trimSpaces = (s: string): string => s.replace(/^ +| +$/g, '');

/** goautoneg's `nextSplitElement`: the text before the first `sep` and the text after it ("" when none). */
function next(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

/** `strconv.ParseFloat(s, 32)`'s value with its error ignored, as goautoneg reads `q` (0 when unreadable). */
function goParseFloat32(s: string): number {
  if (/^[+-]?(?:inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return Number.NaN;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return 0;
  return Math.fround(Number(s));
}

/** goautoneg's `Less`: not a strict order (a lower q sorts first against a wildcard), kept as it is. */
const less = (a: AcceptClause, b: AcceptClause): boolean =>
  a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');

/**
 * `goautoneg.ParseAccept` (github.com/munnerz/goautoneg, which kube-apiserver negotiates with):
 * clauses split at `,` and `;`, types and parameter names case-sensitive, a type without a
 * subtype dropped unless it is `*`, parameters without exactly one `=` dropped, `q` read as a
 * float32 (0 when unreadable), then sorted by goautoneg's `Less` with Go's insertion sort (what
 * `sort.Sort` runs for up to 12 clauses).
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  let remaining = header;
  while (remaining.length > 0) {
    let part: string;
    [part, remaining] = next(remaining, ',');
    const [range, paramText] = next(trimSpaces(part), ';');
    const [rawType, afterType] = next(range, '/');
    const type = trimSpaces(rawType);
    let subType: string;
    if (afterType.length === 0) {
      if (type !== '*') continue;
      subType = '*';
    } else {
      const [rawSub, extra] = next(afterType, '/');
      if (extra.length > 0) continue;
      subType = trimSpaces(rawSub);
    }
    let q = 1;
    const params = new Map<string, string>();
    let rest = paramText;
    while (rest.length > 0) {
      let param: string;
      [param, rest] = next(rest, ';');
      const [rawName, afterName] = next(param, '=');
      if (afterName.length === 0) continue;
      const [value, extra] = next(afterName, '=');
      if (extra.length > 0) continue;
      const name = trimSpaces(rawName);
      if (name === 'q') q = goParseFloat32(value);
      else params.set(name, trimSpaces(value));
    }
    clauses.push({ type, subType, q, params });
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
