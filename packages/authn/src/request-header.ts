import { unescapeExtraKey } from '@kevents/api';
import type { AuthenticationHeaders, AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';
import { invalidCredentials } from './errors.js';
import { parseCertificateBundle, verifyClientChain } from './x509.js';
import { parseCertificate } from './x509-certificate.js';
import type { ParsedCertificate } from './x509-certificate.js';

/**
 * The request-header settings (`--requestheader-*`, or the `extension-apiserver-authentication`
 * ConfigMap): who may assert an identity in headers, and in which headers.
 */
export interface RequestHeaderConfig {
  /** `--requestheader-client-ca-file`: the PEM bundle that verifies the front proxy's client certificate. */
  readonly clientCA: string;
  /** `--requestheader-allowed-names`: Common Names allowed; empty allows any certificate the CA verifies. */
  readonly allowedNames?: readonly string[];
  /** `--requestheader-username-headers`; default `X-Remote-User`. */
  readonly usernameHeaders?: readonly string[];
  /** `--requestheader-uid-headers`; default none (k8s.io/apiserver has no default). */
  readonly uidHeaders?: readonly string[];
  /** `--requestheader-group-headers`; default `X-Remote-Group`. */
  readonly groupHeaders?: readonly string[];
  /** `--requestheader-extra-headers-prefix`; default `X-Remote-Extra-`. */
  readonly extraHeaderPrefixes?: readonly string[];
}

/** k8s.io/apiserver's defaults of the request-header flags. */
export const requestHeaderDefaults = {
  usernameHeaders: ['X-Remote-User'],
  uidHeaders: [] as string[],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
} as const;

/** The headers {@link RequestHeaderAuthenticator} reads, lower-cased, for removal from requests. */
export function authenticationHeaderNames(c: Omit<RequestHeaderConfig, 'clientCA'>): AuthenticationHeaders {
  const lower = (l: readonly string[]): string[] => l.map((h) => h.trim().toLowerCase()).filter(Boolean);
  return {
    names: [
      ...lower(c.usernameHeaders ?? requestHeaderDefaults.usernameHeaders),
      ...lower(c.uidHeaders ?? requestHeaderDefaults.uidHeaders),
      ...lower(c.groupHeaders ?? requestHeaderDefaults.groupHeaders),
    ],
    prefixes: lower(c.extraHeaderPrefixes ?? requestHeaderDefaults.extraHeaderPrefixes),
  };
}

type Headers = AuthenticationRequest['headers'];
type FrontProxyHeaders = NonNullable<AuthenticationRequest['frontProxyHeaders']>;

/** Whether two sets of front-proxy headers have the same names in the same order, each with the same values. */
function sameHeaders(
  keys: readonly string[],
  h: FrontProxyHeaders,
  lastKeys: readonly string[],
  last: FrontProxyHeaders,
): boolean {
  if (keys.length !== lastKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k !== lastKeys[i]) return false;
    const a = h[k]!;
    const b = last[k]!;
    if (a.length !== b.length) return false;
    for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  }
  return true;
}

const values = (h: Headers, name: string): readonly string[] => {
  const v = h[name];
  return v === undefined ? [] : typeof v === 'string' ? [v] : v;
};

/** Go's `headerValue`: the first value of the first header that has a non-empty one. */
function headerValue(h: Headers, names: readonly string[]): string {
  for (const n of names) {
    const v = values(h, n)[0];
    if (v) return v;
  }
  return '';
}

/** Go's `allHeaderValues`: every value of every header, in order, skipping blank ones. */
function allHeaderValues(h: Headers, names: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of names) for (const v of values(h, n)) if (v.trim().length) out.push(v);
  return out;
}

/** The extra key reading shared with impersonation (`@kevents/api`). */
export { unescapeExtraKey };

/** Go's `newExtra`: per header under a prefix, the lower-cased rest of its name, unescaped, with its values. */
function extra(h: Headers, prefixes: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(h)) {
    for (const p of prefixes) {
      if (!name.startsWith(p)) continue;
      const key = unescapeExtraKey(name.slice(p.length).toLowerCase());
      (out[key] ??= []).push(...values(h, name));
    }
  }
  return out;
}

/**
 * k8s.io/apiserver's request-header authenticator (`headerrequest.NewDynamicVerifyOptionsSecure`):
 * the identity in the front proxy's headers counts only on a connection whose client certificate
 * verifies against the request-header CA for client authentication (as Go's `x509.Verify`) and,
 * when allowed names are set, whose Common Name is one of them. No certificate: no opinion (the
 * headers are ignored). A certificate that does not verify, or a Common Name not allowed: an
 * error, as the `x509.Verifier` fails. No username header: no opinion. The user is the first
 * username header's value, the uid the first uid header's, the groups every group header's
 * values, the extra every header under an extra prefix (its key the rest of the name,
 * lower-cased and percent-decoded).
 */
export class RequestHeaderAuthenticator implements Authenticator {
  readonly #roots: readonly ParsedCertificate[];
  readonly #allowed: readonly string[];
  readonly #user: readonly string[];
  readonly #uid: readonly string[];
  readonly #group: readonly string[];
  readonly #prefixes: readonly string[];
  readonly #now: () => number;
  /** Verified chains (by the filter's per-connection array) and until when the answer holds. */
  readonly #verified = new WeakMap<readonly Uint8Array[], number>();
  /** Per connection (the filter's per-connection array), the last front-proxy headers read and their answer. */
  readonly #last = new WeakMap<
    readonly Uint8Array[],
    { keys: readonly string[]; headers: FrontProxyHeaders; response: AuthenticationResponse }
  >();
  readonly #rootsNotAfter: number;
  /** The headers this authenticator reads, for the filter to remove. */
  readonly headerNames: AuthenticationHeaders;

  /** @throws Error when the CA bundle holds no certificate. */
  constructor(config: RequestHeaderConfig, options: { now?: () => number } = {}) {
    this.#roots = parseCertificateBundle(config.clientCA).map((c) => parseCertificate(c.raw));
    this.#rootsNotAfter = Math.min(...this.#roots.map((r) => r.notAfter));
    this.#allowed = (config.allowedNames ?? []).filter((n) => n !== '');
    const lower = (l: readonly string[]): string[] => l.map((h) => h.trim().toLowerCase()).filter(Boolean);
    this.#user = lower(config.usernameHeaders ?? requestHeaderDefaults.usernameHeaders);
    this.#uid = lower(config.uidHeaders ?? requestHeaderDefaults.uidHeaders);
    this.#group = lower(config.groupHeaders ?? requestHeaderDefaults.groupHeaders);
    this.#prefixes = lower(config.extraHeaderPrefixes ?? requestHeaderDefaults.extraHeaderPrefixes);
    this.headerNames = { names: [...this.#user, ...this.#uid, ...this.#group], prefixes: this.#prefixes };
    this.#now = options.now ?? Date.now;
  }

  authenticate(req: AuthenticationRequest): AuthenticationResponse | null {
    const der = req.clientCertificates;
    if (!der || der.length === 0) return null;
    // One TLS connection presents one chain (the filter hands the same array for each of its
    // requests): a verified chain is not verified again while every certificate it could have been
    // built from is valid, so the answer is the one a new verification would give.
    const until = this.#verified.get(der);
    if (until === undefined || until < this.#now()) this.#verify(der);
    const fp = req.frontProxyHeaders;
    if (!fp) return this.#answer(req.headers);
    // The answer is a function of the front-proxy headers alone: the same lines as the
    // connection's previous request give the same response object (so that what is derived
    // from the user downstream can be kept per object).
    const keys = Object.keys(fp);
    const last = this.#last.get(der);
    if (last && sameHeaders(keys, fp, last.keys, last.headers)) return last.response;
    const response = this.#answer(fp);
    if (response) this.#last.set(der, { keys, headers: fp, response });
    return response;
  }

  /** The user the headers assert; null without a username. */
  #answer(h: Headers): AuthenticationResponse | null {
    const username = headerValue(h, this.#user);
    if (!username) return null;
    const uid = headerValue(h, this.#uid);
    return {
      user: {
        username,
        ...(uid ? { uid } : {}),
        groups: allHeaderValues(h, this.#group),
        extra: extra(h, this.#prefixes),
      },
    };
  }

  /** Verifies the chain and the allowed names, remembering a success. @throws AuthenticationError */
  #verify(der: readonly Uint8Array[]): void {
    const presented = verifyClientChain(der, this.#roots, this.#now());
    const leaf = presented[0]!;
    if (this.#allowed.length && !this.#allowed.includes(leaf.commonName))
      throw invalidCredentials(`x509: subject with cn=${leaf.commonName} is not in the allowed list`);
    let until = this.#rootsNotAfter;
    for (const c of presented) until = Math.min(until, c.notAfter);
    this.#verified.set(der, until);
  }
}
