/**
 * Turns of the event loop shared fairly by every watch sending initial events in this process.
 *
 * A watch that starts with the state of its prefix (`resourceVersion=0`, `sendInitialEvents`)
 * decodes and sends that state a batch at a time. Without a shared budget, many such watches
 * opened together decode and encode their whole states in one turn each, and every other request
 * waits behind them (30 watches of a 6,000-object namespace held the loop for seconds). Each
 * batch of initial events first takes a turn from here: at most {@link InitialTurns.perTurn}
 * batches run per turn of the event loop, in the order they asked, after the I/O of that turn,
 * so the work of all such watches together holds the loop for about one batch at a time.
 */
export class InitialTurns {
  /** How many batches may run per turn of the event loop. */
  readonly perTurn: number;
  #waiting: (() => void)[] = [];
  #head = 0;
  #scheduled = false;

  constructor(perTurn = 1) {
    if (!Number.isSafeInteger(perTurn) || perTurn < 1) throw new RangeError('perTurn must be a positive integer');
    this.perTurn = perTurn;
  }

  /** How many batches wait for a turn. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  /** Resolves when the caller may run one batch (in a later turn, never in the current one). */
  take(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#grant);
  }

  readonly #grant = (): void => {
    this.#scheduled = false;
    for (let i = 0; i < this.perTurn && this.#head < this.#waiting.length; i++) {
      const resolve = this.#waiting[this.#head]!;
      this.#waiting[this.#head++] = noop;
      resolve();
    }
    if (this.#head === this.#waiting.length) {
      this.#waiting = [];
      this.#head = 0;
    } else {
      if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
        this.#waiting = this.#waiting.slice(this.#head);
        this.#head = 0;
      }
      this.#schedule();
    }
  };
}

const noop = (): void => undefined;

/** The turns shared by every store's watches in this process. */
export const initialTurns = new InitialTurns();
