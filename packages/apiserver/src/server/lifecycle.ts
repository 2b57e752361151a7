import { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { ApiError } from '../errors/api-error.js';

/** `Retry-After` (seconds) of a request refused while the server shuts down (kube-apiserver's value). */
export const shutdownRetryAfterSeconds = 5;

/** The message of that 429, worded as kube-apiserver's `WithRetryAfter` filter words it. */
export const shuttingDownMessage = 'The apiserver is shutting down, please try again later.';

/** Paths still served while the server drains: the health checks and the metrics (as Kubernetes exempts them). */
const exemptPaths = new Set(['/readyz', '/livez', '/healthz', '/metrics']);

/** A response the lifecycle counts as in flight: HTTP/1.1 or HTTP/2. */
export type InFlightResponse = ServerResponse | Http2ServerResponse;

/** Where a tracked response sits in the in-flight list (a field on the response: no hashing of it per request). */
const slot = Symbol('kevents.inFlightSlot');
type Tracked = InFlightResponse & { [slot]?: number };

/** Where a server is in its life: serving, shutting down (`/readyz` fails), or draining (new requests refused). */
export type LifecyclePhase = 'running' | 'shutdownInitiated' | 'draining';

/** Options of {@link ServerLifecycle}. */
export interface LifecycleOptions {
  /** `Retry-After` of a request refused while draining; default {@link shutdownRetryAfterSeconds}. */
  readonly retryAfterSeconds?: number;
}

/**
 * The shutdown state of one server process, shared by its listeners: kube-apiserver's lifecycle
 * signals (`ShutdownInitiated`, `NotAcceptingNewRequest`, `InFlightRequestsDrained`) and the
 * count of its in-flight requests. Watches are not in-flight requests: they are long-running and
 * the {@link WatchHub} ends them.
 */
export class ServerLifecycle {
  #phase: LifecyclePhase = 'running';
  readonly #retryAfterSeconds: number;
  /** The responses in flight, unordered: one leaving swaps the last into its place. */
  readonly #inFlight: Tracked[] = [];
  #idle: (() => void)[] = [];

  constructor(options: LifecycleOptions = {}) {
    this.#retryAfterSeconds = options.retryAfterSeconds ?? shutdownRetryAfterSeconds;
  }

  get phase(): LifecyclePhase {
    return this.#phase;
  }

  /** How many non-long-running requests are being served. */
  get inFlight(): number {
    return this.#inFlight.length;
  }

  /** SIGTERM arrived: from now on `/readyz` fails (`[-]shutdown failed`); everything else is served as before. */
  initiateShutdown(): void {
    if (this.#phase === 'running') this.#phase = 'shutdownInitiated';
  }

  /**
   * The shutdown delay is over: new requests (but the health checks and metrics) are answered
   * 429 with `Retry-After` and `Connection: close`, and the requests in flight close their
   * HTTP/1.1 connection once answered.
   */
  stopAccepting(): void {
    this.initiateShutdown();
    this.#phase = 'draining';
    for (const res of this.#inFlight) if (res instanceof ServerResponse) res.shouldKeepAlive = false;
  }

  /** Whether a new request to `path` is refused (see {@link stopAccepting}). */
  refuses(path: string): boolean {
    return this.#phase === 'draining' && !exemptPaths.has(path);
  }

  /** The answer to a refused request. */
  refusal(): ApiError {
    return new ApiError(
      429,
      'TooManyRequests',
      shuttingDownMessage,
      { retryAfterSeconds: this.#retryAfterSeconds },
      { 'Retry-After': String(this.#retryAfterSeconds) },
    );
  }

  /** Counts a request in flight until its response closes (finished, failed or cut). */
  track(res: InFlightResponse): void {
    const tracked = res as Tracked;
    if (tracked[slot] !== undefined) return;
    tracked[slot] = this.#inFlight.length;
    this.#inFlight.push(tracked);
    if (this.#phase === 'draining' && res instanceof ServerResponse) res.shouldKeepAlive = false;
    // One listener shared by every response (no closure and no `once` wrapper per request).
    res.on('close', this.#closed);
  }

  /** The 'close' listener: `this` is the response. */
  readonly #closed = ((lifecycle: ServerLifecycle) =>
    function (this: InFlightResponse): void {
      lifecycle.#release(this);
    })(this);

  #release(res: Tracked): void {
    const i = res[slot];
    if (i === undefined) return;
    res[slot] = undefined;
    const list = this.#inFlight;
    const last = list.pop()!;
    if (last !== res) {
      list[i] = last;
      last[slot] = i;
    }
    if (list.length === 0 && this.#idle.length > 0) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const w of waiters) w();
    }
  }

  /**
   * Resolves true once no request is in flight, or false after `timeoutMs` with some still
   * running (the caller then cuts them).
   */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight.length === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.#idle = this.#idle.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#idle.push(done);
    });
  }
}
