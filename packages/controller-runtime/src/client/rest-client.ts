import * as k8s from '@kubernetes/client-node';
import type { ReadableStream } from 'node:stream/web';
import { Agent, ProxyAgent, fetch, type Dispatcher, type Response } from 'undici';
import { parseJson, type Status } from '@kevents/api';
import { ApiError, causeChain, ControllerRuntimeError } from '../errors.js';

/** Options of {@link RestClient}. */
export interface RestClientOptions {
  /** Per-request timeout in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
  /** User-Agent header. */
  readonly userAgent?: string;
  /**
   * How long a watch may stay silent (no event, no bookmark, no byte) before it ends and its
   * caller resumes it, in milliseconds (default 30 s).
   */
  readonly watchIdleTimeoutMs?: number;
}

/** One request: the path below the server URL, the query and an optional JSON body. */
export interface RestRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  readonly contentType?: string;
}

/**
 * A JSON client for the Kubernetes REST API over a client-node `KubeConfig`: the kubeconfig
 * supplies the server, credentials (tokens, exec plugins, client certificates) and TLS settings,
 * exactly as client-node's typed APIs use them. Objects stay plain JSON (MicroTime strings keep
 * their microseconds). Non-2xx answers raise {@link ApiError} carrying the `metav1.Status`.
 *
 * Each client owns one connection pool (an undici Agent with the kubeconfig's TLS settings),
 * made on first use: separate clients cannot starve each other (leader election renews on its
 * own client), and requests reuse connections. (client-node 2.0.1 builds a new Agent for every
 * request whose cluster has TLS options, skipTLSVerify included, and so keeps one idle socket
 * per request until the server times it out.)
 */
export class RestClient {
  readonly kubeConfig: k8s.KubeConfig;
  private readonly options: RestClientOptions;
  private ownDispatcher: Dispatcher | undefined;

  constructor(kubeConfig: k8s.KubeConfig, options: RestClientOptions = {}) {
    this.kubeConfig = kubeConfig;
    this.options = options;
  }

  /** How long a watch may stay silent before it ends ({@link RestClientOptions.watchIdleTimeoutMs}). */
  get watchIdleTimeoutMs(): number {
    return this.options.watchIdleTimeoutMs ?? 30_000;
  }

  /** The server URL of the kubeconfig's current cluster. */
  get server(): string {
    const c = this.kubeConfig.getCurrentCluster();
    if (!c) throw new ControllerRuntimeError('Transport', 'the kubeconfig has no current cluster');
    return c.server.replace(/\/$/, '');
  }

  /** Sends one request; resolves with the parsed JSON answer. */
  async request<T>(req: RestRequest): Promise<T> {
    // A timer cleared as soon as the answer is read (AbortSignal.timeout would keep every
    // request's signal, listeners and response alive for the whole timeout).
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new DOMException('request timed out', 'TimeoutError')),
      this.options.timeoutMs ?? 30_000,
    );
    let res: Response;
    let text: string;
    try {
      res = await this.send(req, abort.signal);
      text = await res.text();
    } catch (err) {
      throw transportError(req, err);
    } finally {
      clearTimeout(timer);
    }
    const parsed = readJson(text);
    if (res.status >= 400) throw apiError(res.status, parsed, text);
    return parsed as T;
  }

  /**
   * Starts a streamed request (a watch): resolves once the answer's headers arrive, with its
   * body to be read by the caller, or rejects with an {@link ApiError} for a non-2xx answer. No
   * overall timeout: the caller bounds the stream and ends it with `signal`.
   */
  async stream(req: RestRequest, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    let res: Response;
    try {
      res = await this.send(req, signal);
    } catch (err) {
      throw transportError(req, err);
    }
    if (res.status >= 200 && res.status < 300 && res.body !== null) return res.body;
    let text = '';
    try {
      text = await res.text();
    } catch {
      // the Status is optional: the code says enough
    }
    throw apiError(res.status, readJson(text), text);
  }

  private async send(req: RestRequest, signal: AbortSignal): Promise<Response> {
    const url = new URL(this.server + req.path);
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(await this.authHeaders()), accept: 'application/json' };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = req.contentType ?? 'application/json';
    }
    let dispatcher = await this.dedicatedDispatcher();
    if (!dispatcher) {
      // SOCKS proxy: client-node builds the dispatcher per request.
      const ctx = new k8s.RequestContext(url.toString(), req.method as k8s.HttpMethod);
      await this.kubeConfig.applySecurityAuthentication(ctx);
      dispatcher = ctx.getDispatcher();
    }
    return fetch(url, { method: req.method, headers, body, dispatcher, signal });
  }

  /** The credentials' headers (bearer token, exec plugin, OIDC, basic auth), fresh per request. */
  private async authHeaders(): Promise<Record<string, string>> {
    const opts: { headers?: Record<string, string>; auth?: string } = {};
    await this.kubeConfig.applyToHTTPSOptions(opts as Parameters<k8s.KubeConfig['applyToHTTPSOptions']>[0]);
    const h: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.auth) h['authorization'] = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    return h;
  }

  /** Closes this client's own connection pool (if it has one). */
  async close(): Promise<void> {
    await this.ownDispatcher?.close();
    this.ownDispatcher = undefined;
  }

  /** An undici Agent with the kubeconfig's TLS settings, made once and kept for this client only (undefined for SOCKS proxies). */
  private async dedicatedDispatcher(): Promise<Dispatcher | undefined> {
    if (this.ownDispatcher) return this.ownDispatcher;
    const tls: Record<string, unknown> = {};
    await this.kubeConfig.applyToHTTPSOptions(tls);
    const agentOptions = {
      ca: tls['ca'],
      cert: tls['cert'],
      key: tls['key'],
      rejectUnauthorized: tls['rejectUnauthorized'],
      servername: tls['servername'],
    } as Parameters<k8s.KubeConfig['createDispatcherOptions']>[1];
    for (const k of Object.keys(agentOptions) as (keyof typeof agentOptions)[])
      if (agentOptions[k] === undefined) delete agentOptions[k];
    const o = this.kubeConfig.createDispatcherOptions(this.kubeConfig.getCurrentCluster(), agentOptions);
    if (o.type === 'socks') return undefined; // client-node builds a SOCKS dispatcher per request
    this.ownDispatcher =
      o.type === 'proxy'
        ? new ProxyAgent({ uri: o.uri, requestTls: o.requestTls, connect: o.connect })
        : o.type === 'agent'
          ? new Agent({ connect: o.connect })
          : new Agent({ connect: { keepAlive: true, keepAliveInitialDelay: 30_000 } });
    return this.ownDispatcher;
  }
}

/**
 * An answer's JSON, read with `parseJson` (Node 24's `JSON.parse` can misread a key spelled with
 * escapes after another text, nodejs/node#63785); undefined when empty or not JSON.
 */
function readJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

function apiError(code: number, parsed: unknown, text: string): ApiError {
  const status = (parsed as Status | undefined)?.kind === 'Status' ? (parsed as Status) : undefined;
  return new ApiError(code, status, text);
}

function transportError(req: RestRequest, err: unknown): ControllerRuntimeError {
  return new ControllerRuntimeError('Transport', `${req.method} ${req.path}: ${causeChain(err)}`, { cause: err });
}
