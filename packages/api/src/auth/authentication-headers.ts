/**
 * The front-proxy headers a request-header authenticator reads (`--requestheader-username-headers`,
 * uid and group headers, and the extra prefixes), lower-cased: the server removes them from every
 * request it lets through, as k8s.io/apiserver's `headerrequest.ClearAuthenticationHeaders` does.
 */
export interface AuthenticationHeaders {
  /** Whole header names, lower-cased. */
  readonly names: readonly string[];
  /** Name prefixes (`x-remote-extra-`), lower-cased. */
  readonly prefixes: readonly string[];
}

/** Whether a lower-cased header name is one of `h`: a name, or under a prefix. */
export function isAuthenticationHeader(name: string, h: AuthenticationHeaders): boolean {
  for (const n of h.names) if (name === n) return true;
  for (const p of h.prefixes) if (name.startsWith(p)) return true;
  return false;
}

/**
 * `headers` without the front-proxy headers (`ClearAuthenticationHeaders`): the same object when
 * it holds none of them (the common case costs no copy), else a new object with every other
 * header. A new object, not `delete`: deleting properties would leave the headers object slow to
 * read for every later filter and handler.
 */
export function withoutAuthenticationHeaders<V>(
  headers: Readonly<Record<string, V>>,
  h: AuthenticationHeaders,
): Readonly<Record<string, V>> {
  let found = false;
  for (const k in headers) {
    if (isAuthenticationHeader(k, h)) {
      found = true;
      break;
    }
  }
  if (!found) return headers;
  const out: Record<string, V> = {};
  for (const k in headers) if (!isAuthenticationHeader(k, h)) out[k] = headers[k]!;
  return out;
}
