import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateCA, generateServingCert } from '@kevents/api/testing';
import type { KeyPair } from '@kevents/api/testing';

/** One TokenReview the stand-in received. */
export interface ReceivedTokenReview {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly review: { apiVersion?: string; kind?: string; spec?: { token?: string; audiences?: string[] } };
}

/** What to answer: a TokenReview `status`, or a raw HTTP answer. */
export type TokenReviewAnswer =
  { readonly status: Record<string, unknown> } | { readonly http: number; readonly body: string };

/**
 * A stand-in for a cluster's `POST /apis/authentication.k8s.io/v1/tokenreviews` over real HTTPS
 * (a CA generated per run): bearer-token authentication of the caller, every review recorded,
 * answers in kube-apiserver's shape (201 with the review echoed and its status) from a function
 * tests change at will. Other paths are served by `other` (the ConfigMap lookup), else 404.
 */
export class TokenReviewServer {
  static readonly path = '/apis/authentication.k8s.io/v1/tokenreviews';
  readonly ca: KeyPair;
  /** `https://127.0.0.1:<port>`: the cluster's server URL. */
  readonly url: string;
  readonly received: ReceivedTokenReview[] = [];
  answer: (r: ReceivedTokenReview) => TokenReviewAnswer = () => ({ status: { authenticated: false } });
  /** Answers GETs of other paths (an HTTP status and a JSON body), or undefined for 404. */
  other: (path: string) => { status: number; body: unknown } | undefined = () => undefined;
  readonly #server: Server;

  private constructor(server: Server, ca: KeyPair, url: string) {
    this.#server = server;
    this.ca = ca;
    this.url = url;
  }

  /** Starts the stand-in; callers must send `Authorization: Bearer <token>`. */
  static async start(token: string): Promise<TokenReviewServer> {
    const ca = await generateCA('kevents-test-cluster-ca');
    const serving = await generateServingCert(ca);
    const holder: { self?: TokenReviewServer } = {};
    const server = createServer(
      { cert: serving.cert, key: serving.key },
      (req, res) => void holder.self!.#handle(req, res, token),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    holder.self = new TokenReviewServer(server, ca, `https://127.0.0.1:${port}`);
    return holder.self;
  }

  get calls(): number {
    return this.received.length;
  }

  async #handle(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0]!;
    const json = (code: number, body: unknown): void =>
      void res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${token}`)
      return json(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 });
    if (path !== TokenReviewServer.path || req.method !== 'POST') {
      const answer = req.method === 'GET' ? this.other(path) : undefined;
      return answer === undefined
        ? void res.writeHead(404).end('404 page not found')
        : json(answer.status, answer.body);
    }
    const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedTokenReview['review'];
    const got: ReceivedTokenReview = { path, authorization: req.headers.authorization, review };
    this.received.push(got);
    const a = this.answer(got);
    if ('http' in a) return void res.writeHead(a.http, { 'content-type': 'application/json' }).end(a.body);
    json(201, { ...review, metadata: { creationTimestamp: null }, status: a.status });
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }
}
