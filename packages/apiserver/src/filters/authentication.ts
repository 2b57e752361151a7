import type { TLSSocket } from 'node:tls';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors/api-error.js';
import type { ApiError } from '../errors/api-error.js';
import { anonymousUser } from '@kevents/api';
import type { AuthenticationResponse, Authenticator, UserInfo } from '@kevents/api';

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

/** The decoded path (kube-apiserver's `URL.Path`), for exact matches such as anonymous conditions. */
function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
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
  const fail = (req: FastifyRequest, err: unknown): ApiError => {
    log?.info(
      { err: err instanceof Error ? err.message : String(err), method: req.method, path: req.requestInfo.path },
      'Unable to authenticate the request',
    );
    return unauthorized();
  };
  const settle = (req: FastifyRequest, response: AuthenticationResponse | null): ApiError | undefined => {
    if (response) {
      req.user = response.user;
      delete req.headers['authorization'];
      return undefined;
    }
    if (anonymous) {
      req.user = anonymousUser;
      return undefined;
    }
    log?.info({ method: req.method, path: req.requestInfo.path }, 'Unable to authenticate the request: no credentials');
    return unauthorized();
  };
  // Callback style: an answer the authenticator has at once (a cached token) costs no promise.
  app.addHook('onRequest', (req, _reply, done) => {
    let answer;
    try {
      const certs = clientCertificates(req);
      answer = authenticator.authenticate({
        headers: req.headers,
        method: req.method,
        path: decodedPath(req.requestInfo.path),
        ...(certs.length ? { clientCertificates: certs } : {}),
      });
    } catch (err) {
      done(fail(req, err));
      return;
    }
    if (answer instanceof Promise)
      answer.then(
        (response) => done(settle(req, response)),
        (err: unknown) => done(fail(req, err)),
      );
    else done(settle(req, answer));
  });
}
