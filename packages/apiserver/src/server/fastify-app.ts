import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors/api-error.js';
import { clientErrorResponse, frameworkErrorStatus, maxPathParamBytes } from '../errors/framework-errors.js';
import { rewriteRequestTarget } from '../filters/request-info.js';
import { sendStatus } from '../encoding/respond.js';
import { limitedServerFactory, onClientError } from './connection-limits.js';
import type { ConnectionLimits } from './connection-limits.js';
import { parseGoQuery } from '../request/go-query.js';

/**
 * The key pair of an HTTPS listener; HTTP/2 and HTTP/1.1 are offered by ALPN. With `ca` and
 * `requestCert`, clients are asked for a certificate (`--client-ca-file`; verified by the
 * authenticator, so a client without one still connects).
 */
export interface HttpsOptions {
  key: string | Buffer;
  cert: string | Buffer;
  ca?: string | Buffer;
  requestCert?: boolean;
}

/** Options of {@link createFastifyApp}. */
export interface FastifyAppOptions {
  /** Serve HTTPS (HTTP/2 and HTTP/1.1) with this key pair; plain HTTP/1.1 without. */
  readonly https?: HttpsOptions;
  /** The largest request body read. */
  readonly bodyLimit: number;
  /** The longest path segment routed; default `maxPathParamBytes` (32 KiB). */
  readonly maxPathParamBytes?: number;
  /** Connection bounds of the listener (connection-limits.ts). */
  readonly limits?: ConnectionLimits;
}

/**
 * The fastify instance of one server: the request target parsed once (`rewriteUrl`), no
 * per-request logging, fastify's own refusals (router, parser, closing) answered with a Status,
 * and a listener with kube-apiserver's connection bounds. It has no routes and no hooks.
 */
export function createFastifyApp(options: FastifyAppOptions): FastifyInstance {
  const tls = options.https ? serverTLS(options.https) : undefined;
  return Fastify({
    logger: false,
    // One parse of the request target for the router and every filter (filters/request-info.ts).
    rewriteUrl: rewriteRequestTarget,
    bodyLimit: options.bodyLimit,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: options.maxPathParamBytes ?? maxPathParamBytes,
      // The query as kube-apiserver's req.URL.Query() reads it, for every filter and handler.
      querystringParser: parseGoQuery,
    },
    logController: new Fastify.LogController({ disableRequestLogging: true }),
    // A graceful shutdown drains first (gracefulShutdown) and closes the app last, when what is
    // left may be cut; a request that arrives while draining gets a Status 429, not fastify's 503.
    return503OnClosing: false,
    forceCloseConnections: true,
    ...(tls ? { http2: true, https: tls } : {}),
    // The listener fastify would build, with the connection bounds (connection-limits.ts): TLS
    // handshake and header timeouts, unread bodies, HTTP/2 streams per connection, a connection cap.
    serverFactory: limitedServerFactory(options.limits, tls),
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      const apiErr = frameworkErrorStatus(err, req.raw.url ?? '') ?? badRequest(err.message);
      void sendStatus(reply, req, apiErr.code, apiErr.status, apiErr.statusText);
    },
    // Requests Node's parser refuses (headers too large, unknown methods, bad framing) get a Status too.
    // A connection whose TLS handshake failed or timed out is destroyed.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: import('node:net').Socket) =>
      onClientError(err, socket, clientErrorResponse),
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;
}

/**
 * Request bodies are kept as text up to `bodyLimit` whatever their media type: the handlers
 * decode them (JSON, YAML, patches) and answer unsupported media types themselves.
 */
export function installBodyParsers(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const keepText = (_req: FastifyRequest, body: string | Buffer, done: (err: null, body: unknown) => void): void =>
    done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, keepText);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, keepText);
}

/**
 * The TLS options of the listener. The client CA (`ca`) is not given to Node: the authenticator
 * verifies client certificates itself (Go's x509.Verify, with the intermediates the client sends),
 * and with `ca` set Node 24.21's server side reports only the leaf of the presented chain
 * (`getPeerCertificate(true)` has no `issuerCertificate`; seen here, a client sending leaf and
 * intermediate was refused).
 * Without it, the CertificateRequest lists no acceptable CAs, which clients such as kubectl and
 * client-go read as "any certificate".
 */
function serverTLS(https: HttpsOptions): Record<string, unknown> {
  const { ca: _ca, ...rest } = https;
  return { allowHTTP1: true, rejectUnauthorized: false, ...rest };
}
