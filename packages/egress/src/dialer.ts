import type { Duplex } from 'node:stream';

/** Where a dial goes: the destination host (name or IP) and port. */
export interface DialAddress {
  readonly host: string;
  readonly port: number;
}

/** Per-dial options: the caller's deadline, as Go's `DialContext` takes a context. */
export interface DialOptions {
  /** Aborting fails a pending dial (a refusing or hanging proxy does not outlive the caller). */
  readonly signal?: AbortSignal;
  /** Fails the dial after this long; default 30 s (Go's default transport dialer). */
  readonly timeoutMs?: number;
}

/** `Direct`, `HTTPConnect` or `GRPC`, as `connection.proxyProtocol`. */
export type EgressProtocol = 'Direct' | 'HTTPConnect' | 'GRPC';

/**
 * One egress selection's dialer: kube-apiserver's `utilnet.DialFunc`. {@link dial} returns the
 * raw byte stream to the destination (a TCP socket, a CONNECT tunnel or a konnectivity
 * connection); the caller speaks its own protocol over it, usually TLS to the destination. The
 * adapters in `adapters.ts` turn it into what node:http/https/tls and undici take.
 */
export interface EgressDialer {
  /** `controlplane`, `cluster` or `etcd`. */
  readonly selection: string;
  readonly protocol: EgressProtocol;
  /** The proxy (`host:port` or socket path); undefined for Direct. */
  readonly proxy: string | undefined;
  /** Opens a connection to `address`. Rejects with an `EgressDialError` when proxied. */
  dial(address: DialAddress, options?: DialOptions): Promise<Duplex>;
}

/** A signal that fires on the caller's signal or after `timeoutMs`, and a way to stop its timer. */
export function dialDeadline(
  options: DialOptions | undefined,
  defaultMs = 30_000,
): {
  signal: AbortSignal;
  timedOut: () => boolean;
  done: () => void;
} {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('i/o timeout'));
  }, options?.timeoutMs ?? defaultMs);
  timer.unref();
  const outer = options?.signal;
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** `host:port`, with brackets around an IPv6 host (Go's `net.JoinHostPort`). */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
