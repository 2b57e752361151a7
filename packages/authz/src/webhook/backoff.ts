import { AuthorizationError } from '../errors.js';

/** `wait.Backoff` of a webhook's retries. */
export interface RetryBackoff {
  readonly initialMs: number;
  readonly factor: number;
  readonly jitter: number;
  /** The number of attempts. */
  readonly steps: number;
}

/** kube-apiserver's `DefaultRetryBackoff` for authorization webhooks: 500 ms, ×1.5, jitter 0.2, 5 attempts. */
export const defaultRetryBackoff: RetryBackoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/** The sleeps between attempts (`steps - 1` of them): `initial·factor^i`, each stretched by up to `jitter`. */
export function backoffDelays(b: RetryBackoff, random: () => number = Math.random): number[] {
  const out: number[] = [];
  let d = b.initialMs;
  for (let i = 0; i < b.steps - 1; i++) {
    out.push(b.jitter > 0 ? d + random() * b.jitter * d : d);
    d *= b.factor;
  }
  return out;
}

/**
 * `webhook.WithExponentialBackoff` with `DefaultShouldRetry`: runs `attempt` until it succeeds,
 * fails with an error that is not retriable, or the attempts run out; the last error is thrown.
 * With a `signal` (the request context of `wait.ExponentialBackoffWithContext`), an abort ends
 * the sleep between attempts at once and no further attempt is made: the error of the attempt
 * the abort cut short is thrown, or `canceled()` when it came during a sleep or before any
 * attempt.
 */
export async function withBackoff<T>(
  b: RetryBackoff,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
  canceled: () => Error = () => new Error('context canceled'),
): Promise<T> {
  const delays = backoffDelays(b);
  for (let i = 0; ; i++) {
    if (signal?.aborted) throw canceled();
    try {
      return await attempt();
    } catch (e) {
      const retriable = e instanceof AuthorizationError && e.retriable;
      if (!retriable || i >= delays.length || signal?.aborted) throw e;
      if (!(await sleep(delays[i]!, signal))) throw canceled();
    }
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts (the timer is cleared then). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return new Promise((r) => setTimeout(() => r(true), ms));
  return new Promise((r) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      r(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      r(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
