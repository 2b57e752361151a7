import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '@kevents/api';
import type { Controller } from '../controller/controller.js';
import type { Informer } from '../cache/informer.js';
import { LeaderElector, type LeaderElectorOptions } from '../leaderelection/leader-elector.js';
import { defaultRuntimeMetrics, type RuntimeMetrics } from '../metrics/metrics.js';

/** Options of a {@link Manager}. */
export interface ManagerOptions {
  /** `host:port` of the /healthz, /readyz and /metrics server; port 0 picks a free one; '' turns it off. */
  readonly probeAddress?: string;
  /** Default: {@link defaultRuntimeMetrics}, which controllers and queues also use by default. */
  readonly metrics?: RuntimeMetrics;
  /** Leader election; without it the controllers start as soon as the caches have synced. */
  readonly leaderElection?: Omit<LeaderElectorOptions, 'metrics'>;
  /** How long to wait for informers to sync (default 120 s). */
  readonly cacheSyncTimeoutMs?: number;
  /** Log sink (one message per call). */
  readonly log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Called when leadership is lost after it was held; default: exit the process with code 1. */
  readonly onLeadershipLost?: () => void;
}

/**
 * Runs informers and controllers together (controller-runtime's `Manager`): starts every
 * informer, waits for their caches to sync, then (once elected, when leader election is on)
 * starts the controllers. Serves `/healthz`, `/readyz` (200 once caches have synced) and
 * `/metrics` (Prometheus text). `stop()` drains the controllers, releases the lease and stops
 * the informers; {@link Manager.stopOnSignals} wires it to SIGTERM and SIGINT.
 */
export class Manager {
  readonly metrics: RuntimeMetrics;
  readonly elector: LeaderElector | undefined;
  private readonly options: ManagerOptions;
  private readonly informers: Informer<KubeObject>[] = [];
  /** Informers started with the others but not waited for (readiness ignores them too). */
  private readonly optionalInformers: Informer<KubeObject>[] = [];
  private readonly controllers: Controller[] = [];
  private server: Server | undefined;
  private controllersStarted = false;
  private stopping: Promise<void> | undefined;
  private leaderLoop: Promise<unknown> | undefined;

  constructor(options: ManagerOptions = {}) {
    this.options = options;
    this.metrics = options.metrics ?? defaultRuntimeMetrics();
    if (options.leaderElection) this.elector = new LeaderElector({ ...options.leaderElection, metrics: this.metrics });
  }

  /**
   * Adds an informer that the manager starts and stops. With `waitForSync: false` neither start
   * nor readiness waits for its first list: an informer on another cluster that may be down
   * (a mirror source) must not hold back the controllers of the others.
   */
  addInformer<T extends KubeObject>(informer: Informer<T>, opts: { waitForSync?: boolean } = {}): void {
    (opts.waitForSync === false ? this.optionalInformers : this.informers).push(
      informer as unknown as Informer<KubeObject>,
    );
  }

  addController(controller: Controller): void {
    this.controllers.push(controller);
  }

  /** The address of the probe server once started. */
  probeAddress(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  /** True when every informer has synced. */
  ready(): boolean {
    return this.informers.every((i) => i.hasSynced());
  }

  /** True while this manager runs its controllers (always true once started without election). */
  isLeader(): boolean {
    return this.controllersStarted;
  }

  /** Starts everything; resolves once the caches have synced (controllers may still await election). */
  async start(): Promise<void> {
    await this.listen();
    for (const i of [...this.informers, ...this.optionalInformers]) i.start();
    const timeout = this.options.cacheSyncTimeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.informers.map((i) => i.waitForSync())),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`caches did not sync within ${timeout} ms`)), timeout);
      }),
    ]).finally(() => clearTimeout(timer));
    this.log('caches synced', { informers: this.informers.map((i) => i.describe()) });
    if (!this.elector) {
      this.startControllers();
      return;
    }
    const e = this.elector;
    this.log('waiting for leadership', {
      lease: `${this.options.leaderElection!.namespace}/${this.options.leaderElection!.name}`,
      identity: e.identity,
    });
    this.leaderLoop = (async () => {
      if (!(await e.acquire())) return;
      this.log('became leader', { identity: e.identity });
      this.startControllers();
      const outcome = await e.renewLoop();
      if (outcome === 'lost') {
        this.log('leadership lost', { identity: e.identity });
        this.controllersStarted = false;
        (this.options.onLeadershipLost ?? (() => process.exit(1)))();
      }
    })();
  }

  /** Stops controllers (draining in-flight work), releases the lease, stops informers and the server. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await Promise.all(this.controllers.map((c) => c.stop()));
      if (this.elector) {
        this.elector.stop();
        await this.leaderLoop;
        if (this.elector.isLeader()) await this.elector.release();
      }
      await Promise.all([...this.informers, ...this.optionalInformers].map((i) => i.stop()));
      await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
      this.server?.closeAllConnections();
    })();
    return this.stopping;
  }

  /** On SIGTERM or SIGINT: stop, then exit 0. */
  stopOnSignals(): void {
    for (const sig of ['SIGTERM', 'SIGINT'] as const)
      process.once(sig, () => {
        this.log(`received ${sig}, shutting down`);
        void this.stop().then(() => process.exit(0));
      });
  }

  private startControllers(): void {
    this.controllersStarted = true;
    for (const c of this.controllers) c.start();
    this.log('controllers started', { controllers: this.controllers.map((c) => c.name) });
  }

  private log(msg: string, fields?: Record<string, unknown>): void {
    this.options.log?.(msg, fields);
  }

  private async listen(): Promise<void> {
    const addr = this.options.probeAddress;
    if (addr === undefined || addr === '') return;
    const i = addr.lastIndexOf(':');
    const host = i < 0 ? '127.0.0.1' : addr.slice(0, i) || '0.0.0.0';
    const port = Number(i < 0 ? addr : addr.slice(i + 1));
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/healthz' || path === '/livez') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      } else if (path === '/readyz') {
        const ok = this.ready() && !this.stopping;
        res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'caches not synced');
      } else if (path === '/metrics') {
        this.metrics.registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': this.metrics.registry.contentType }).end(text),
          (err: unknown) => res.writeHead(500).end(String(err)),
        );
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
  }
}
