import { badRequest, pathNotFound } from '../errors/api-error.js';
import type { ApiError } from '../errors/api-error.js';

/**
 * An HTTP request target read once, the way Go's `url.ParseRequestURI` and kube-apiserver read
 * it: the absolute form (`https://host/path`) is reduced to its path, the query starts at the
 * first `?` (a `#` is an ordinary character of the path or the query, never a fragment), the path
 * is percent-decoded as a whole (so `%2F` separates segments, as in Go's `URL.Path`) and its
 * segments are split on `/`. Routing, RequestInfo, authentication and authorization all read this
 * one result.
 */
export interface RequestTarget {
  /** The decoded path in canonical form: `/` and the segments joined by `/` (no trailing slash). */
  readonly path: string;
  /** The decoded path segments, none empty. */
  readonly segments: readonly string[];
  /** What the router is given: the segments re-encoded one by one, then `?` and the raw query. */
  readonly routeUrl: string;
  /** Why the target is refused (400 for a malformed target, 404 for an empty inner segment). */
  readonly error?: ApiError;
}

const refusedRoute = '/';

const refused = (error: ApiError): RequestTarget => ({ path: '/', segments: [], routeUrl: refusedRoute, error });

/** `getScheme` of Go's net/url: the length of a leading `scheme:`, or 0 when there is none. */
function schemeLength(url: string): number {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (letter) continue;
    if (i > 0 && ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) continue;
    return c === 58 && i > 0 ? i + 1 : 0;
  }
  return 0;
}

/**
 * A target that needs no work: origin form, printable ASCII, no `%` or `#`, no empty segment and
 * no trailing slash in its path (then anything after `?`). The router and RequestInfo then read
 * it as it is. (A regular expression: a character loop over `req.url` cost ~40 instructions a
 * character.)
 */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const plainTarget = /^\/(?:[^/?%#\x00-\x20\x7f-\uffff]+(?:\/[^/?%#\x00-\x20\x7f-\uffff]+)*)?(?:\?|$)/;

/** Whether {@link parseRequestTarget} reads a target as it is (see `plainTarget`). */
export const isPlainTarget = (url: string): boolean => plainTarget.test(url);

const utf8 = new TextDecoder('utf-8', { fatal: true });

const hexValue = (c: number): number => {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
};

/** Go's `url.PathUnescape`, then UTF-8; the error when the path cannot be read so. */
function unescapePath(raw: string): string | ApiError {
  if (!raw.includes('%')) return raw;
  const bytes = new Uint8Array(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 37) {
      bytes[n++] = c;
      continue;
    }
    const hi = hexValue(raw.charCodeAt(i + 1));
    const lo = hexValue(raw.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) return badRequest(`invalid URL escape ${JSON.stringify(raw.slice(i, i + 3))}`);
    bytes[n++] = (hi << 4) | lo;
    i += 2;
  }
  try {
    return utf8.decode(bytes.subarray(0, n));
  } catch {
    return badRequest('invalid URL: the path is not valid UTF-8 once unescaped');
  }
}

/** A segment as the router reads it back (find-my-way decodes what encodeURIComponent writes). */
const encodeSegment = (s: string): string => encodeURIComponent(s);

/** Reads a request target (`req.url`: origin or absolute form) once; see {@link RequestTarget}. */
export function parseRequestTarget(url: string): RequestTarget {
  if (isPlainTarget(url)) {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    return { path, segments: path === '/' ? [] : path.slice(1).split('/'), routeUrl: url };
  }
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c <= 32 || c >= 127) return refused(badRequest('invalid request target: only printable ASCII is allowed'));
  }
  const q = url.indexOf('?');
  let rawPath = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const scheme = schemeLength(url);
  if (scheme > 0 && scheme <= rawPath.length) {
    rawPath = rawPath.slice(scheme);
    if (rawPath.startsWith('//')) {
      const slash = rawPath.indexOf('/', 2);
      rawPath = slash < 0 ? '/' : rawPath.slice(slash);
    }
  }
  if (rawPath.charCodeAt(0) !== 47) return refused(badRequest(`invalid request target ${JSON.stringify(url)}`));
  const decoded = unescapePath(rawPath);
  if (typeof decoded !== 'string') return refused(decoded);
  const parts = decoded.split('/');
  const from = 1;
  let to = parts.length;
  if (to > from + 1 && parts[to - 1] === '') to--;
  const segments = parts.slice(from, to);
  if (segments.length === 1 && segments[0] === '') segments.length = 0;
  else if (segments.includes('')) return refused(pathNotFound());
  const path = `/${segments.join('/')}`;
  return { path, segments, routeUrl: `/${segments.map(encodeSegment).join('/')}${query}` };
}
