/**
 * When a JWKS answer may be reused, from its HTTP caching headers, as go-oidc v2 asks
 * pquerna/cachecontrol: `Cache-Control` `s-maxage`/`max-age` (less `Age`), else `Expires`
 * relative to `Date`. `no-store`/`no-cache` or no header: expired at once (go-oidc then treats
 * the keys as refreshable on the next unknown key).
 * @returns the expiry instant, milliseconds since the epoch.
 */
export function cacheExpiry(headers: Readonly<Record<string, string | undefined>>, now: number): number {
  const cc = (headers['cache-control'] ?? '').toLowerCase();
  const directives = new Map<string, string>();
  for (const part of cc.split(',')) {
    const [k, v] = part.trim().split('=', 2) as [string, string | undefined];
    if (k) directives.set(k, (v ?? '').replace(/^"|"$/g, ''));
  }
  if (directives.has('no-store') || directives.has('no-cache')) return now;
  const age = Number(headers['age'] ?? 0);
  const ageMs = Number.isFinite(age) && age > 0 ? age * 1000 : 0;
  for (const d of ['s-maxage', 'max-age']) {
    const v = directives.get(d);
    if (v !== undefined && /^\d+$/.test(v)) return Math.max(now, now + Number(v) * 1000 - ageMs);
  }
  const expires = headers['expires'];
  if (expires) {
    const e = Date.parse(expires);
    if (!Number.isFinite(e)) return now;
    const date = headers['date'] ? Date.parse(headers['date']) : NaN;
    return Math.max(now, Number.isFinite(date) ? now + (e - date) : e);
  }
  return now;
}
