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
 * The request's headers with each front-proxy header as the list of its values, one per header
 * line, as Go's `http.Header` keeps them (Node joins a repeated header with `, `, which would
 * make `X-Remote-Group: a` and `X-Remote-Group: b` one group `a, b`), read from the same
 * {@link headerLines} as impersonation; the same object when none is present.
 */
function withDistinctValues(req: FastifyRequest, h: AuthenticationHeaders): AuthenticationRequest['headers'] {
  let lines: Record<string, string[]> | undefined;
  for (const [name, value] of headerLines(req.raw)) {
    if (!isAuthenticationHeader(name, h)) continue;
    lines ??= {};
    (lines[name] ??= []).push(value);
  }
  return lines ? { ...req.headers, ...lines } : req.headers;
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
 * authenticator about to wait on I/O), the signal aborted when its client goes away.
 */
class FilterAuthenticationRequest implements AuthenticationRequest {
  readonly headers: AuthenticationRequest['headers'];
  readonly clientCertificates: readonly Uint8Array[] | undefined;
  readonly method: string;
  readonly path: string;
  #controller: AbortController | undefined = undefined;

  constructor(req: FastifyRequest, frontProxy: AuthenticationHeaders | undefined) {
    const certs = clientCertificates(req);
    this.headers = frontProxy && certs.length ? withDistinctValues(req, frontProxy) : req.headers;
    this.clientCertificates = certs.length ? certs : undefined;
    this.method = req.method;
    // Decoded once with the request target (kube-apiserver's `URL.Path`), as routed and authorized.
    this.path = req.requestInfo.path;
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
