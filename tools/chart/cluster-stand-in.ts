import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { generateLeaf } from '@kevents/authz/testing';
import type { KeyPair } from '@kevents/authz/testing';

/** The `spec` of a TokenReview or SubjectAccessReview, as kevents sends them. */
export interface ReviewSpec {
  readonly token?: string;
  readonly audiences?: string[];
  readonly user?: string;
  readonly uid?: string;
  readonly groups?: string[];
  readonly extra?: Record<string, string[]>;
  readonly resourceAttributes?: {
    readonly verb?: string;
    readonly group?: string;
    readonly version?: string;
    readonly resource?: string;
    readonly subresource?: string;
    readonly namespace?: string;
    readonly name?: string;
  };
  readonly nonResourceAttributes?: { readonly path?: string; readonly verb?: string };
}

/** One request the stand-in answered (authenticated with its token). */
export interface ClusterRequest {
  readonly method: string;
  readonly path: string;
  /** The body, parsed (POSTs). */
  readonly body?: { apiVersion?: string; kind?: string; spec?: ReviewSpec };
}

/** Options of {@link ClusterStandIn.start}. */
export interface ClusterStandInOptions {
  /** The CA that signs the serving certificate (the pods trust it as their ServiceAccount's ca.crt). */
  readonly ca: KeyPair;
  /** The address and port to listen on (the pods reach it as `https://kubernetes.default.svc`). */
  readonly host: string;
  readonly port: number;
  /** The bearer token callers must send (the pod's ServiceAccount token). */
  readonly token: string;
  /** `data` of `kube-system/extension-apiserver-authentication`. */
  readonly extensionAuthentication: Record<string, string>;
  /** TokenReview answers: the user of each token the cluster knows. */
  readonly users?: Record<string, { username: string; uid?: string; groups?: string[] }>;
  /** The SubjectAccessReview decision for a review's `spec`. */
  readonly allow: (spec: ReviewSpec) => boolean;
}

/**
 * A stand-in for the parts of a cluster's kube-apiserver an aggregated kevents talks to, over
 * HTTPS with a CA generated per run (serving `kubernetes.default.svc`): the
 * `kube-system/extension-apiserver-authentication` ConfigMap, TokenReviews and
 * SubjectAccessReviews (201 with the review echoed and its status, as kube-apiserver answers),
 * each after checking the caller's bearer token, and every request recorded.
 */
export class ClusterStandIn {
  readonly ca: KeyPair;
  readonly received: ClusterRequest[] = [];
  readonly #server: Server;

  private constructor(server: Server, ca: KeyPair) {
    this.#server = server;
    this.ca = ca;
  }

  static async start(o: ClusterStandInOptions): Promise<ClusterStandIn> {
    const ca = o.ca;
    const serving = await generateLeaf(ca, 'server', [
      'kubernetes.default.svc',
      'kubernetes.default.svc.cluster.local',
    ]);
    const holder: { self?: ClusterStandIn } = {};
    const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) =>
      holder.self!.#handle(req, res, o).catch(() => res.destroy()),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, resolve);
    });
    holder.self = new ClusterStandIn(server, ca);
    return holder.self;
  }

  /** The `spec` of every SubjectAccessReview received. */
  get subjectAccessReviews(): ReviewSpec[] {
    return this.received.filter((r) => r.body?.kind === 'SubjectAccessReview').map((r) => r.body!.spec ?? {});
  }

  /** The `spec` of every TokenReview received. */
  get tokenReviews(): ReviewSpec[] {
    return this.received.filter((r) => r.body?.kind === 'TokenReview').map((r) => r.body!.spec ?? {});
  }

  async #handle(req: IncomingMessage, res: ServerResponse, o: ClusterStandInOptions): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (code: number, body: unknown): void =>
      void res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const status = (code: number, reason: string) =>
      json(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, code });
    if (req.headers.authorization !== `Bearer ${o.token}`) return status(401, 'Unauthorized');
    const path = (req.url ?? '').split('?')[0]!;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication') {
      this.received.push({ method, path });
      return json(200, {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: 'extension-apiserver-authentication', namespace: 'kube-system' },
        data: o.extensionAuthentication,
      });
    }
    const review = (kind: string) => method === 'POST' && path === `/apis/${kind}`;
    if (!review('authentication.k8s.io/v1/tokenreviews') && !review('authorization.k8s.io/v1/subjectaccessreviews'))
      return status(404, 'NotFound');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as NonNullable<ClusterRequest['body']>;
    this.received.push({ method, path, body });
    const spec = body.spec ?? {};
    let answer: Record<string, unknown>;
    if (body.kind === 'TokenReview') {
      const user = o.users?.[spec.token ?? ''];
      answer = user ? { authenticated: true, user, audiences: spec.audiences ?? [] } : { authenticated: false };
    } else {
      answer = { allowed: o.allow(spec) };
    }
    json(201, { ...body, metadata: { creationTimestamp: null }, status: answer });
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }
}
