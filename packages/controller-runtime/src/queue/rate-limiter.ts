/** Decides how long an item waits before it is retried (client-go's `workqueue.RateLimiter`). */
export interface RateLimiter<K> {
  /** The delay before `item` may be processed again. */
  when(item: K): number;
  /** Forgets `item`'s failure history (call after a success). */
  forget(item: K): void;
  /** How many times `item` has been retried. */
  numRequeues(item: K): number;
}

/** Per-item exponential backoff: base·2^failures, capped (client-go `ItemExponentialFailureRateLimiter`). */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  constructor(baseDelayMs: number, maxDelayMs: number) {
    this.baseDelayMs = baseDelayMs;
    this.maxDelayMs = maxDelayMs;
  }
  when(item: K): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    const d = this.baseDelayMs * 2 ** n;
    return Number.isFinite(d) ? Math.min(d, this.maxDelayMs) : this.maxDelayMs;
  }
  forget(item: K): void {
    this.failures.delete(item);
  }
  numRequeues(item: K): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * An overall token bucket: `qps` tokens a second, at most `burst` saved (client-go
 * `BucketRateLimiter` over golang.org/x/time/rate). Each `when` reserves one token and returns
 * the wait until it is available.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number;
  private last: number;
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: () => number;
  constructor(qps: number, burst: number, clock: () => number = () => performance.now()) {
    this.qps = qps;
    this.burst = burst;
    this.clock = clock;
    this.tokens = burst;
    this.last = clock();
  }
  when(_item: K): number {
    const now = this.clock();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }
  forget(_item: K): void {
    // The bucket has no per-item state.
  }
  numRequeues(_item: K): number {
    return 0;
  }
}

/** The largest delay of several limiters (client-go `MaxOfRateLimiter`). */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: readonly RateLimiter<K>[];
  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }
  when(item: K): number {
    let d = 0;
    for (const l of this.limiters) d = Math.max(d, l.when(item));
    return d;
  }
  forget(item: K): void {
    for (const l of this.limiters) l.forget(item);
  }
  numRequeues(item: K): number {
    let n = 0;
    for (const l of this.limiters) n = Math.max(n, l.numRequeues(item));
    return n;
  }
}

/**
 * client-go's `DefaultControllerRateLimiter`: per-item exponential 5 ms .. 1000 s, and an
 * overall bucket of 10 qps with a burst of 100 (the bucket limits retries only, not new adds).
 */
export function defaultControllerRateLimiter<K>(): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ItemExponentialFailureRateLimiter<K>(5, 1000 * 1000),
    new BucketRateLimiter<K>(10, 100),
  );
}
