import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { AuthorizationError } from '../errors.js';
import type { WebhookConnection } from './kubeconfig.js';

/** Where a connection goes: what a dialer is asked for. */
export interface DialTarget {
  readonly host: string;
  readonly port: number;
}

/**
 * The one seam for a webhook's network traffic: opens the byte stream to the webhook's host
 * (kube-apiserver's egress dialer for `controlplane`). TLS, when the URL is `https`, runs over the
 * returned stream. Default: a direct TCP connection.
 */
export type WebhookDialer = (target: DialTarget) => Duplex | Promise<Duplex>;

/** One successful round trip: the HTTP status and the body. */
export interface WebhookResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * POSTs a JSON body to the webhook; one attempt. `headers` are sent as well (a tracer's
 * `traceparent`). An abort of `signal` (the client went away) ends the attempt at once, its
 * connection (or the dial still opening it) destroyed: it rejects with a `WebhookCanceled`
 * error. A wrapper passes `signal` on. @throws AuthorizationError on transport failures,
 * timeouts and aborts.
 */
export type WebhookTransport = (
  body: string,
  headers?: Readonly<Record<string, string>>,
  signal?: AbortSignal,
) => Promise<WebhookResponse>;

/** Go's `*url.Error` text of a request whose context was canceled. */
export function canceledError(server: string, cause?: unknown): AuthorizationError {
  return new AuthorizationError('WebhookCanceled', `Post ${JSON.stringify(server)}: context canceled`, {
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Options of {@link webhookTransport}. */
export interface WebhookTransportOptions {
  /** Per-attempt limit covering the whole exchange, body included. */
  readonly timeoutMs: number;
  readonly dial?: WebhookDialer;
  /** Largest answer read (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

const tokenRereadMs = 60_000;

/**
 * A transport over node:https (node:http for an `http://` server) with keep-alive connections,
 * the connection's TLS material, bearer token and dialer.
 */
export function webhookTransport(conn: WebhookConnection, o: WebhookTransportOptions): WebhookTransport {
  const url = new URL(conn.server);
  const https = url.protocol === 'https:';
  const tls: ConnectionOptions = {
    ...(conn.ca !== undefined ? { ca: conn.ca } : {}),
    ...(conn.clientCertificate !== undefined ? { cert: conn.clientCertificate, key: conn.clientKey } : {}),
    rejectUnauthorized: !conn.insecureSkipTLSVerify,
    ...(conn.tlsServerName ? { servername: conn.tlsServerName } : {}),
  };
  const dial = o.dial;
  const agentOptions = { keepAlive: true, maxSockets: 64, ...(https ? tls : {}) };
  const agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  if (dial) {
    const target = (opts: { host?: string | null; port?: number | string | null }): DialTarget => ({
      host: opts.host ?? url.hostname,
      port: Number(opts.port || url.port || (https ? 443 : 80)),
    });
    // The callback form of createConnection: an egress dialer opens its tunnel asynchronously.
    (agent as unknown as { createConnection: unknown }).createConnection = (
      opts: ConnectionOptions & { host?: string; port?: number },
      cb: (err: Error | null, socket?: Duplex) => void,
    ): undefined => {
      Promise.resolve()
        .then(() => dial(target(opts)))
        .then(
          (raw) => cb(null, https ? tlsConnect({ ...opts, ...tls, socket: raw }) : raw),
          (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))),
        );
      return undefined;
    };
  }
  let token = conn.token;
  let tokenReadAt = 0;
  const bearer = (): string | undefined => {
    if (conn.tokenFile && Date.now() - tokenReadAt > tokenRereadMs) {
      try {
        token = readFileSync(conn.tokenFile, 'utf8').trim();
        tokenReadAt = Date.now();
      } catch (e) {
        if (token === undefined)
          throw new AuthorizationError('InvalidConnection', `tokenFile ${conn.tokenFile}: ${(e as Error).message}`);
      }
    }
    return token;
  };
  const maxBody = o.maxBodyBytes ?? 4 << 20;
  const send = https ? httpsRequest : httpRequest;
  const post = `Post ${JSON.stringify(conn.server)}`;
  return (body, extra, signal) =>
    new Promise<WebhookResponse>((resolvePromise, reject) => {
      if (signal?.aborted) return reject(canceledError(conn.server, signal.reason));
      const t = bearer();
      let timedOut = false;
      let canceled = false;
      const req = send(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            ...extra,
            'content-type': 'application/json',
            accept: 'application/json, */*',
            'user-agent': 'kevents-apiserver',
            'content-length': Buffer.byteLength(body),
            ...(t ? { authorization: `Bearer ${t}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBody) req.destroy(new Error(`response body larger than ${maxBody} bytes`));
            else chunks.push(c);
          });
          res.on('end', () => {
            settle();
            resolvePromise({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', () => undefined); // reported through req's error
        },
      );
      const timeout = (cause?: unknown): AuthorizationError =>
        new AuthorizationError(
          'WebhookTimeout',
          `${post}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
          { retriable: true, cause },
        );
      const timer = setTimeout(() => {
        timedOut = true;
        signal?.removeEventListener('abort', onAbort);
        // A request still waiting for its connection (an egress dial in progress) emits its error
        // only once the connection exists: the timeout is the answer now, whatever comes later.
        reject(timeout());
        req.destroy();
      }, o.timeoutMs);
      // The client went away: the same as the timeout, at once, and never retried.
      const onAbort = (): void => {
        canceled = true;
        clearTimeout(timer);
        reject(canceledError(conn.server, signal?.reason));
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      req.on('error', (e: NodeJS.ErrnoException) => {
        settle();
        if (canceled) {
          reject(canceledError(conn.server, e));
          return;
        }
        if (timedOut) {
          reject(timeout(e));
          return;
        }
        // DefaultShouldRetry: a connection reset is retried; other transport errors are not.
        const reset = e.code === 'ECONNRESET' || e.code === 'EPIPE' || /socket hang up/.test(e.message);
        reject(
          new AuthorizationError('WebhookCallFailed', `${post}: ${e.message || e.code}`, {
            retriable: reset,
            cause: e,
          }),
        );
      });
      req.end(body);
    });
}
