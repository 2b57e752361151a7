/** One clause of an Accept header, as goautoneg parses it. */
interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
}

/** goautoneg.ParseAccept: the clauses by descending q, exact types before wildcards (a stable sort here). */
function parseAccept(accept: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of accept.split(',')) {
    const [range = '', ...params] = raw.split(';').map((s) => s.trim().toLowerCase());
    if (range === '') continue;
    const slash = range.indexOf('/');
    const [type, subType] = slash < 0 ? [range, '*'] : [range.slice(0, slash), range.slice(slash + 1)];
    const qp = params.find((p) => p.startsWith('q='));
    const q = qp === undefined ? 1 : Number(qp.slice(2));
    clauses.push({ type, subType, q: Number.isNaN(q) ? 0 : q });
  }
  const rank = (c: AcceptClause): number => (c.type === '*' ? 2 : c.subType === '*' ? 1 : 0);
  return clauses.sort((a, b) => b.q - a.q || rank(a) - rank(b));
}

/**
 * kube-openapi's negotiation: the first clause (by q) that matches a media type the handler
 * produces, in the handler's order, wins; an absent header means `*\/*`; a clause with q=0 admits
 * nothing. Answers the index of the chosen type in `produces`, or -1 (406).
 */
export function negotiateOpenAPI(accept: string | undefined, produces: readonly string[]): number {
  const clauses = parseAccept(accept === undefined || accept.trim() === '' ? '*/*' : accept);
  for (const c of clauses) {
    if (c.q <= 0) continue;
    for (let i = 0; i < produces.length; i++) {
      const [type = '', subType = ''] = produces[i]!.split('/');
      if ((c.type === type || c.type === '*') && (c.subType === subType || c.subType === '*')) return i;
    }
  }
  return -1;
}

/** Whether an Accept header admits `application/json` by {@link negotiateOpenAPI}. */
export function acceptsJSON(accept: string | undefined): boolean {
  return negotiateOpenAPI(accept, ['application/json']) === 0;
}
