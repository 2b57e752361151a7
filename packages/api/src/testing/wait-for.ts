/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /** The pause between two checks, in milliseconds (default 25). */
  readonly intervalMs?: number;
  /**
   * Whether a check that throws counts as "not yet" (default false: the error fails the wait at once).
   * The error of the last check is then passed to the timeout message.
   */
  readonly retryErrors?: boolean;
}

/**
 * Polls `check` until it returns true: the first check runs at once, the next ones `intervalMs` apart.
 * Once `ms` have passed without it, rejects with an Error whose message is `message(lastError)`, where
 * `lastError` is what the last check threw (only with `retryErrors`; undefined when it returned false).
 * The one polling helper of the tests, at the lowest layer so that every package and app may import it.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  message: (lastError: unknown) => string | Promise<string> = () => 'condition not met in time',
  options: WaitForOptions = {},
): Promise<void> {
  const { intervalMs = 25, retryErrors = false } = options;
  const deadline = Date.now() + ms;
  for (;;) {
    let lastError: unknown;
    try {
      if (await check()) return;
    } catch (err) {
      if (!retryErrors) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(await message(lastError));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
