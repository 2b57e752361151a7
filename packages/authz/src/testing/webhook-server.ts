import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generateCA, generateLeaf } from '@kevents/api/testing';
import type { KeyPair } from '@kevents/api/testing';

/** One SubjectAccessReview the server received. */
export interface ReceivedReview {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The body, parsed. */
  readonly review: {
    kind?: string;
    apiVersion?: string;
    metadata?: object;
    spec?: Record<string, unknown>;
    status?: unknown;
  };
  /** The raw body text. */
  readonly body: string;
  /** The Common Name of the client certificate, when one was presented. */
  readonly clientCN?: string;
}

/** What to answer: a status for the review (wrapped in a SubjectAccessReview) or a raw HTTP answer. */
export type WebhookAnswer =
  | { readonly status: Record<string, unknown>; readonly delayMs?: number }
  | {
      readonly http: number;
      readonly body: string;
      readonly headers?: Record<string, string>;
      readonly delayMs?: number;
    };

/** Options of {@link WebhookServer.start}. */
export interface WebhookServerOptions {
  /** The CA to sign the serving certificate with (default: a fresh one). */
  readonly ca?: KeyPair;
  /** DNS names in the serving certificate besides 127.0.0.1 and ::1 (default `localhost`). */
  readonly names?: readonly string[];
  /** Require a client certificate signed by this CA. */
  readonly clientCA?: string;
  /** Require `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** The path answered (default any). */
  readonly path?: string;
}

/**
 * A SubjectAccessReview webhook over real HTTPS for tests: a CA generated per run, optional
 * client-certificate or bearer-token authentication, every review recorded, and an answer
 * function tests change at will.
 */
export class WebhookServer {
  readonly ca: KeyPair;
  readonly url: string;
  readonly received: ReceivedReview[] = [];
  /**
   * Requests whose connection closed before the answer was written (the caller gave up: a
   * timeout, or an aborted request context), counted on the server side's 'close'.
   */
  abandoned = 0;
  /** Decides each answer; default allows everything. */
  answer: (r: ReceivedReview) => WebhookAnswer = () => ({ status: { allowed: true } });
  readonly #server: Server;

  private constructor(server: Server, ca: KeyPair, url: string) {
    this.#server = server;
    this.ca = ca;
    this.url = url;
  }

  static async start(o: WebhookServerOptions = {}): Promise<WebhookServer> {
    const ca = o.ca ?? (await generateCA('kevents-test-webhook-ca'));
    const serving = await generateLeaf(ca, 'server', o.names ?? ['localhost']);
    const holder: { self?: WebhookServer } = {};
    const server = createServer(
      {
        cert: serving.cert,
        key: serving.key,
        ...(o.clientCA ? { ca: o.clientCA, requestCert: true, rejectUnauthorized: true } : {}),
      },
      (req, res) => void holder.self!.#handle(req, res, o),
    );
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    holder.self = new WebhookServer(server, ca, `https://127.0.0.1:${port}${o.path ?? '/authorize'}`);
    return holder.self;
  }

  /** Reviews received so far. */
  get calls(): number {
    return this.received.length;
  }

  /** Resolves once `predicate()` holds (polled), or rejects after `ms`. */
  async until(predicate: () => boolean, ms = 5000): Promise<void> {
    const end = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > end) throw new Error(`webhook: condition not met within ${ms} ms (calls ${this.calls})`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async #handle(req: IncomingMessage, res: ServerResponse, o: WebhookServerOptions): Promise<void> {
    res.on('close', () => {
      if (!res.writableFinished) this.abandoned++;
    });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0]!;
    if (o.path && path !== o.path) return void res.writeHead(404).end('404 page not found');
    if (o.token && req.headers.authorization !== `Bearer ${o.token}`)
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"kind":"Status","code":401}');
    let review: ReceivedReview['review'];
    try {
      review = JSON.parse(body) as ReceivedReview['review'];
    } catch {
      return void res.writeHead(400).end('bad json');
    }
    const peer = (req.socket as TLSSocket).getPeerCertificate?.();
    const clientCN = peer && peer.subject ? (peer.subject.CN as string | undefined) : undefined;
    const r: ReceivedReview = { path, headers: req.headers, review, body, ...(clientCN ? { clientCN } : {}) };
    this.received.push(r);
    const a = this.answer(r);
    if (a.delayMs) {
      // A caller that gives up ends the wait (no timer outlives the test).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, a.delayMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (res.destroyed) return;
    if ('http' in a) return void res.writeHead(a.http, a.headers ?? {}).end(a.body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: a.status }));
  }

  /** A kubeconfig-format connection file for this server (the caller adds user credentials). */
  kubeconfig(user: Record<string, unknown> = {}, cluster: Record<string, unknown> = {}): string {
    return JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'webhook',
          cluster: {
            server: this.url,
            'certificate-authority-data': Buffer.from(this.ca.cert).toString('base64'),
            ...cluster,
          },
        },
      ],
      users: [{ name: 'apiserver', user }],
      contexts: [{ name: 'webhook', context: { cluster: 'webhook', user: 'apiserver' } }],
      'current-context': 'webhook',
    });
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }
}
