import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions } from 'node:tls';
import { dialDeadline, joinHostPort } from './dialer.js';
import type { DialAddress, DialOptions, EgressDialer } from './dialer.js';
import { EgressDialError, goDialError } from './errors.js';
import type { EgressDialerMetrics } from './metrics.js';
import { openSocket } from './socket.js';

/** Go's `http.DefaultMaxHeaderBytes`: the most a CONNECT answer may take before its blank line. */
const maxHeaderBytes = 1 << 20;

/** Where an `HTTPConnect` proxy listens. */
export type HttpConnectTransport =
  /** `transport.tcp`: TLS (mTLS) to `host:port` of an `https://` URL, or plain TCP for `http://`. */
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number; readonly tls?: ConnectionOptions }
  /** `transport.uds`: a Unix socket, no TLS. */
  | { readonly kind: 'uds'; readonly path: string };

/**
 * `HTTPConnect`: a new proxy connection per dial, the exact CONNECT exchange of kube-apiserver
 * (`CONNECT <addr> HTTP/1.1`, `Host: 127.0.0.1`), then the raw tunnel is handed to the caller.
 */
export class HttpConnectDialer implements EgressDialer {
  readonly selection: string;
  readonly protocol = 'HTTPConnect' as const;
  readonly proxy: string;
  readonly #transport: HttpConnectTransport;
  readonly #metrics: EgressDialerMetrics | undefined;

  constructor(selection: string, transport: HttpConnectTransport, metrics?: EgressDialerMetrics) {
    this.selection = selection;
    this.#transport = transport;
    this.proxy = transport.kind === 'uds' ? transport.path : joinHostPort(transport.host, transport.port);
    this.#metrics = metrics;
  }

  async dial(address: DialAddress, options?: DialOptions): Promise<Duplex> {
    const labels = { protocol: 'http_connect', transport: this.#transport.kind } as const;
    const start = performance.now();
    this.#metrics?.starts.inc(labels);
    const deadline = dialDeadline(options);
    const addr = joinHostPort(address.host, address.port);
    const fail = (e: EgressDialError): never => {
      this.#metrics?.failures.inc({ ...labels, stage: e.stage });
      throw e;
    };
    try {
      let socket: Socket;
      const t = this.#transport;
      try {
        socket =
          t.kind === 'uds'
            ? await openSocket({ path: t.path }, deadline.signal)
            : await openSocket({ host: t.host, port: t.port }, deadline.signal, t.tls);
      } catch (e) {
        const network = t.kind === 'uds' ? 'unix' : 'tcp';
        const text = deadline.signal.aborted && !deadline.timedOut() ? 'operation was canceled' : undefined;
        return fail(
          new EgressDialError(
            'ProxyUnreachable',
            text ? `dial ${network} ${this.proxy}: ${text}` : goDialError(network, this.proxy, e),
            {
              selection: this.selection,
              proxy: this.proxy,
              stage: 'connect',
              cause: e,
            },
          ),
        );
      }
      try {
        await connectExchange(socket, this.proxy, addr, deadline.signal);
      } catch (e) {
        socket.destroy();
        return fail(
          e instanceof EgressDialError
            ? new EgressDialError(e.code, e.message, { selection: this.selection, proxy: this.proxy, stage: 'proxy' })
            : new EgressDialError('ProxyResponse', String(e), {
                selection: this.selection,
                proxy: this.proxy,
                stage: 'proxy',
              }),
        );
      }
      this.#metrics?.latencies.observe(labels, (performance.now() - start) / 1000);
      return socket;
    } finally {
      deadline.done();
    }
  }
}

/**
 * Sends `CONNECT <addr> HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n` and reads one HTTP answer; resolves
 * on 200 with nothing buffered after it, leaving the socket paused with no listeners.
 */
export function connectExchange(socket: Socket, proxy: string, addr: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const readFailed = (why: string): EgressDialError =>
      new EgressDialError(
        'ProxyResponse',
        `reading HTTP response from CONNECT to ${addr} via proxy ${proxy} failed: ${why}`,
        { selection: '', proxy, stage: 'proxy' },
      );
    const cleanup = (): void => {
      socket.removeListener('readable', onReadable);
      socket.removeListener('end', onEnd);
      socket.removeListener('close', onEnd);
      socket.removeListener('error', onError);
      signal.removeEventListener('abort', onAbort);
    };
    const settle = (e?: Error): void => {
      cleanup();
      if (e) reject(e);
      else resolve();
    };
    // Where the search for the blank line resumes: the bytes before it were searched already (the
    // last 3 are searched again, as the blank line may straddle two reads). Each byte is searched
    // once and the chunks are joined once, when the blank line is in: a proxy sending its answer
    // in many small reads cost time quadratic in its length (1 MiB in 2 KiB reads: ~1.2 s of CPU).
    let searched = 0;
    let end = -1;
    const onReadable = (): void => {
      let chunk: Buffer | null;
      while ((chunk = socket.read() as Buffer | null) !== null) {
        if (end < 0) {
          const from = Math.max(0, searched - 3);
          const tail = chunks.length && from < searched ? tailBytes(chunks, searched - from) : undefined;
          const at = (tail ? Buffer.concat([tail, chunk]) : chunk).indexOf('\r\n\r\n');
          if (at >= 0) end = from + at;
          searched += chunk.length;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      if (end < 0) {
        if (size >= maxHeaderBytes) settle(readFailed('EOF'));
        return;
      }
      const all = Buffer.concat(chunks);
      const head = all.subarray(0, Math.min(end, maxHeaderBytes)).toString('latin1');
      const statusLine = head.split('\r\n', 1)[0] ?? '';
      const m = /^HTTP\/(\d)\.(\d) (\d{3})(?: (.*))?$/.exec(statusLine);
      if (!m) {
        settle(readFailed(`malformed HTTP response ${JSON.stringify(statusLine)}`));
        return;
      }
      const code = Number(m[3]);
      const status = `${m[3]} ${m[4] ?? ''}`.trimEnd();
      if (code !== 200) {
        settle(
          new EgressDialError(
            'ProxyRefused',
            `proxy error from ${proxy} while dialing ${addr}, code ${code}: ${status}`,
            {
              selection: '',
              proxy,
              stage: 'proxy',
            },
          ),
        );
        return;
      }
      const extra = all.length - (end + 4);
      if (extra > 0) {
        settle(
          new EgressDialError(
            'ProxyBufferedData',
            `unexpected ${extra} bytes of buffered data from CONNECT proxy ${JSON.stringify(proxy)}`,
            { selection: '', proxy, stage: 'proxy' },
          ),
        );
        return;
      }
      settle();
    };
    const onEnd = (): void => settle(readFailed(size > 0 ? 'unexpected EOF' : 'EOF'));
    const onError = (e: Error): void => settle(readFailed(e.message));
    const onAbort = (): void => settle(readFailed('context deadline exceeded'));
    socket.on('readable', onReadable);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.write(`CONNECT ${addr} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

/** The last `n` bytes of the chunks (n at most 3 here). */
function tailBytes(chunks: readonly Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  for (let i = chunks.length - 1; i >= 0 && n > 0; i--) {
    const c = chunks[i]!;
    const take = Math.min(n, c.length);
    out.unshift(c.subarray(c.length - take));
    n -= take;
  }
  return Buffer.concat(out);
}
