import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse, SecureServerOptions } from 'node:http2';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/**
 * How long a client may take to finish its TLS handshake, and to send the request line and
 * headers of each HTTP/1.1 request, in milliseconds: kube-apiserver's `ReadHeaderTimeout`
 * (32 s, "just shy of requestTimeoutUpperBound", staging/src/k8s.io/apiserver/pkg/server/
 * secure_serving.go). Go's net/http bounds the TLS handshake by the smallest of
 * ReadHeaderTimeout, ReadTimeout and WriteTimeout (`Server.tlsHandshakeTimeout`), and
 * kube-apiserver sets only the first, so its handshake bound is 32 s too.
 */
export const readHeaderTimeoutMs = 32_000;

/**
 * The longest a request (line, headers and body) may take to arrive, in milliseconds: the
 * default of kube-apiserver's `--request-timeout` (1m0s). A watch's request is complete once
 * its headers are in, so watches are not cut by it.
 */
export const defaultRequestTimeoutMs = 60_000;

/**
 * A request body left unread by its handler is drained (so the connection can serve the next
 * request) only up to this many bytes; past it (or when its length is unknown) the answer says
 * `Connection: close` and the connection is closed: Go's net/http `maxPostHandlerReadBytes`
 * (256 KiB), which kube-apiserver inherits. A client that announces a large body and drips it
 * after its 401, 403 or 413 is cut at once.
 */
export const maxUnreadRequestBodyBytes = 256 * 1024;

/**
 * Concurrent HTTP/2 streams per connection when `--http2-max-streams-per-connection` is 0:
 * kube-apiserver's default (secure_serving.go: "match http2.initialMaxConcurrentStreams used by
 * clients", 100, since the HTTP/2 rapid-reset fixes; Go's own default was 250).
 */
export const defaultHttp2MaxStreamsPerConnection = 100;

/**
 * Concurrent connections per listener (`--max-connections`): past it, a new connection is
 * closed as soon as it is accepted. kube-apiserver has no such cap (Go's net/http has none);
 * this one keeps a flood of idle or handshaking connections from exhausting file descriptors
 * and memory.
 */
export const defaultMaxConnections = 10_000;

/**
 * How long a connection the server closes after an answer (an unread body, a refused request)
 * keeps reading and discarding what the client still sends, so that the client reads the
 * answer before the connection is reset: Go's `rstAvoidanceDelay` (500 ms).
 */
export const lingerMs = 500;

/**
 * The HTTP/2 SETTINGS the secure port advertises, and the session bounds: MAX_CONCURRENT_STREAMS
 * from `--http2-max-streams-per-connection`; INITIAL_WINDOW_SIZE stays Node's 65,535 bytes (so
 * an unread request body holds at most that much per stream; kube-apiserver allows 256 KiB);
 * `maxSessionMemory` is Node's 10 MB: once a session's buffered frames and queued output pass
 * it, new streams on it are refused (streams already open are bounded by the watch budget).
 */
const http2SessionMemoryMB = 10;

/** Connection and request bounds of a listener (see the constants of this module for each default). */
export interface ConnectionLimits {
  /** Concurrent connections per listener; 0 for no cap. Default {@link defaultMaxConnections}. */
  readonly maxConnections?: number;
  /** MAX_CONCURRENT_STREAMS of the secure port's HTTP/2 connections; 0 for the default ({@link defaultHttp2MaxStreamsPerConnection}). */
  readonly http2MaxStreamsPerConnection?: number;
  /** TLS handshake bound. Default {@link readHeaderTimeoutMs}. */
  readonly tlsHandshakeTimeoutMs?: number;
  /** HTTP/1.1 request line and headers bound. Default {@link readHeaderTimeoutMs}. */
  readonly headersTimeoutMs?: number;
  /** HTTP/1.1 whole-request bound (0: none). Default {@link defaultRequestTimeoutMs}. */
  readonly requestTimeoutMs?: number;
}

/** {@link ConnectionLimits} with every default applied. */
export interface ResolvedConnectionLimits {
  readonly maxConnections: number;
  readonly http2MaxStreamsPerConnection: number;
  readonly tlsHandshakeTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/** The limits in force for `limits` (defaults filled in). */
export function resolveConnectionLimits(limits: ConnectionLimits = {}): ResolvedConnectionLimits {
  const requestTimeoutMs = limits.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const headersTimeoutMs = limits.headersTimeoutMs ?? readHeaderTimeoutMs;
  return {
    maxConnections: limits.maxConnections ?? defaultMaxConnections,
    http2MaxStreamsPerConnection: limits.http2MaxStreamsPerConnection || defaultHttp2MaxStreamsPerConnection,
    tlsHandshakeTimeoutMs: limits.tlsHandshakeTimeoutMs ?? readHeaderTimeoutMs,
    // The headers are part of the request (Node refuses a header bound past the request bound).
    headersTimeoutMs: requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs,
    requestTimeoutMs,
  };
}

/** Node's HTTP/1 server options for the bounds: the timeouts are checked every `connectionsCheckingInterval`. */
function http1Options(l: ResolvedConnectionLimits): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const shortest = l.requestTimeoutMs > 0 ? Math.min(l.headersTimeoutMs, l.requestTimeoutMs) : l.headersTimeoutMs;
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    // Node checks the timeouts of all connections every 30 s by default, so a 32 s bound would
    // be enforced anywhere up to 62 s: check 8 times per bound (at most every 5 s).
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(shortest / 8))),
  };
}

type RequestHandler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/** What fastify hands its `serverFactory`: the options it was built with (the parts the server needs). */
interface FactoryOptions {
  readonly keepAliveTimeout?: number;
  readonly connectionTimeout?: number;
  readonly http2SessionTimeout?: number;
}

/**
 * A fastify `serverFactory` building the listener as fastify would (HTTPS with HTTP/2 and
 * HTTP/1.1 by ALPN, or plain HTTP/1.1), with the bounds of `limits`:
 *
 * - a TLS handshake that does not finish within `tlsHandshakeTimeoutMs` (a client that sends
 *   no ClientHello) closes the connection;
 * - HTTP/1.1 request headers must arrive within `headersTimeoutMs`, the whole request within
 *   `requestTimeoutMs` (Node answers 408 and the connection is closed);
 * - a request body the handler left unread past {@link maxUnreadRequestBodyBytes} closes the
 *   connection after the answer (Go's `maxPostHandlerReadBytes`); over HTTP/2, Node resets
 *   such a stream (NO_ERROR) once the answer is sent, as Go does;
 * - HTTP/2 connections advertise MAX_CONCURRENT_STREAMS; a stream past it that crosses the
 *   SETTINGS on the wire is refused (RST_STREAM REFUSED_STREAM); a client that acknowledged the
 *   SETTINGS and still opens more loses the connection (nghttp2 makes it a connection error,
 *   GOAWAY PROTOCOL_ERROR, where Go resets the stream);
 * - at most `maxConnections` connections at once (Node's `server.maxConnections`: the ones past
 *   it are closed on accept).
 */
export function limitedServerFactory(
  limits: ConnectionLimits | undefined,
  https: SecureServerOptions | undefined,
): (handler: RequestHandler, options: FactoryOptions) => HttpServer | Http2SecureServer {
  const l = resolveConnectionLimits(limits);
  return (handler, options) => {
    const guarded: RequestHandler = (req, res) => {
      if (req.httpVersionMajor !== 1) {
        destroyOnAbort(req as Http2ServerRequest);
        handler(req, res);
        return;
      }
      closeOnUnreadBody(req as IncomingMessage, res as ServerResponse);
      // A pipelined request waits for the answers before it, as Go serves one at a time: Node
      // parses them all at once and would run every handler, each answer held in memory.
      if ((res as ServerResponse).socket === null) (res as ServerResponse).once('socket', () => handler(req, res));
      else handler(req, res);
    };
    let server: HttpServer | Http2SecureServer;
    if (https) {
      const secure = createSecureServer(
        {
          ...https,
          ...http1Options(l),
          handshakeTimeout: l.tlsHandshakeTimeoutMs,
          maxSessionMemory: http2SessionMemoryMB,
          settings: { ...https.settings, maxConcurrentStreams: l.http2MaxStreamsPerConnection },
        },
        guarded,
      );
      // As fastify does: an idle session is closed (gracefully) after http2SessionTimeout.
      const idle = options.http2SessionTimeout ?? 72_000;
      secure.on('session', (session) => session.setTimeout(idle, () => session.close()));
      secure.setTimeout(options.connectionTimeout ?? 0);
      server = secure;
    } else {
      const plain = createHttpServer(
        { ...http1Options(l), keepAliveTimeout: options.keepAliveTimeout ?? 72_000 },
        guarded as (req: IncomingMessage, res: ServerResponse) => void,
      );
      plain.setTimeout(options.connectionTimeout ?? 0);
      server = plain;
    }
    if (l.maxConnections > 0) server.maxConnections = l.maxConnections;
    return server;
  };
}

/**
 * Destroys an HTTP/2 request's stream once the client aborted it. A stream the client closed
 * with NO_ERROR while its answer was still being written (its window full, as with a client that
 * stopped reading) is otherwise never destroyed by Node: its response never closes, the handler's
 * stream waits for a 'drain' that cannot come, and the request stays in flight (kube's server
 * frees a reset stream's handler).
 */
function destroyOnAbort(req: Http2ServerRequest): void {
  req.stream.once('aborted', destroyStream);
}

function destroyStream(this: Http2ServerRequest['stream']): void {
  if (!this.destroyed) this.destroy();
}

/**
 * The answer to an HTTP/1.1 request whose body the handler has not read closes the connection
 * when more than {@link maxUnreadRequestBodyBytes} of it would have to be drained (or its length
 * is unknown), as Go's net/http does; a smaller leftover is drained by Node and the connection
 * kept (the request timeout bounds how long that may take).
 */
function closeOnUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || Number(length) <= maxUnreadRequestBodyBytes)) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.complete) {
      // Go counts what the handler has not read; here a body not yet complete is taken as all
      // unread (closing a connection is always safe: the client opens another).
      this.setHeader('Connection', 'close');
      lingerOnClose(req.socket);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * Makes Node's close after a `Connection: close` answer (`socket.destroySoon()`: end, then
 * destroy once the end is written) linger: the socket is ended, keeps reading (and discarding)
 * for {@link lingerMs}, then is destroyed, so a client still sending its body reads the answer
 * before a reset (Go's closeWriteAndWait).
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    setTimeout(() => this.destroy(), lingerMs).unref();
  };
}

/**
 * fastify's `clientErrorHandler`: a request Node's parser refused or timed out gets `answer(err)`
 * (a Status) and the connection is closed after {@link lingerMs} (a client that neither reads nor
 * closes does not keep it); a connection whose TLS handshake failed or timed out (no ClientHello)
 * is destroyed at once: nothing can be written to it.
 */
export function onClientError(
  err: NodeJS.ErrnoException,
  socket: Socket,
  answer: (err: NodeJS.ErrnoException) => string,
): void {
  if (socket.destroyed) return;
  const handshaking =
    socket instanceof TLSSocket && (socket as { alpnProtocol: string | false | null }).alpnProtocol === null;
  if (err.code === 'ECONNRESET' || handshaking || /^ERR_(TLS|SSL)_/.test(err.code ?? '')) {
    socket.destroy();
    return;
  }
  if (!socket.writable) {
    socket.destroy(err);
    return;
  }
  socket.end(answer(err));
  setTimeout(() => socket.destroy(), lingerMs).unref();
}
