/**
 * Whether an Accept header admits `application/json` (kube-openapi's negotiation: the first
 * clause matching a type it can produce wins; an absent header means anything). kevents writes
 * only JSON, so protobuf-only clients get a 406 and fall back.
 */
export function acceptsJSON(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((clause) => {
    const [range = '', ...params] = clause.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return range === '*/*' || range === 'application/*' || range === 'application/json';
  });
}
