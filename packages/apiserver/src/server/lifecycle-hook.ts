import type { FastifyInstance } from 'fastify';
import type { ServerLifecycle } from './lifecycle.js';

/**
 * kube-apiserver's `WithRetryAfter` and in-flight accounting, as an onRequest hook to install
 * after the request-info filter and ahead of authentication: while the server drains, new
 * requests (but the health checks and `/metrics`) are refused with 429, `Retry-After` and, on
 * HTTP/1, `Connection: close`, the message in plain text as kube's `http.Error` writes it; every other request but a watch is counted in flight until its
 * response closes (watches are long-running: the WatchHub ends them).
 */
export function installLifecycleHook(app: FastifyInstance, lifecycle: ServerLifecycle): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (lifecycle.refuses(req.requestInfo.path)) {
      const refusal = lifecycle.refusal();
      if (req.raw.httpVersionMajor === 1) reply.header('Connection', 'close');
      for (const [k, v] of Object.entries(refusal.headers)) reply.header(k, v);
      // As Go's http.Error writes it: plain text, not a Status.
      void reply
        .code(refusal.code)
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff')
        .send(`${refusal.status.message}\n`);
      return;
    }
    if (req.requestInfo.verb !== 'watch') lifecycle.track(reply.raw);
    done();
  });
}
