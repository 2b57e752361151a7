/** Query parameters as Go's `url.ParseQuery` leaves them: one value, or several in order. */
export type GoQuery = Record<string, string | string[]>;

const hex = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * `url.QueryUnescape`: `+` is a space and `%XX` a byte; undefined where a `%` is not followed by
 * two hex digits (Go's EscapeError). Bytes that are not UTF-8 become U+FFFD (a Go string keeps
 * them as they are).
 */
function queryUnescape(s: string): string | undefined {
  const spaced = s.includes('+') ? s.replaceAll('+', ' ') : s;
  if (!s.includes('%')) return spaced;
  if (badEscape.test(s)) return undefined;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return bytesUnescaped(s);
  }
}

/** A `%` not followed by two hex digits. */
const badEscape = /%(?![0-9A-Fa-f]{2})/;

/** The escapes of `s` (all well formed) as bytes, read as UTF-8 with U+FFFD for what is not. */
function bytesUnescaped(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      bytes.push(hex(s.charCodeAt(i + 1)) * 16 + hex(s.charCodeAt(i + 2)));
      i += 2;
    } else if (c === 43) {
      bytes.push(32);
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // The router hands the query over as received; anything beyond ASCII is encoded as UTF-8.
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
    }
  }
  return utf8.decode(Uint8Array.from(bytes));
}

/**
 * Reads a query string (without its `?`) as Go's `url.ParseQuery` does, and so as
 * kube-apiserver's `req.URL.Query()` reads it: pairs split on `&`, a pair holding a `;` dropped,
 * empty pairs skipped, the key and value split at the first `=`, both unescaped
 * (`QueryUnescape`), a pair with a bad escape dropped; repeated keys keep every value in order.
 * The result has no prototype.
 */
export function parseGoQuery(query: string): GoQuery {
  const out = Object.create(null) as GoQuery;
  let from = 0;
  while (from <= query.length) {
    let to = query.indexOf('&', from);
    if (to < 0) to = query.length;
    const pair = query.slice(from, to);
    from = to + 1;
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = queryUnescape(eq < 0 ? pair : pair.slice(0, eq));
    if (key === undefined) continue;
    const value = queryUnescape(eq < 0 ? '' : pair.slice(eq + 1));
    if (value === undefined) continue;
    const had = out[key];
    if (had === undefined) out[key] = value;
    else if (typeof had === 'string') out[key] = [had, value];
    else had.push(value);
  }
  return out;
}
