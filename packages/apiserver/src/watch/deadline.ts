/** The longest delay `setTimeout` keeps (2^31 − 1 ms, ~24.8 days); longer ones fire at once. */
export const maxTimerDelayMs = 2 ** 31 - 1;

/**
 * Calls `fn` once `ms` milliseconds have passed, however long that is (`setTimeout` alone fires
 * a delay past {@link maxTimerDelayMs} after 1 ms, with a warning); at once, on the next turn,
 * for zero or less. Returns the function that cancels it.
 */
export function callAfter(ms: number, fn: () => void): () => void {
  const due = performance.now() + ms;
  let timer: NodeJS.Timeout;
  const arm = (): void => {
    const left = due - performance.now();
    if (left <= 0) return fn();
    timer = setTimeout(arm, Math.min(left, maxTimerDelayMs));
  };
  timer = setTimeout(arm, Math.max(0, Math.min(ms, maxTimerDelayMs)));
  return () => clearTimeout(timer);
}
