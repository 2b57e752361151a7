import type { FastifyInstance } from 'fastify';
import { sendStatus } from '../encoding/respond.js';
import type { ServerLifecycle } from './lifecycle.js';

/**
 * kube-apiserver's `WithRetryAfter` and in-flight accounting, as an onRequest hook to install
 * after the request-info filter and ahead of authentication: while the server drains, new
 * requests (but the health checks and `/metrics`) are refused with 429, `Retry-After` and, on
 * HTTP/1, `Connection: close`; every other request but a watch is counted in flight until its
 * response closes (watches are long-running: the WatchHub ends them).
 */
export function installLifecycleHook(app: FastifyInstance, lifecycle: ServerLifecycle): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (lifecycle.refuses(req.requestInfo.path)) {
      const refusal = lifecycle.refusal();
      if (req.raw.httpVersionMajor === 1) reply.header('Connection', 'close');
      for (const [k, v] of Object.entries(refusal.headers)) reply.header(k, v);
      void sendStatus(reply, req, refusal.code, refusal.status);
      return;
    }
    if (req.requestInfo.verb !== 'watch') lifecycle.track(reply.raw);
    done();
  });
}
