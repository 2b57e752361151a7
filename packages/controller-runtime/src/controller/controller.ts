import { defaultRuntimeMetrics, type RuntimeMetrics } from '../metrics/metrics.js';
import { WorkQueue } from '../queue/work-queue.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { isTerminalError, type Reconciler } from '../reconcile/reconciler.js';

/** Options of a {@link Controller}. */
export interface ControllerOptions {
  /** Name: the `controller` metric label and the work queue's name. */
  readonly name: string;
  readonly reconciler: Reconciler;
  /** Parallel workers (default 1). One key is never reconciled by two workers at once. */
  readonly maxConcurrentReconciles?: number;
  readonly rateLimiter?: RateLimiter<string>;
  readonly metrics?: RuntimeMetrics;
  /** Called with every reconcile error (for logging). */
  readonly onError?: (key: string, err: unknown) => void;
}

/**
 * A work queue plus workers that call a {@link Reconciler} for each key (controller-runtime's
 * `Controller`). Event handlers enqueue keys with {@link Controller.enqueue}.
 */
export class Controller {
  readonly name: string;
  readonly queue: WorkQueue<string>;
  private readonly options: ControllerOptions;
  private workers: Promise<void>[] = [];

  constructor(options: ControllerOptions) {
    this.options = options;
    this.name = options.name;
    this.queue = new WorkQueue<string>({
      name: options.name,
      rateLimiter: options.rateLimiter,
      metrics: options.metrics ?? defaultRuntimeMetrics(),
    });
  }

  enqueue(key: string): void {
    this.queue.add(key);
  }

  enqueueAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }

  /** Starts the workers. */
  start(): void {
    if (this.workers.length > 0) return;
    const n = this.options.maxConcurrentReconciles ?? 1;
    for (let i = 0; i < n; i++) this.workers.push(this.worker());
  }

  /** Stops taking new work and resolves when queued and in-flight reconciles have finished. */
  async stop(): Promise<void> {
    await this.queue.shutDownWithDrain();
    await Promise.all(this.workers);
    this.workers = [];
  }

  private async worker(): Promise<void> {
    const m = this.options.metrics ?? defaultRuntimeMetrics();
    const label = { controller: this.name };
    for (;;) {
      const { item, shutdown } = await this.queue.get();
      if (shutdown) return;
      const start = performance.now();
      try {
        const res = (await this.options.reconciler.reconcile(item)) ?? {};
        if (res.requeueAfterMs !== undefined && res.requeueAfterMs > 0) {
          this.queue.forget(item);
          this.queue.addAfter(item, res.requeueAfterMs);
          m.reconcileTotal.inc({ ...label, result: 'requeue_after' });
        } else if (res.requeue) {
          this.queue.addRateLimited(item);
          m.reconcileTotal.inc({ ...label, result: 'requeue' });
        } else {
          this.queue.forget(item);
          m.reconcileTotal.inc({ ...label, result: 'success' });
        }
      } catch (err) {
        this.options.onError?.(item, err);
        m.reconcileErrors.inc(label);
        m.reconcileTotal.inc({ ...label, result: 'error' });
        if (isTerminalError(err)) this.queue.forget(item);
        else this.queue.addRateLimited(item);
      } finally {
        m.reconcileTime.observe(label, (performance.now() - start) / 1000);
        this.queue.done(item);
      }
    }
  }
}
