import { randomBytes } from 'node:crypto';
import { connect as netConnect } from 'node:net';
import { Duplex } from 'node:stream';
import { credentials, status as grpcStatus } from '@grpc/grpc-js';
import type { Client, ClientDuplexStream, ServiceError } from '@grpc/grpc-js';
import { EgressDialError, goErrnoText } from '../errors.js';
import type { EgressErrorCode } from '../errors.js';
import type {
  KonnectivityClientMetrics,
  KonnectivityConnectionStatus,
  KonnectivityDialFailureReason,
} from '../metrics.js';
import { proxyServiceClient } from './proto.js';
import type { Packet, PacketType } from './proto.js';

/** The konnectivity client's timeouts (milliseconds); tests shorten them. */
export interface KonnectivityTimeouts {
  /** Connecting the gRPC channel to the socket: 30 s (`grpc.WithTimeout`). */
  readonly connectMs?: number;
  /** Waiting for DIAL_RSP: 30 s backstop. */
  readonly dialMs?: number;
  /** A queued DATA chunk the reader does not take: 10 s, then the tunnel is torn down. */
  readonly readMs?: number;
  /** Waiting for CLOSE_RSP after CLOSE_REQ: 10 s. */
  readonly closeMs?: number;
}

/** Who the tunnel belongs to, for errors and metrics. */
export interface KonnectivityDialContext {
  readonly selection: string;
  readonly udsName: string;
  readonly signal: AbortSignal;
  readonly metrics?: KonnectivityClientMetrics;
  readonly timeouts?: KonnectivityTimeouts;
}

type Stream = ClientDuplexStream<Packet, Packet>;

/** Go's text for why a Unix socket cannot be connected (a probe made only after a failure). */
function probeUds(path: string): Promise<string> {
  return new Promise((resolve) => {
    const s = netConnect({ path });
    s.once('connect', () => {
      s.destroy();
      resolve('the server did not speak gRPC');
    });
    s.once('error', (e) => resolve(`connect: ${goErrnoText(e)}`));
  });
}

/**
 * One single-use konnectivity tunnel (`CreateSingleUseGrpcTunnel` + `DialContext`): a new
 * insecure gRPC channel to the Unix socket, the `/ProxyService/Proxy` stream, one DIAL_REQ
 * matched by `random`, then a {@link KonnectivityConnection} carrying DATA for its connectID.
 * @throws EgressDialError with stage `connect` (the channel) or `proxy` (the dial exchange).
 */
export async function dialKonnectivity(ctx: KonnectivityDialContext, address: string): Promise<KonnectivityConnection> {
  const t = ctx.timeouts ?? {};
  const ProxyService = proxyServiceClient();
  const client = new ProxyService(`unix:${ctx.udsName}`, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
  });
  const fail = (code: EgressErrorCode, message: string, stage: 'connect' | 'proxy', cause?: unknown): EgressDialError =>
    new EgressDialError(code, message, { selection: ctx.selection, proxy: ctx.udsName, stage, cause });

  // Block until connected (grpc.WithBlock), 30 s or the caller's deadline.
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(new Error('context canceled'));
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      client.waitForReady(Date.now() + (t.connectMs ?? 30_000), (e) => {
        ctx.signal.removeEventListener('abort', onAbort);
        if (e) reject(new Error('context deadline exceeded'));
        else resolve();
      });
    });
  } catch (e) {
    client.close();
    const why = await probeUds(ctx.udsName);
    throw fail(
      'ProxyUnreachable',
      `${(e as Error).message}: connection error: desc = "transport: Error while dialing: dial unix ${ctx.udsName}: ${why}"`,
      'connect',
      e,
    );
  }

  const tunnel = new KonnectivityTunnel(client, ctx);
  return tunnel.dial(address, fail);
}

class KonnectivityTunnel {
  readonly #client: Client;
  readonly #stream: Stream;
  readonly #ctx: KonnectivityDialContext;
  #status: KonnectivityConnectionStatus | undefined;
  #closed = false;
  #pending:
    | {
        random: string;
        resolve: (connectID: string) => void;
        reject: (e: { text: string; reason: KonnectivityDialFailureReason }) => void;
      }
    | undefined;
  #conn: KonnectivityConnection | undefined;
  #started = false;

  constructor(client: Client, ctx: KonnectivityDialContext) {
    this.#client = client;
    this.#ctx = ctx;
    this.#setStatus('created');
    const rpc = (client as unknown as { Proxy(): Stream }).Proxy.bind(client);
    this.#stream = rpc();
    this.#stream.on('data', (p: Packet) => this.#receive(p));
    this.#stream.on('error', (e: ServiceError) => {
      if (e.code !== grpcStatus.CANCELLED)
        ctx.metrics?.streamErrors.inc({
          segment: 'to_client',
          code: grpcStatus[e.code] ?? String(e.code),
          packet_type: 'Unknown',
        });
      this.close();
    });
    this.#stream.on('end', () => this.close());
  }

  #setStatus(s: KonnectivityConnectionStatus | undefined): void {
    const m = this.#ctx.metrics?.connections;
    if (this.#status) m?.dec({ status: this.#status });
    if (s) m?.inc({ status: s });
    this.#status = s;
  }

  /** Sends one packet (counted as `from_client`); false when the tunnel is already gone. */
  send(p: Packet & { type: PacketType }): boolean {
    if (this.#closed) return false;
    this.#ctx.metrics?.packets.inc({ segment: 'from_client', packet_type: p.type });
    this.#stream.write(p);
    return true;
  }

  async dial(
    address: string,
    fail: (code: EgressErrorCode, message: string, stage: 'connect' | 'proxy') => EgressDialError,
  ): Promise<KonnectivityConnection> {
    const metrics = this.#ctx.metrics;
    if (this.#started) {
      metrics?.dialFailures.inc({ reason: 'tunnelstarted' });
      throw fail('DialRefused', 'single-use dialer already dialed', 'proxy');
    }
    this.#started = true;
    this.#setStatus('dialing');
    const random = (randomBytes(8).readBigUInt64BE() & 0x7fff_ffff_ffff_ffffn || 1n).toString();
    const t = this.#ctx.timeouts ?? {};
    try {
      const connectID = await new Promise<string>((resolve, reject) => {
        this.#pending = { random, resolve, reject };
        const timer = setTimeout(() => {
          this.send({ type: 'DIAL_CLS', closeDial: { random } });
          reject({ text: 'dial timeout, backstop', reason: 'timeout' });
        }, t.dialMs ?? 30_000);
        const onAbort = (): void => {
          this.send({ type: 'DIAL_CLS', closeDial: { random } });
          reject({ text: 'dial timeout, context', reason: 'context' });
        };
        const signal = this.#ctx.signal;
        const settle = this.#pending;
        this.#pending = {
          random,
          resolve: (id) => {
            clearTimeout(timer);
            signal.removeEventListener('abort', onAbort);
            settle.resolve(id);
          },
          reject: (e) => {
            clearTimeout(timer);
            signal.removeEventListener('abort', onAbort);
            settle.reject(e);
          },
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
        this.send({ type: 'DIAL_REQ', dialRequest: { protocol: 'tcp', address, random } });
      });
      this.#pending = undefined;
      this.#setStatus('ok');
      this.#conn = new KonnectivityConnection(this, connectID, random, t);
      return this.#conn;
    } catch (e) {
      this.#pending = undefined;
      const { text, reason } = e as { text: string; reason: KonnectivityDialFailureReason };
      metrics?.dialFailures.inc({ reason });
      this.close();
      const code: EgressErrorCode =
        reason === 'endpoint'
          ? 'DialEndpoint'
          : reason === 'dialclosed'
            ? 'DialClosed'
            : reason === 'tunnelclosed'
              ? 'TunnelClosed'
              : 'DialTimeout';
      throw fail(code, text, 'proxy');
    }
  }

  #receive(p: Packet): void {
    const type = p.type ?? 'DIAL_REQ';
    this.#ctx.metrics?.packets.inc({ segment: 'to_client', packet_type: type });
    switch (type) {
      case 'DIAL_RSP': {
        const r = p.dialResponse ?? {};
        const pending = this.#pending;
        if (!pending || (r.random ?? '0') !== pending.random) {
          // Not recognised: the tunnel ends (a pending dial fails as `tunnel closed`).
          this.close();
          return;
        }
        if (r.error) pending.reject({ text: r.error, reason: 'endpoint' });
        else pending.resolve(r.connectID ?? '0');
        return;
      }
      case 'DIAL_CLS': {
        const pending = this.#pending;
        if (pending && (p.closeDial?.random ?? '0') === pending.random) {
          pending.reject({ text: 'dial closed', reason: 'dialclosed' });
        }
        return;
      }
      case 'DATA': {
        const d = p.data ?? {};
        const id = d.connectID ?? '0';
        if (id === '0') return;
        if (!this.#conn || this.#conn.connectID !== id) {
          this.send({ type: 'CLOSE_REQ', closeRequest: { connectID: id } });
          return;
        }
        this.#conn.deliver(d.data ?? Buffer.alloc(0));
        return;
      }
      case 'CLOSE_RSP': {
        const r = p.closeResponse ?? {};
        if (this.#conn && this.#conn.connectID === (r.connectID ?? '0')) this.#conn.remoteClosed(r.error);
        this.close();
        return;
      }
      default:
        return; // DRAIN and anything a client should not receive are ignored.
    }
  }

  /** Ends the stream and the gRPC channel; a pending dial fails with `tunnel closed`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending?.reject({ text: 'tunnel closed', reason: 'tunnelclosed' });
    this.#conn?.remoteClosed();
    this.#setStatus(undefined);
    // Half-close so that packets already written (DIAL_CLS, CLOSE_REQ) still reach the server;
    // the channel closes once the call ends, and a call the server leaves open is cancelled.
    this.#stream.end();
    this.#client.close();
    const cancel = setTimeout(() => this.#stream.cancel(), 1_000);
    cancel.unref();
    this.#stream.once('status', () => clearTimeout(cancel));
  }

  closing(): void {
    if (!this.#closed) this.#setStatus('closing');
  }
}

/**
 * A connection through a konnectivity tunnel: writes become DATA packets, DATA for its connectID
 * is read back, closing sends CLOSE_REQ and waits for CLOSE_RSP. It has the few socket methods
 * node:http and undici call; it has no local or remote address.
 */
export class KonnectivityConnection extends Duplex {
  readonly connectID: string;
  readonly #tunnel: KonnectivityTunnel;
  readonly #random: string;
  readonly #timeouts: KonnectivityTimeouts;
  #readTimer: NodeJS.Timeout | undefined;
  #ended = false;
  #closeWait: { resolve: (error?: string) => void } | undefined;
  readonly remoteAddress = undefined;
  readonly localAddress = undefined;
  readonly connecting = false;

  constructor(tunnel: KonnectivityTunnel, connectID: string, random: string, timeouts: KonnectivityTimeouts) {
    super({ allowHalfOpen: false, highWaterMark: 10 * 16384 });
    this.#tunnel = tunnel;
    this.connectID = connectID;
    this.#random = random;
    this.#timeouts = timeouts;
  }

  /** Queues incoming bytes; a reader that takes nothing for 10 s tears the tunnel down. */
  deliver(data: Buffer): void {
    if (this.#ended) return;
    this.#touch();
    if (!this.push(data) && !this.#readTimer) {
      this.#readTimer = setTimeout(() => {
        this.destroy(new Error('readTimeout has been reached, the grpc connection to the proxy server will be closed'));
      }, this.#timeouts.readMs ?? 10_000);
      this.#readTimer.unref();
    }
  }

  /** The tunnel ended or answered CLOSE_RSP: reads end with EOF. */
  remoteClosed(error?: string): void {
    this.#closeWait?.resolve(error);
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#readTimer);
    this.push(null);
  }

  override _read(): void {
    clearTimeout(this.#readTimer);
    this.#readTimer = undefined;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.#touch();
    if (this.#ended || !this.#tunnel.send({ type: 'DATA', data: { connectID: this.connectID, data: chunk } }))
      cb(new Error('write on a closed konnectivity connection'));
    else cb();
  }

  override _final(cb: (e?: Error | null) => void): void {
    this.#closeConnection().then(
      (error) => cb(error ? new Error(error) : null),
      (e: Error) => cb(e),
    );
  }

  override _destroy(err: Error | null, cb: (e?: Error | null) => void): void {
    clearTimeout(this.#readTimer);
    clearTimeout(this.#idleTimer);
    void this.#closeConnection().finally(() => cb(err));
  }

  #closing: Promise<string | undefined> | undefined;

  /** CLOSE_REQ (or DIAL_CLS without a connectID), up to 10 s for CLOSE_RSP, then the channel. */
  #closeConnection(): Promise<string | undefined> {
    this.#closing ??= new Promise<string | undefined>((resolve) => {
      this.#tunnel.closing();
      const sent =
        this.connectID !== '0'
          ? this.#tunnel.send({ type: 'CLOSE_REQ', closeRequest: { connectID: this.connectID } })
          : this.#tunnel.send({ type: 'DIAL_CLS', closeDial: { random: this.#random } });
      if (!sent) {
        resolve(undefined);
        return;
      }
      const timer = setTimeout(() => {
        this.#tunnel.close();
        resolve('close timeout');
      }, this.#timeouts.closeMs ?? 10_000);
      timer.unref();
      this.#closeWait = {
        resolve: (error) => {
          clearTimeout(timer);
          resolve(error || undefined);
        },
      };
    }).finally(() => this.#tunnel.close());
    return this.#closing;
  }

  #idleMs = 0;
  #idleTimer: NodeJS.Timeout | undefined;

  /** As `net.Socket#setTimeout`: emits `timeout` after `ms` without traffic; 0 turns it off. */
  setTimeout(ms: number, cb?: () => void): this {
    if (cb) this.once('timeout', cb);
    this.#idleMs = ms;
    this.#touch();
    return this;
  }

  #touch(): void {
    clearTimeout(this.#idleTimer);
    if (this.#idleMs > 0 && !this.destroyed) {
      this.#idleTimer = setTimeout(() => this.emit('timeout'), this.#idleMs);
      this.#idleTimer.unref();
    }
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}
