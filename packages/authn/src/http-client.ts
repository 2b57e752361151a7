import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

/** What an issuer's server answered: status, headers (names lower-cased) and body text. */
export interface IssuerHttpResponse {
  readonly status: number;
  /** Go's `resp.Status`: `404 Not Found`. */
  readonly statusLine: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/**
 * The one way an issuer's traffic leaves the process (discovery, JWKS, distributed claims): a GET
 * of a URL. kube-apiserver builds one HTTP client per `jwt[]` entry, with `certificateAuthority` as
 * its only trust and the egress dialer of `issuer.egressSelectorType`; this is that client. The
 * egress selector fills it through {@link IssuerHttpClientOptions.dial}, or replaces it whole.
 */
export type IssuerHttpClient = (
  url: string,
  init?: { readonly headers?: Readonly<Record<string, string>>; readonly signal?: AbortSignal },
) => Promise<IssuerHttpResponse>;

/** Options of {@link issuerHttpClient}. */
export interface IssuerHttpClientOptions {
  /** PEM bundle trusted for HTTPS instead of the system roots (`issuer.certificateAuthority`). */
  readonly ca?: string;
  /** Whole-request limit, as the Go client's `Timeout`; default 30 s. */
  readonly timeoutMs?: number;
  /** Largest body read; default 4 MiB (a larger answer is an error). */
  readonly maxBodyBytes?: number;
  /**
   * The dialer: opens the raw connection for a request (the egress selector's tunnel, as Go's
   * `DialContext`); for `https:` the client speaks TLS inside it with {@link ca}. The signal ends
   * with the request (its timeout or the caller's signal). Default: a direct TCP connection.
   */
  readonly dial?: (
    address: { host: string; port: number },
    options: { signal: AbortSignal },
  ) => Duplex | Promise<Duplex>;
}

const statusTexts: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** An {@link IssuerHttpClient} over node:https (and node:http for `http://` claim sources). */
export function issuerHttpClient(options: IssuerHttpClientOptions = {}): IssuerHttpClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBody = options.maxBodyBytes ?? 4 << 20;
  return (url, init = {}) =>
    new Promise<IssuerHttpResponse>((resolve, reject) => {
      const u = new URL(url);
      const send = u.protocol === 'http:' ? httpRequest : httpsRequest;
      const dial = options.dial;
      const dialAbort = new AbortController();
      if (init.signal) {
        if (init.signal.aborted) dialAbort.abort();
        else init.signal.addEventListener('abort', () => dialAbort.abort(), { once: true });
      }
      const req = send(
        u,
        {
          method: 'GET',
          headers: { 'user-agent': 'kevents-apiserver', ...(init.headers ?? {}) },
          ...(options.ca !== undefined && u.protocol === 'https:' ? { ca: options.ca } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
          ...(dial
            ? {
                createConnection: (_o: unknown, cb: (err: Error | null, socket?: Duplex) => void): undefined => {
                  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
                  const port = Number(u.port || (u.protocol === 'http:' ? 80 : 443));
                  Promise.resolve(dial({ host, port }, { signal: dialAbort.signal })).then((raw) => {
                    if (u.protocol !== 'https:') return cb(null, raw);
                    const servername = isIP(host) ? undefined : host;
                    cb(
                      null,
                      tlsConnect({
                        socket: raw,
                        host,
                        ...(servername ? { servername } : {}),
                        ...(options.ca !== undefined ? { ca: options.ca } : {}),
                        ALPNProtocols: ['http/1.1'],
                      }),
                    );
                  }, cb);
                  return undefined;
                },
              }
            : {}),
        } as Parameters<typeof httpsRequest>[1],
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBody) {
              req.destroy(new Error(`response body of ${url} is larger than ${maxBody} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(timer);
            const status = res.statusCode ?? 0;
            const headers: Record<string, string | undefined> = {};
            for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({
              status,
              statusLine: `${status} ${res.statusMessage || statusTexts[status] || ''}`.trimEnd(),
              headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', (e) => {
            clearTimeout(timer);
            reject(e);
          });
        },
      );
      const timer = setTimeout(() => {
        // The client's timeout is the error, whatever the aborted dial or request report after it.
        reject(new Error(`Get ${JSON.stringify(url)}: context deadline exceeded (Client.Timeout exceeded)`));
        dialAbort.abort();
        req.destroy();
      }, timeoutMs);
      timer.unref();
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(new Error(`Get ${JSON.stringify(url)}: ${e.message}`, { cause: e }));
      });
      req.end();
    });
}
