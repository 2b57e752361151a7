import { Agent as HttpAgent } from 'node:http';
import type { AgentOptions as HttpAgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AgentOptions as HttpsAgentOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { Agent as UndiciAgent } from 'undici';
import type { EgressDialer } from './dialer.js';

type Callback = (err: Error | null, socket?: Duplex) => void;
type AgentConnectOptions = { host?: string | null; hostname?: string | null; port?: number | string | null };

function target(o: AgentConnectOptions, defaultPort: number): { host: string; port: number } {
  const host = (o.hostname ?? o.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(o.port || defaultPort) };
}

/**
 * A node:http Agent whose connections are dialed through an egress dialer (plain HTTP over the
 * tunnel). Pass as `agent` to `http.request`.
 */
export class EgressHttpAgent extends HttpAgent {
  readonly #dialer: EgressDialer;
  constructor(dialer: EgressDialer, options?: HttpAgentOptions) {
    super(options);
    this.#dialer = dialer;
  }
  override createConnection(options: AgentConnectOptions, cb: Callback): undefined {
    this.#dialer.dial(target(options, 80)).then((s) => cb(null, s), cb);
    return undefined;
  }
}

/**
 * A node:https Agent whose connections are dialed through an egress dialer, then TLS to the
 * destination inside the tunnel with the request's own TLS options (`ca`, `servername`, ...).
 */
export class EgressHttpsAgent extends HttpsAgent {
  readonly #dialer: EgressDialer;
  constructor(dialer: EgressDialer, options?: HttpsAgentOptions) {
    super(options);
    this.#dialer = dialer;
  }
  override createConnection(options: AgentConnectOptions & ConnectionOptions, cb: Callback): undefined {
    this.#dialer.dial(target(options, 443)).then((raw) => cb(null, tlsConnect({ ...options, socket: raw })), cb);
    return undefined;
  }
}

/** undici's `connect` option: the options undici passes, and its callback. */
export type UndiciConnectOptions = {
  hostname: string;
  host?: string;
  protocol: string;
  port: string;
  servername?: string;
};

/**
 * A `connect` function for undici (`new Agent({ connect })`, `new Client(url, { connect })`):
 * dials through the egress dialer and, for `https:`, speaks TLS inside the tunnel with `tls`
 * (the caller's trust: `ca`, client certificate) and the destination as server name.
 */
export function undiciConnector(
  dialer: EgressDialer,
  tls: ConnectionOptions = {},
): (opts: UndiciConnectOptions, cb: (err: Error | null, socket: Socket | null) => void) => void {
  return (opts, cb) => {
    const https = opts.protocol === 'https:';
    const { host, port } = target({ hostname: opts.hostname, port: opts.port }, https ? 443 : 80);
    dialer.dial({ host, port }).then(
      (raw) => {
        if (!https) {
          cb(null, raw as Socket);
          return;
        }
        const servername = opts.servername ?? tls.servername ?? (isIP(host) ? undefined : host);
        const s = tlsConnect({
          ALPNProtocols: ['http/1.1'],
          ...tls,
          host,
          ...(servername ? { servername } : {}),
          socket: raw,
        });
        const onError = (e: Error): void => {
          s.destroy();
          cb(e, null);
        };
        s.once('error', onError);
        s.once('secureConnect', () => {
          s.removeListener('error', onError);
          cb(null, s);
        });
      },
      (e: Error) => cb(e, null),
    );
  };
}

/**
 * An undici Dispatcher dialing through the egress dialer: pass it as `dispatcher` to undici's
 * `fetch` / `request` (what jose's and other fetch-based clients take).
 */
export function egressDispatcher(dialer: EgressDialer, tls: ConnectionOptions = {}): UndiciAgent {
  return new UndiciAgent({ connect: undiciConnector(dialer, tls) as never });
}
