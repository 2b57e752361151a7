/** Options of {@link waitFor} and {@link waitForValue}. */
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
 * Polls `probe` until it returns a value other than undefined, and resolves with that value: the first
 * probe runs at once, the next ones `intervalMs` apart. Once `ms` have passed without one, rejects with an
 * Error whose message is `message(lastError)`, where `lastError` is what the last probe threw (only with
 * `retryErrors`; undefined when it returned undefined).
 */
export async function waitForValue<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  ms: number,
  message: (lastError: unknown) => string | Promise<string> = () => 'condition not met in time',
  options: WaitForOptions = {},
): Promise<T> {
  const { intervalMs = 25, retryErrors = false } = options;
  const deadline = Date.now() + ms;
  for (;;) {
    let lastError: unknown;
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      if (!retryErrors) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(await message(lastError));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Polls `check` until it returns true, as {@link waitForValue} polls for a value: the first check runs
 * at once, the next ones `intervalMs` apart; after `ms`, rejects with `message(lastError)`.
 * The one polling helper of the tests, at the lowest layer so that every package and app may import it.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  message?: (lastError: unknown) => string | Promise<string>,
  options?: WaitForOptions,
): Promise<void> {
  await waitForValue(async () => ((await check()) ? true : undefined), ms, message, options);
}
