/**
 * The callbacks waiting for a store's next change, woken together and at most once per
 * `intervalMs`: a change after a quiet spell wakes them at once, while under a steady stream of
 * writes each wake-up carries every change of the last interval, so a watch reads (and its HTTP
 * stream writes) one batch per interval instead of one per change. Each callback is called once
 * and forgotten. Waiters are woken 16 at a time with a turn of the event loop in between, so
 * that a fan-out to many watches does not hold up the requests that arrive meanwhile.
 */
/** How many waiters are woken before the event loop gets a turn. */
const wakeChunk = 16;

export class WakeList {
  readonly #intervalMs: number;
  #waiters = new Set<() => void>();
  #last = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;

  /** @param intervalMs - the shortest time between two wake-ups (0: wake on every change). */
  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  add(fn: () => void): void {
    this.#waiters.add(fn);
  }

  delete(fn: () => void): void {
    this.#waiters.delete(fn);
  }

  /** Something changed: wakes the waiters now, or once the interval since the last wake-up has passed. */
  notify(): void {
    if (this.#timer !== undefined || this.#waiters.size === 0) return;
    const wait = this.#last + this.#intervalMs - performance.now();
    if (wait <= 0) this.wakeNow();
    else this.#timer = setTimeout(this.#fire, wait);
  }

  /** Wakes every waiter at once (a closed store, a lost connection). */
  wakeNow(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#last = performance.now();
    if (this.#waiters.size === 0) return;
    const waiters = [...this.#waiters];
    this.#waiters = new Set();
    this.#run(waiters, 0);
  }

  #run(waiters: (() => void)[], from: number): void {
    const end = Math.min(waiters.length, from + wakeChunk);
    for (let i = from; i < end; i++) waiters[i]!();
    if (end < waiters.length) setImmediate(() => this.#run(waiters, end));
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.wakeNow();
  };
}
