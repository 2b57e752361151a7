import { defaultRuntimeMetrics, type RuntimeMetrics } from '../metrics/metrics.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Options of a {@link WorkQueue}. */
export interface WorkQueueOptions<K> {
  /** The `name` label of the queue's metrics. */
  readonly name: string;
  /** Default: {@link defaultControllerRateLimiter}. */
  readonly rateLimiter?: RateLimiter<K>;
  /** Default: {@link defaultRuntimeMetrics}. */
  readonly metrics?: RuntimeMetrics;
}

/**
 * client-go's rate-limiting, delaying work queue:
 * - an item is queued at most once however often it is added (dirty set), and is never handed to
 *   two workers at once: an item added while it is processed is queued again when it is `done`;
 * - `addAfter` holds an item until its time (the earliest time wins when added again);
 * - `addRateLimited` delays by the rate limiter (per-item exponential backoff plus an overall
 *   token bucket), `forget` clears the item's backoff;
 * - `shutDown` refuses new adds and drops delayed items; workers still get what is queued, and
 *   `shutDownWithDrain` resolves once every item being processed is `done`.
 */
export class WorkQueue<K = string> {
  readonly name: string;
  private readonly rateLimiter: RateLimiter<K>;
  private readonly metrics: RuntimeMetrics;
  private queue: K[] = [];
  private head = 0;
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly addedAt = new Map<K, number>();
  private readonly startedAt = new Map<K, number>();
  private readonly waiting = new Map<K, number>();
  private heap: { at: number; item: K }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private getters: ((v: { item: K; shutdown: false } | { item: undefined; shutdown: true }) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shuttingDown = false;

  constructor(options: WorkQueueOptions<K>) {
    this.name = options.name;
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<K>();
    this.metrics = options.metrics ?? defaultRuntimeMetrics();
  }

  /** Items waiting to be handed out (not counting delayed or processing ones). */
  len(): number {
    return this.queue.length - this.head;
  }

  /** Items held by `addAfter` until their time. */
  delayedLen(): number {
    return this.waiting.size;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  add(item: K): void {
    if (this.shuttingDown) return;
    if (this.dirty.has(item)) return;
    this.metrics.workqueueAdds.inc({ name: this.name }); // client-go counts adds that are not duplicates
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** Adds `item` after `delayMs` (now when ≤ 0). */
  addAfter(item: K, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(item);
    const at = performance.now() + delayMs;
    const cur = this.waiting.get(item);
    if (cur !== undefined && cur <= at) return;
    this.waiting.set(item, at);
    heapPush(this.heap, { at, item });
    this.arm();
  }

  /** Adds `item` when the rate limiter allows (a retry). */
  addRateLimited(item: K): void {
    this.metrics.workqueueRetries.inc({ name: this.name });
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Stops backoff tracking of `item` (after it succeeded). */
  forget(item: K): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: K): number {
    return this.rateLimiter.numRequeues(item);
  }

  /** Waits for the next item; `shutdown` is true once the queue is shut down and empty. */
  get(): Promise<{ item: K; shutdown: false } | { item: undefined; shutdown: true }> {
    if (this.len() > 0) return Promise.resolve({ item: this.pop(), shutdown: false });
    if (this.shuttingDown) return Promise.resolve({ item: undefined, shutdown: true });
    return new Promise((r) => this.getters.push(r));
  }

  /** Marks `item` processed; it is queued again if it was added meanwhile. */
  done(item: K): void {
    const started = this.startedAt.get(item);
    if (started !== undefined) {
      this.metrics.workqueueWorkDuration.observe({ name: this.name }, (performance.now() - started) / 1000);
      this.startedAt.delete(item);
    }
    this.processing.delete(item);
    if (this.dirty.has(item)) this.push(item);
    else if (this.processing.size === 0) for (const w of this.drainWaiters.splice(0)) w();
  }

  /** Refuses new adds, drops delayed items and wakes idle workers. */
  shutDown(): void {
    this.shuttingDown = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.heap = [];
    this.waiting.clear();
    if (this.len() === 0) for (const g of this.getters.splice(0)) g({ item: undefined, shutdown: true });
    if (this.processing.size === 0) for (const w of this.drainWaiters.splice(0)) w();
  }

  /** {@link shutDown}, then resolves once queued and in-flight items are done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    while (this.processing.size > 0 || this.len() > 0) await new Promise<void>((r) => this.drainWaiters.push(r));
  }

  private push(item: K): void {
    this.addedAt.set(item, performance.now());
    const g = this.getters.shift();
    if (g) {
      this.queue.push(item);
      g({ item: this.pop(), shutdown: false });
    } else {
      this.queue.push(item);
      this.metrics.workqueueDepth.set({ name: this.name }, this.len());
    }
  }

  private pop(): K {
    const item = this.queue[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.dirty.delete(item);
    this.processing.add(item);
    const now = performance.now();
    const added = this.addedAt.get(item);
    if (added !== undefined) this.metrics.workqueueQueueDuration.observe({ name: this.name }, (now - added) / 1000);
    this.addedAt.delete(item);
    this.startedAt.set(item, now);
    this.metrics.workqueueDepth.set({ name: this.name }, this.len());
    if (this.shuttingDown && this.len() === 0)
      for (const g of this.getters.splice(0)) g({ item: undefined, shutdown: true });
    return item;
  }

  private arm(): void {
    const next = this.heap[0];
    if (!next || next.at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = next.at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, next.at - performance.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    while (this.heap.length > 0 && this.heap[0]!.at <= now + 1) {
      const { at, item } = heapPop(this.heap)!;
      if (this.waiting.get(item) !== at) continue; // superseded by an earlier addAfter
      this.waiting.delete(item);
      this.add(item);
    }
    this.arm();
  }
}

function heapPush<T extends { at: number }>(h: T[], v: T): void {
  h.push(v);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p]!.at <= h[i]!.at) break;
    [h[p], h[i]] = [h[i]!, h[p]!];
    i = p;
  }
}

function heapPop<T extends { at: number }>(h: T[]): T | undefined {
  const top = h[0];
  const last = h.pop();
  if (h.length > 0 && last) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l]!.at < h[m]!.at) m = l;
      if (r < h.length && h[r]!.at < h[m]!.at) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i]!, h[m]!];
      i = m;
    }
  }
  return top;
}
