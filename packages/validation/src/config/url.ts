/** What Go's `net/url.Parse` yields that the config validators look at. */
export interface ParsedURL {
  scheme: string;
  hasUser: boolean;
  host: string;
  rawQuery: string;
  fragment: string;
}

/** Go's `url.Error` text: `parse "<url>": <reason>`. */
export class URLParseError extends Error {}

const fail = (raw: string, reason: string): never => {
  throw new URLParseError(`parse ${JSON.stringify(raw)}: ${reason}`);
};

/**
 * A port of the parts of Go's `url.Parse` that decide validity: scheme, authority (user info,
 * host and port), query and fragment. Throws URLParseError with Go's message.
 */
export function parseGoURL(raw: string): ParsedURL {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) fail(raw, 'net/url: invalid control character in URL');
  const hash = raw.indexOf('#');
  const fragment = hash >= 0 ? raw.slice(hash + 1) : '';
  let rest = hash >= 0 ? raw.slice(0, hash) : raw;
  if (rest === '' && hash >= 0) return { scheme: '', hasUser: false, host: '', rawQuery: '', fragment };

  let scheme = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) fail(raw, 'missing protocol scheme');
      scheme = rest.slice(0, i).toLowerCase();
      rest = rest.slice(i + 1);
    }
    break;
  }

  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }

  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, hasUser: false, host: '', rawQuery, fragment };
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) fail(raw, 'first path segment in URL cannot contain colon');
  }

  let host = '';
  let hasUser = false;
  if (rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      hasUser = true;
      if (!/^[A-Za-z0-9\-._~!$&'()*+,;=%:@]*$/.test(authority.slice(0, at))) fail(raw, 'net/url: invalid userinfo');
    }
    host = parseHost(raw, authority.slice(at + 1));
  }
  return { scheme, hasUser, host, rawQuery, fragment };
}

function parseHost(raw: string, host: string): string {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) fail(raw, "missing ']' in host");
    const port = host.slice(close + 1);
    if (!validOptionalPort(port)) fail(raw, `invalid port ${JSON.stringify(port)} after host`);
    return host;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) {
    const port = host.slice(colon);
    if (!validOptionalPort(port)) fail(raw, `invalid port ${JSON.stringify(port)} after host`);
  }
  return host;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}
