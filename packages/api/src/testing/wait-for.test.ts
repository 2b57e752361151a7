import { describe, expect, it } from '@jest/globals';
import { waitFor } from './index.js';

describe('waitFor', () => {
  it('resolves at the first check that holds, checking again every intervalMs', async () => {
    let calls = 0;
    const t0 = Date.now();
    await waitFor(
      () => ++calls === 3,
      5_000,
      () => 'never',
      { intervalMs: 40 },
    );
    expect(calls).toBe(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(75);
  });

  it('checks once at once, without a pause, when the condition already holds', async () => {
    const t0 = Date.now();
    await waitFor(
      async () => true,
      0,
      () => 'never',
      { intervalMs: 10_000 },
    );
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('rejects with the message after ms, having checked until then', async () => {
    let calls = 0;
    const t0 = Date.now();
    await expect(
      waitFor(
        () => (calls++, false),
        120,
        async () => `gave up after ${calls}`,
      ),
    ).rejects.toThrow(/^gave up after \d+$/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(120);
    // ~5 checks 25 ms apart; 2 in a loaded CI run (timers late): more than the first, whatever the load.
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it('says "condition not met in time" by default', async () => {
    await expect(waitFor(() => false, 10)).rejects.toThrow(new Error('condition not met in time'));
  });

  it('fails at once on a check that throws, unless retryErrors', async () => {
    let calls = 0;
    const boom = (): boolean => {
      calls++;
      throw new Error('boom');
    };
    await expect(waitFor(boom, 5_000)).rejects.toThrow('boom');
    expect(calls).toBe(1);
  });

  it('with retryErrors, keeps checking and passes the last error (undefined after a false) to the message', async () => {
    const seen: unknown[] = [];
    let calls = 0;
    await waitFor(
      () => {
        calls++;
        if (calls < 3) throw new Error(`not yet ${calls}`);
        return true;
      },
      5_000,
      () => 'never',
      { retryErrors: true, intervalMs: 1 },
    );
    expect(calls).toBe(3);
    const fail = waitFor(
      () => {
        throw new Error('still down');
      },
      30,
      (err) => (seen.push(err), `last: ${(err as Error).message}`),
      { retryErrors: true, intervalMs: 5 },
    );
    await expect(fail).rejects.toThrow('last: still down');
    let n = 0;
    const lastFalse = waitFor(
      () => {
        if (++n === 1) throw new Error('first');
        return false;
      },
      30,
      (err) => (seen.push(err), 'done'),
      { retryErrors: true, intervalMs: 5 },
    );
    await expect(lastFalse).rejects.toThrow('done');
    expect(seen).toHaveLength(2);
    expect((seen[0] as Error).message).toBe('still down');
    expect(n).toBeGreaterThan(1);
    expect(seen[1]).toBeUndefined();
  });
});
