/**
 * The callbacks waiting for a store's next change, woken together and at most once per
 * `intervalMs`: a change after a quiet spell wakes them at once, while under a steady stream of
 * writes each wake-up carries every change of the last interval, so a watch reads (and its HTTP
 * stream writes) one batch per interval instead of one per change. Each callback is called once
 * and forgotten.
 *
 * Woken callbacks join one queue and are called in the order they were woken, 16 at a time with
 * a turn of the event loop in between, so that a fan-out to many watches does not hold up the
 * requests that arrive meanwhile. A wake-up during a fan-out queues its callbacks behind the
 * ones still waiting for theirs: the watches that have waited longest are served first, and
 * those late in a fan-out read the changes that arrived during it in the same batch.
 */

/** How many waiters are woken before the event loop gets a turn. */
const wakeChunk = 16;

export class WakeList {
  readonly #intervalMs: number;
  #waiters = new Set<() => void>();
  #last = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  /** Woken callbacks, in order; those before `#head` have been called. */
  #queue: ((() => void) | undefined)[] = [];
  #head = 0;
  /** Whether the queue is being run (now or on a scheduled turn). */
  #running = false;

  /** @param intervalMs - the shortest time between two wake-ups (0: wake on every change). */
  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  add(fn: () => void): void {
    this.#waiters.add(fn);
  }

  /** How many callbacks wait for the next wake-up. */
  get size(): number {
    return this.#waiters.size;
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

  /** Wakes every waiter (a closed store, a lost connection): they are called in order, after those woken before. */
  wakeNow(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#last = performance.now();
    if (this.#waiters.size === 0) return;
    for (const fn of this.#waiters) this.#queue.push(fn);
    this.#waiters = new Set();
    if (!this.#running) this.#run();
  }

  readonly #run = (): void => {
    this.#running = true;
    const queue = this.#queue;
    const end = Math.min(queue.length, this.#head + wakeChunk);
    try {
      while (this.#head < end) {
        const fn = queue[this.#head]!;
        queue[this.#head++] = undefined;
        fn();
      }
    } finally {
      if (this.#head < queue.length) {
        // Under a steady stream of wake-ups the queue may never run empty: drop the called part.
        if (this.#head >= 1024 && this.#head * 2 >= queue.length) {
          this.#queue = queue.slice(this.#head);
          this.#head = 0;
        }
        setImmediate(this.#run);
      } else {
        this.#queue = [];
        this.#head = 0;
        this.#running = false;
      }
    }
  };

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.wakeNow();
  };
}
