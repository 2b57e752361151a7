import type { TLSSocket } from 'node:tls';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors/api-error.js';
import { headerLines } from './header-lines.js';
import type { ApiError } from '../errors/api-error.js';
import { IncomingMessage } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { anonymousUser, isAuthenticationHeader, withoutAuthenticationHeaders } from '@kevents/api';
import type {
  AuthenticationHeaders,
  AuthenticationRequest,
  AuthenticationResponse,
  Authenticator,
  UserInfo,
} from '@kevents/api';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking, set by the authentication filter (`system:anonymous` when no authenticator claims the request). */
    user: UserInfo;
  }
}

/** Options of the authentication filter. */
export interface AuthenticationOptions {
  /** Decides who sent a request; none means every request is anonymous. */
  readonly authenticator?: Authenticator;
  /**
   * Requests the authenticator has no opinion on are served as `system:anonymous` (else 401).
   * Default true. An authenticator that does its own anonymous step (kube-apiserver's chain) is
   * given with `false`.
   */
  readonly anonymous?: boolean;
  /** Where failures are logged (`Unable to authenticate the request`, with the reason). */
  readonly logger?: Pick<FastifyBaseLogger, 'info'>;
}

const noCertificates: readonly Uint8Array[] = [];
const peerChains = new WeakMap<object, readonly Uint8Array[]>();

/** The certificate chain the client presented on this TLS connection (leaf first, DER), cached per connection. */
function clientCertificates(req: FastifyRequest): readonly Uint8Array[] {
  const raw = req.raw as unknown as { stream?: { session?: { socket?: TLSSocket } }; socket?: TLSSocket };
  const socket = raw.stream?.session?.socket ?? raw.socket;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return noCertificates;
  const key = socket as object;
  let chain = peerChains.get(key);
  if (!chain) {
    const out: Uint8Array[] = [];
    let c = socket.getPeerCertificate(true);
    const seen = new Set<unknown>();
    while (c && c.raw && !seen.has(c)) {
      seen.add(c);
      out.push(c.raw);
      if (!c.issuerCertificate || c.issuerCertificate === c) break;
      c = c.issuerCertificate;
    }
    chain = out.length ? out : noCertificates;
    peerChains.set(key, chain);
  }
  return chain;
}

/** Whether the response can no longer be sent: its HTTP/1.1 connection or its HTTP/2 stream is gone. */
export function clientGone(res: FastifyReply['raw']): boolean {
  const r = res as { destroyed?: boolean; stream?: { destroyed?: boolean } };
  return r.destroyed === true || r.stream?.destroyed === true;
}

const noop = (): void => undefined;

/**
 * Calls `onGone` once when the client goes away before `stop()` is called (at once when it
 * already has): the response's 'close', which Node emits on an HTTP/1.1 connection closed and
 * on an HTTP/2 stream closed or reset, and which cannot come from an answer while a filter still
 * waits to give one. Filters watch the client only while an asynchronous answer is pending: one
 * listener then, none on the synchronous path.
 */
export function whileClientWaits(res: FastifyReply['raw'], onGone: () => void): () => void {
  if (clientGone(res)) {
    onGone();
    return noop;
  }
  res.on('close', onGone);
  return () => void res.off('close', onGone);
}

/**
 * Header names that Node does not join with `, ` when a request repeats them: HTTP/1.1 keeps the
 * first line of these (`matchKnownFields` in `_http_incoming`), `cookie` is joined with `; ` and
 * `set-cookie` is an array; HTTP/2 keeps the first of its single-value fields
 * (`kSingleValueFields` in `internal/http2/util`). For any other name a value is the request's
 * lines of that name joined with `, `.
 */
export const notCommaJoined: ReadonlySet<string> = new Set([
  // HTTP/1.1: duplicates dropped
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
  // both: not joined with ", "
  'cookie',
  'set-cookie',
  // HTTP/2: single-value fields
  ':status',
  ':method',
  ':authority',
  ':scheme',
  ':path',
  ':protocol',
  'access-control-allow-credentials',
  'access-control-max-age',
  'access-control-request-method',
  'content-encoding',
  'content-language',
  'content-location',
  'content-md5',
  'content-range',
  'date',
  'dnt',
  'if-match',
  'if-none-match',
  'if-range',
  'range',
  'tk',
  'upgrade-insecure-requests',
  'x-content-type-options',
]);

/**
 * The request's front-proxy headers, each as the list of its values, one per header line, as
 * Go's `http.Header` keeps them (Node joins a repeated header with `, `, which would make
 * `X-Remote-Group: a` and `X-Remote-Group: b` one group `a, b`); undefined when none is present.
 * A value that holds no `, `, of a header Node joins with `, `, came from one line and is taken as
 * is; otherwise the lines are read from the same {@link headerLines} as impersonation.
 */
export function frontProxyLines(
  req: { readonly headers: IncomingHttpHeaders; readonly rawHeaders?: readonly string[] },
  h: AuthenticationHeaders,
): Record<string, string[]> | undefined {
  const headers = req.headers;
  let lines: Record<string, string[]> | undefined;
  for (const name in headers) {
    if (!isAuthenticationHeader(name, h)) continue;
    const v = headers[name];
    if (typeof v !== 'string' || v.includes(', ') || notCommaJoined.has(name)) return linesOf(req, h);
    (lines ??= {})[name] = [v];
  }
  return lines;
}

/** The front-proxy headers' lines, read from the request's header lines. */
function linesOf(
  req: Parameters<typeof headerLines>[0],
  h: AuthenticationHeaders,
): Record<string, string[]> | undefined {
  let lines: Record<string, string[]> | undefined;
  for (const [name, value] of headerLines(req)) {
    if (!isAuthenticationHeader(name, h)) continue;
    lines ??= {};
    (lines[name] ??= []).push(value);
  }
  return lines;
}

/**
 * Puts the request's headers without the front-proxy ones in place (`ClearAuthenticationHeaders`):
 * a new headers object when there is something to remove, so that the object every later reader
 * gets stays a fast one (an HTTP/2 request has no `headers` setter: an own property shadows it).
 */
function clearAuthenticationHeaders(req: FastifyRequest, h: AuthenticationHeaders): void {
  const raw = req.raw;
  const cleared = withoutAuthenticationHeaders(raw.headers, h) as IncomingHttpHeaders;
  if (cleared === raw.headers) return;
  if (raw instanceof IncomingMessage) raw.headers = cleared;
  else Object.defineProperty(raw, 'headers', { value: cleared, writable: true, configurable: true, enumerable: true });
}

/**
 * What the filter asks the authenticator: a request's credentials and, made on first read (by an
 * authenticator about to wait on I/O), the signal aborted when its client goes away. On a
 * connection with a client certificate the front-proxy headers are given apart, one value per
 * line (`frontProxyHeaders`); `headers` then has them too, made on first read.
 */
class FilterAuthenticationRequest implements AuthenticationRequest {
  readonly frontProxyHeaders: Readonly<Record<string, readonly string[]>> | undefined;
  readonly clientCertificates: readonly Uint8Array[] | undefined;
  readonly method: string;
  readonly path: string;
  readonly #source: IncomingHttpHeaders;
  #headers: AuthenticationRequest['headers'] | undefined = undefined;
  #controller: AbortController | undefined = undefined;

  constructor(req: FastifyRequest, frontProxy: AuthenticationHeaders | undefined) {
    const certs = clientCertificates(req);
    this.#source = req.headers;
    this.frontProxyHeaders = frontProxy && certs.length ? frontProxyLines(req.raw, frontProxy) : undefined;
    this.clientCertificates = certs.length ? certs : undefined;
    this.method = req.method;
    // Decoded once with the request target (kube-apiserver's `URL.Path`), as routed and authorized.
    this.path = req.requestInfo.path;
  }

  get headers(): AuthenticationRequest['headers'] {
    return (this.#headers ??= this.frontProxyHeaders ? { ...this.#source, ...this.frontProxyHeaders } : this.#source);
  }

  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /** Aborts the signal, when one was made. */
  abort(): void {
    this.#controller?.abort();
  }
}

/**
 * The authentication filter (`WithAuthentication`): asks the authenticator who sent the request,
 * with its headers and the TLS client certificates; any failure answers Kubernetes' fixed 401
 * Status (the reason goes to the log only); on success the user is set for authorization and the
 * `Authorization` header is removed, as kube-apiserver does.
 */
export function installAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const authenticator = options.authenticator;
  const anonymous = options.anonymous !== false;
  if (!authenticator && anonymous) {
    app.decorateRequest('user', { getter: () => anonymousUser });
    return;
  }
  app.decorateRequest('user', null as unknown as UserInfo);
  if (!authenticator) {
    app.addHook('onRequest', (_req, _reply, done) => done(unauthorized()));
    return;
  }
  const log = options.logger;
  // Read per request: the headers may change (the extension-apiserver-authentication ConfigMap).
  const proxied = 'authenticationHeaders' in authenticator;
  const fail = (req: FastifyRequest, err: unknown): ApiError => {
    log?.info(
      { err: err instanceof Error ? err.message : String(err), method: req.method, path: req.requestInfo.path },
      'Unable to authenticate the request',
    );
    return unauthorized();
  };
  const settle = (req: FastifyRequest, response: AuthenticationResponse | null): ApiError | undefined => {
    const headers = proxied ? authenticator.authenticationHeaders : undefined;
    if (response) {
      req.user = response.user;
      delete req.headers['authorization'];
      if (headers) clearAuthenticationHeaders(req, headers);
      return undefined;
    }
    if (anonymous) {
      req.user = anonymousUser;
      if (headers) clearAuthenticationHeaders(req, headers);
      return undefined;
    }
    log?.info({ method: req.method, path: req.requestInfo.path }, 'Unable to authenticate the request: no credentials');
    return unauthorized();
  };
  // Callback style: an answer the authenticator has at once (a cached token) costs no promise,
  // no signal and no listener. While an answer is pending the client is watched: when it goes
  // away the request's signal is aborted and the chain stops here (nothing sent, no handler).
  app.addHook('onRequest', (req, reply, done) => {
    let answer;
    let request: FilterAuthenticationRequest;
    try {
      request = new FilterAuthenticationRequest(req, proxied ? authenticator.authenticationHeaders : undefined);
      answer = authenticator.authenticate(request);
    } catch (err) {
      done(fail(req, err));
      return;
    }
    if (!(answer instanceof Promise)) return done(settle(req, answer));
    let gone = false;
    const stop = whileClientWaits(reply.raw, () => {
      gone = true;
      request.abort();
    });
    answer.then(
      (response) => {
        stop();
        if (!gone) done(settle(req, response));
      },
      (err: unknown) => {
        stop();
        if (!gone) done(fail(req, err));
      },
    );
  });
}
