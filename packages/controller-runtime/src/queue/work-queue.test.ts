import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { RuntimeMetrics } from '../metrics/metrics.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, defaultControllerRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';

describe('rate limiters (client-go defaults)', () => {
  it('backs an item off exponentially from 5 ms to 1000 s, per item, until forgotten', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    expect([1, 2, 3, 4, 5].map(() => l.when('a'))).toEqual([5, 10, 20, 40, 80]);
    expect(l.when('b')).toBe(5);
    for (let i = 0; i < 40; i++) l.when('a');
    expect(l.when('a')).toBe(1_000_000);
    expect(l.numRequeues('a')).toBe(46);
    l.forget('a');
    expect(l.when('a')).toBe(5);
  });

  it('the token bucket allows a burst of 100, then 10 per second', () => {
    let now = 0;
    const b = new BucketRateLimiter<string>(10, 100, () => now);
    for (let i = 0; i < 100; i++) expect(b.when(`x${i}`)).toBe(0);
    expect(b.when('y')).toBeCloseTo(100);
    expect(b.when('z')).toBeCloseTo(200);
    now = 10_000; // 100 tokens back, minus the two borrowed
    expect(b.when('w')).toBe(0);
  });

  it('the default limiter is the larger of both', () => {
    const d = defaultControllerRateLimiter<string>();
    expect(d.when('a')).toBe(5);
    expect(d.when('a')).toBe(10);
    for (let i = 0; i < 98; i++) d.when(`k${i}`);
    // The bucket is empty now: a fresh item waits for a token (~100 ms), more than its 5 ms.
    expect(d.when('fresh')).toBeGreaterThan(50);
  });
});

describe('WorkQueue', () => {
  it('deduplicates: an item added many times is handed out once (and counted once)', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    const q = new WorkQueue<string>({ name: 'dedup', metrics });
    for (let i = 0; i < 5; i++) q.add('a');
    q.add('b');
    expect(q.len()).toBe(2);
    const first = await q.get();
    expect(first.item).toBe('a');
    const second = await q.get();
    expect(second.item).toBe('b');
    expect(q.len()).toBe(0);
    expect(await metrics.registry.metrics()).toMatch(/workqueue_adds_total\{name="dedup"\} 2/);
  });

  it('never hands an item to two workers: an add during processing requeues it on done', async () => {
    const q = new WorkQueue<string>({ name: 'processing' });
    q.add('a');
    const { item } = await q.get();
    q.add('a');
    expect(q.len()).toBe(0);
    q.done(item!);
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('a');
  });

  it('addAfter holds an item until its time; the earliest time wins', async () => {
    const q = new WorkQueue<string>({ name: 'delay' });
    const t0 = performance.now();
    q.addAfter('late', 400);
    q.addAfter('late', 150);
    q.addAfter('later', 300);
    expect(q.len()).toBe(0);
    expect(q.delayedLen()).toBe(2);
    const a = await q.get();
    const ta = performance.now() - t0;
    const b = await q.get();
    const tb = performance.now() - t0;
    expect([a.item, b.item]).toEqual(['late', 'later']);
    expect(ta).toBeGreaterThanOrEqual(145);
    expect(tb).toBeGreaterThanOrEqual(295);
  });

  it('addRateLimited backs off per item and counts retries', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    const q = new WorkQueue<string>({
      name: 'retries',
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(40, 10_000),
      metrics,
    });
    const times: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) {
      q.addRateLimited('x');
      const { item } = await q.get();
      times.push(performance.now() - t0);
      q.done(item!);
    }
    // 40, then 80, then 160 ms: cumulative ≥ 40, 120, 280.
    expect(times[0]).toBeGreaterThanOrEqual(38);
    expect(times[1]).toBeGreaterThanOrEqual(118);
    expect(times[2]).toBeGreaterThanOrEqual(278);
    expect(q.numRequeues('x')).toBe(3);
    q.forget('x');
    expect(q.numRequeues('x')).toBe(0);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/workqueue_retries_total\{name="retries"\} 3/);
    expect(text).toMatch(/workqueue_adds_total\{name="retries"\} 3/);
    expect(text).toMatch(/workqueue_queue_duration_seconds_count\{name="retries"\} 3/);
    expect(text).toMatch(/workqueue_work_duration_seconds_count\{name="retries"\} 3/);
  });

  it('shutDownWithDrain refuses new adds, hands out what is queued and waits for in-flight items', async () => {
    const q = new WorkQueue<string>({ name: 'drain' });
    q.add('a');
    q.add('b');
    q.addAfter('delayed', 50);
    const { item } = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    q.add('refused');
    const next = await q.get();
    expect(next.item).toBe('b');
    await new Promise((r) => setTimeout(r, 100));
    expect(drained).toBe(false);
    q.done(item!);
    expect(drained).toBe(false);
    q.done(next.item!);
    await drain;
    expect(drained).toBe(true);
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
  });

  it('wakes idle workers on shutdown', async () => {
    const q = new WorkQueue<string>({ name: 'idle' });
    const waiting = q.get();
    q.shutDown();
    expect(await waiting).toEqual({ item: undefined, shutdown: true });
  });
});
