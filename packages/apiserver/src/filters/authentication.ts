import type { TLSSocket } from 'node:tls';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors/api-error.js';
import { headerLines } from './header-lines.js';
import type { ApiError } from '../errors/api-error.js';
import { anonymousUser } from '@kevents/api';
import type { AuthenticationRequest, AuthenticationResponse, Authenticator, UserInfo } from '@kevents/api';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking, set by the authentication filter (`system:anonymous` when no authenticator claims the request). */
    user: UserInfo;
  }
}

/**
 * The front-proxy headers an authenticator reads (`--requestheader-username-headers`, uid, group
 * headers, lower-cased, and the lower-cased extra prefixes): an authenticator that has them (the
 * `@kevents/authn` chain with request-header settings) gets them removed from every request the
 * filter lets through, before any later filter or handler reads the request.
 */
export interface AuthenticationHeaders {
  readonly names: readonly string[];
  readonly prefixes: readonly string[];
}

/**
 * Removes the front-proxy headers, as k8s.io/apiserver's `WithAuthentication` does
 * (`headerrequest.ClearAuthenticationHeaders`) once a request is authenticated.
 */
export function clearAuthenticationHeaders(headers: FastifyRequest['headers'], h: AuthenticationHeaders): void {
  for (const n of h.names) delete headers[n];
  if (!h.prefixes.length) return;
  for (const key of Object.keys(headers)) if (h.prefixes.some((p) => key.startsWith(p))) delete headers[key];
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
 * make `X-Remote-Group: a` and `X-Remote-Group: b` one group `a, b`).
 */
function withDistinctValues(req: FastifyRequest, h: AuthenticationHeaders): AuthenticationRequest['headers'] {
  let out: Record<string, string | string[] | undefined> | undefined;
  for (const [name, value] of headerLines(req.raw)) {
    if (!h.names.includes(name) && !h.prefixes.some((p) => name.startsWith(p))) continue;
    out ??= { ...req.headers };
    const prev = out[name];
    if (Array.isArray(prev) && prev !== req.headers[name]) prev.push(value);
    else out[name] = [value];
  }
  return out ?? req.headers;
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
  const frontProxy = authenticator as { readonly authenticationHeaders?: AuthenticationHeaders };
  const proxied = 'authenticationHeaders' in frontProxy;
  const fail = (req: FastifyRequest, err: unknown): ApiError => {
    log?.info(
      { err: err instanceof Error ? err.message : String(err), method: req.method, path: req.requestInfo.path },
      'Unable to authenticate the request',
    );
    return unauthorized();
  };
  const settle = (req: FastifyRequest, response: AuthenticationResponse | null): ApiError | undefined => {
    const headers = proxied ? frontProxy.authenticationHeaders : undefined;
    if (response) {
      req.user = response.user;
      delete req.headers['authorization'];
      if (headers) clearAuthenticationHeaders(req.headers, headers);
      return undefined;
    }
    if (anonymous) {
      req.user = anonymousUser;
      if (headers) clearAuthenticationHeaders(req.headers, headers);
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
      request = new FilterAuthenticationRequest(req, proxied ? frontProxy.authenticationHeaders : undefined);
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
