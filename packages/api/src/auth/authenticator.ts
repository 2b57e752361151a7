import type { AuthenticationHeaders } from './authentication-headers.js';
import type { UserInfo } from './user-info.js';

/**
 * What an authenticator may look at: the credentials of one request, and where it goes. Shaped
 * after the `*http.Request` that k8s.io/apiserver's `authenticator.Request` reads; nothing here
 * depends on an HTTP library.
 */
export interface AuthenticationRequest {
  /**
   * The request headers, names lower-cased (`authorization`, `x-remote-user`). A header sent
   * several times has all its values, in order.
   */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The request's front-proxy headers alone (the chain's `authenticationHeaders`: names
   * lower-cased), each with its values one per header line, when the server gives them apart:
   * the same values as in `headers`, for a request-header authenticator to read without looking
   * at the others. Absent: read `headers`. The server makes a new object per request and never
   * changes it.
   */
  readonly frontProxyHeaders?: Readonly<Record<string, readonly string[]>>;
  /**
   * The client certificate chain the TLS layer verified against `--client-ca-file`, leaf first,
   * DER-encoded; absent on plain HTTP or when the client sent none.
   */
  readonly clientCertificates?: readonly Uint8Array[];
  /** The HTTP method, upper case (`GET`). */
  readonly method: string;
  /** The URL path, without the query (`/apis/coordination.k8s.io/v1/namespaces/kube-system/leases`). */
  readonly path: string;
  /**
   * Aborted when the client goes away before the answer (its HTTP/1.1 connection closes, its
   * HTTP/2 stream is reset): the request context of kube-apiserver's `AuthenticateRequest`. An
   * authenticator doing per-request I/O (a token review webhook) passes it to that I/O; work
   * shared between requests (an issuer's JWKS fetch) should not be cut by one of them. The server
   * sends nothing for a departed client, whatever the answer. Absent (or never aborted) when
   * nothing watches the client. The server makes it on first read: read it only on the path
   * that is about to wait. Wrappers hand the request object on as is (a spread copy would leave
   * the signal behind).
   */
  readonly signal?: AbortSignal;
}

/**
 * A successful authentication (`authenticator.Response`): the user, and the audiences the
 * credentials were found valid for when the authenticator checks audiences (JWT `aud`).
 */
export interface AuthenticationResponse {
  readonly user: UserInfo;
  /** The audiences the credentials are valid for; absent when the authenticator does not check them. */
  readonly audiences?: readonly string[];
}

/**
 * Stable codes of {@link AuthenticationError}:
 * - `InvalidCredentials`: the credentials are malformed, forged, or fail a check (signature,
 *   issuer, audience, claim validation rules, user validation rules);
 * - `ExpiredCredentials`: valid once, no longer (JWT `exp`, certificate `notAfter`);
 * - `AuthenticatorUnavailable`: the credentials could not be checked (an OIDC discovery document
 *   or JWKS that cannot be fetched yet).
 */
export type AuthenticationErrorCode = 'InvalidCredentials' | 'ExpiredCredentials' | 'AuthenticatorUnavailable';

/**
 * The rejection of {@link Authenticator.authenticate}: credentials were presented and are not
 * valid. The server answers 401 `Unauthorized` whatever the code (as kube-apiserver does); the
 * code and message are for logs and metrics, never for the client.
 */
export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
  readonly code: AuthenticationErrorCode;

  constructor(code: AuthenticationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Finds out who sent a request (k8s.io/apiserver's `authenticator.Request`,
 * `AuthenticateRequest(req) (*Response, ok bool, err error)`). `authenticate` resolves to the
 * response when the request carries credentials this authenticator accepts (ok), to `null` when
 * it has no opinion (no credentials of its kind: the next authenticator is asked, then
 * anonymous), and rejects with an {@link AuthenticationError} when it has credentials of its
 * kind that are not valid. An authenticator that knows the answer at once (a cached token) may
 * return it (or throw) synchronously; callers `await` either form.
 */
export interface Authenticator {
  /**
   * The front-proxy headers this authenticator reads (a request-header authenticator, or a chain
   * holding one), which the server removes from every request it lets through, whoever sent it;
   * read per request, so it may change (the `extension-apiserver-authentication` ConfigMap).
   */
  readonly authenticationHeaders?: AuthenticationHeaders | undefined;
  authenticate(request: AuthenticationRequest): Promise<AuthenticationResponse | null> | AuthenticationResponse | null;
}
