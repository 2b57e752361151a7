import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * The HTTP side of one watch: a chunked JSON-lines response. Lines queued in one turn of the
 * event loop go out as one chunk, and at most once per `flushIntervalMs`, so a busy stream sends
 * several events per socket write (a write costs far more than a few hundred more bytes in it).
 */
export class WatchStream {
  readonly #res: ServerResponse;
  readonly #flushIntervalMs: number;
  #pending: Buffer[] = [];
  #scheduled = false;
  #lastFlush = 0;
  #draining: Promise<void> | undefined;
  #ended = false;

  constructor(res: ServerResponse, flushIntervalMs: number) {
    this.#res = res;
    this.#flushIntervalMs = flushIntervalMs;
    res.writeHead(200, {
      'Audit-Id': randomUUID(),
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
      Connection: 'close',
    });
    res.flushHeaders();
  }

  /** Whether the client went away or the stream was ended. */
  get closed(): boolean {
    return this.#ended || this.#res.destroyed;
  }

  /** Calls `fn` once when the client goes away. */
  onClose(fn: () => void): void {
    this.#res.on('close', fn);
  }

  /** Queues a line; returns a promise to await only when the socket asks to slow down. */
  push(line: Buffer): Promise<void> | undefined {
    if (this.closed) return undefined;
    this.#pending.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      const wait = this.#lastFlush + this.#flushIntervalMs - performance.now();
      if (wait <= 0) setImmediate(this.#flush);
      else setTimeout(this.#flush, wait);
    }
    const d = this.#draining;
    this.#draining = undefined;
    return d;
  }

  /** Writes what is queued and ends the response (idempotent). */
  end(): void {
    if (this.#ended) return;
    this.#flush();
    this.#ended = true;
    if (!this.#res.destroyed) this.#res.end();
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    this.#lastFlush = performance.now();
    const res = this.#res;
    if (this.#pending.length === 0 || res.destroyed || this.#ended) {
      this.#pending = [];
      return;
    }
    const chunk = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    this.#pending = [];
    if (!res.write(chunk)) {
      this.#draining = new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  };
}
