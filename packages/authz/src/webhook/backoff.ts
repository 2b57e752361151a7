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
 */
export async function withBackoff<T>(b: RetryBackoff, attempt: () => Promise<T>): Promise<T> {
  const delays = backoffDelays(b);
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      const retriable = e instanceof AuthorizationError && e.retriable;
      if (!retriable || i >= delays.length) throw e;
      await new Promise((r) => setTimeout(r, delays[i]));
    }
  }
}
