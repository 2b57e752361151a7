/** Stable codes of {@link EgressDialError}. */
export type EgressErrorCode =
  /** The proxy could not be reached (refused, no socket, TLS handshake failed, timed out). */
  | 'ProxyUnreachable'
  /** The proxy answered the CONNECT with a status other than 200. */
  | 'ProxyRefused'
  /** The CONNECT answer could not be read (closed, malformed, or the caller's deadline passed). */
  | 'ProxyResponse'
  /** The proxy sent bytes after its CONNECT answer. */
  | 'ProxyBufferedData'
  /** The konnectivity server answered the DIAL_REQ with an error (reason `endpoint`). */
  | 'DialEndpoint'
  /** No DIAL_RSP in time (`dial timeout, backstop`) or the caller gave up (`dial timeout, context`). */
  | 'DialTimeout'
  /** The konnectivity server closed the pending dial (`dial closed`). */
  | 'DialClosed'
  /** The gRPC tunnel ended while the dial waited (`tunnel closed`). */
  | 'TunnelClosed'
  /** A second dial on a single-use tunnel, or a protocol other than tcp. */
  | 'DialRefused'
  /** The configuration cannot be turned into a dialer (unreadable key pair, bad URL). */
  | 'InvalidConfiguration';

/**
 * A failed egress dial or dialer construction. The message is kube-apiserver's wording (see
 * `shared/reference/auth-egress-tracing.md` §4.2); {@link selection} and {@link proxy} say which
 * egress selection and which proxy (URL host or socket path) were used.
 */
export class EgressDialError extends Error {
  readonly code: EgressErrorCode;
  /** `controlplane`, `cluster` or `etcd`. */
  readonly selection: string;
  /** The proxy address: `host:port` of the URL, or the Unix socket path. */
  readonly proxy: string;
  /** Which stage of kube-apiserver's metric failed: reaching the proxy, or the proxy exchange. */
  readonly stage: 'connect' | 'proxy';

  constructor(
    code: EgressErrorCode,
    message: string,
    o: { selection: string; proxy: string; stage: 'connect' | 'proxy'; cause?: unknown },
  ) {
    super(message, o.cause === undefined ? undefined : { cause: o.cause });
    this.name = 'EgressDialError';
    this.code = code;
    this.selection = o.selection;
    this.proxy = o.proxy;
    this.stage = o.stage;
  }
}

const errnoTexts: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOENT: 'no such file or directory',
  ECONNRESET: 'connection reset by peer',
  EACCES: 'permission denied',
  ETIMEDOUT: 'i/o timeout',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  ENOTSOCK: 'socket operation on non-socket',
  EPIPE: 'broken pipe',
};

/** Go's text for a socket error (`connection refused`), else Node's message. */
export function goErrnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && errnoTexts[code]) return errnoTexts[code];
  return e instanceof Error ? e.message : String(e);
}

/** Go's `net.Dial` error: `dial tcp 127.0.0.1:1: connect: connection refused`. */
export function goDialError(network: 'tcp' | 'unix', address: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const op = code && errnoTexts[code] ? 'connect: ' : '';
  return `dial ${network} ${address}: ${op}${goErrnoText(e)}`;
}
