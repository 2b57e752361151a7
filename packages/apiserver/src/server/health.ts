import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '@kevents/storage';
import type { ServerLifecycle } from './lifecycle.js';

/** What the health checks look at. */
export interface HealthCheckOptions {
  /** `storage` check: `Storage.ready()` resolves. */
  readonly storage: Pick<Storage, 'ready'>;
  /** `shutdown` check of `/readyz`: the server is still `running`. */
  readonly lifecycle: ServerLifecycle;
}

/** One named check and whether it passed. */
type CheckResult = [name: string, ok: boolean];

/**
 * Serves kube-apiserver's health endpoints as plain text: `/livez` (`ping`), `/healthz` (`ping`,
 * `storage`) and `/readyz` (`ping`, `storage`, `shutdown`, which fails from the moment SIGTERM
 * arrives). A passing check answers `ok`; a failing one, or `?verbose`, lists every check
 * (`[+]name ok`, `[-]name failed: reason withheld`) and the verdict; a failure is a 500.
 */
export function installHealthChecks(app: FastifyInstance, options: HealthCheckOptions): void {
  const { storage, lifecycle } = options;
  const health =
    (withStorage: boolean, withShutdown = false) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const checks: CheckResult[] = [['ping', true]];
      if (withStorage) {
        checks.push([
          'storage',
          await storage.ready().then(
            () => true,
            () => false,
          ),
        ]);
      }
      // kube-apiserver's readyz `shutdown` check: fails from the moment SIGTERM arrives.
      if (withShutdown) checks.push(['shutdown', lifecycle.phase === 'running']);
      const ok = checks.every(([, c]) => c);
      const name = req.requestInfo.path.slice(1);
      const verbose = 'verbose' in (req.query as Record<string, unknown>);
      reply
        .code(ok ? 200 : 500)
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff');
      if (ok && !verbose) return reply.send('ok');
      const lines = checks.map(([n, c]) => (c ? `[+]${n} ok` : `[-]${n} failed: reason withheld`));
      return reply.send(`${lines.join('\n')}\n${name} check ${ok ? 'passed' : 'failed'}\n`);
    };
  app.get('/healthz', health(true));
  app.get('/livez', health(false));
  app.get('/readyz', health(true, true));
}
