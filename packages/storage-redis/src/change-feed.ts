import { WakeList } from '@kevents/storage';
import { decodeEntry, type Change } from './codec.js';
import { closeClient, type Client } from './connection.js';

type StreamReply = [string, [string, string[]][]][] | null;

/** How long one `XREAD` blocks waiting for changes. */
const blockMs = 1_000;
/** How much longer than that the reader waits for an answer before it gives the connection up. */
const silenceGraceMs = 2_000;

/**
 * The one blocking Stream reader of a process: `XREAD BLOCK` on its own connection, appending
 * what it reads to an in-memory window of recent changes (`(base, head]`, contiguous, at most
 * `limit` long) that every watch of the process reads through its own cursor. Watches behind
 * the window read the Stream directly (and learn there whether their changes were compacted).
 *
 * When the reader loses its connection the `epoch` rises: watches started before it end with
 * Unavailable so their clients relist; the reader reconnects by itself and carries on from its
 * last id (or resets its window when Redis came back with an older counter).
 */
export class ChangeFeed {
  /** Every change at or below this is not in the window. */
  base = 0;
  /** The newest change in the window. */
  head = 0;
  /** Rises on every lost connection of the reader. */
  epoch = 0;
  /** Whether the reader is connected and reading. */
  healthy = false;
  private items: (Change | undefined)[] = [];
  private off = 0;
  private readonly waiters: WakeList;
  private closed = false;
  private loop: Promise<void> | undefined;
  /** The feed's own connection (for diagnostics). */
  readonly client: Client;
  private readonly stream: string;
  private readonly limit: number;
  private readonly currentRv: () => Promise<number>;
  private readonly onError: (err: unknown) => void;

  private readonly readIntervalMs: number;
  /** Rises whenever the window starts over, so that a kept slice is never given for other changes. */
  private generation = 0;
  private lastSlice: { start: number; count: number; generation: number; changes: readonly Change[] } = {
    start: -1,
    count: -1,
    generation: -1,
    changes: [],
  };

  /**
   * @param readIntervalMs - the shortest time between two reads of the Stream: under a steady
   * stream of writes one read (and one wake-up of the watches) carries every change of the
   * interval, instead of one read per change.
   */
  constructor(
    client: Client,
    stream: string,
    limit: number,
    readIntervalMs: number,
    currentRv: () => Promise<number>,
    onError: (err: unknown) => void,
  ) {
    this.waiters = new WakeList(0);
    this.readIntervalMs = readIntervalMs;
    this.client = client;
    this.stream = stream;
    this.limit = limit;
    this.currentRv = currentRv;
    this.onError = onError;
  }

  /** Starts reading from the current resourceVersion. */
  start(): void {
    this.loop ??= this.run();
  }

  /**
   * The changes in `(after, head]` that are in the window, at most `max` of them. The watches
   * woken together read from the same point, so the last answer is kept and given again (the
   * same frozen array) until the window changes under it, which lets them share one batch.
   */
  slice(after: number, max: number): readonly Change[] {
    const start = Math.max(after, this.base);
    const count = Math.min(max, this.head - start);
    const last = this.lastSlice;
    if (last.start === start && last.count === count && last.generation === this.generation) return last.changes;
    const from = this.off + start - this.base;
    const changes = Object.freeze(this.items.slice(from, from + count) as Change[]);
    this.lastSlice = { start, count, generation: this.generation, changes };
    return changes;
  }

  /** Calls `fn` once after the next change (woken at most once per wake interval), epoch change or close. */
  onNext(fn: () => void): void {
    this.waiters.add(fn);
  }

  cancel(fn: () => void): void {
    this.waiters.delete(fn);
  }

  /** Drops changes at or below `rv` from the window (after a compaction by this process). */
  compactTo(rv: number): void {
    while (this.base < Math.min(rv, this.head)) this.shift();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiters.wakeNow();
    closeClient(this.client);
    await this.loop?.catch(() => undefined);
  }

  private reset(rv: number): void {
    this.generation++;
    this.items = [];
    this.off = 0;
    this.base = rv;
    this.head = rv;
  }

  private async run(): Promise<void> {
    let synced = false;
    let lastRead = 0;
    while (!this.closed) {
      try {
        if (!synced) {
          const rv = await this.currentRv();
          // First start, or Redis came back with an older counter (it lost data): start over.
          if (this.head === 0 || rv < this.head) this.reset(rv);
          synced = true;
          this.healthy = true;
        }
        const wait = lastRead + this.readIntervalMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const reply = await this.read();
        lastRead = performance.now();
        if (reply === null) continue;
        for (const [, entries] of reply) for (const [id, fields] of entries) this.append(decodeEntry(id, fields));
        this.waiters.notify();
      } catch (err) {
        if (this.closed) break;
        if (synced || this.healthy) {
          this.healthy = false;
          this.epoch++;
          this.onError(err);
          this.waiters.wakeNow();
        }
        synced = false;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.healthy = false;
  }

  /**
   * One `XREAD BLOCK`. Redis answers it within the block time even when nothing was written, so
   * no answer by then plus a grace period means the connection or the server is gone without a
   * word (a stopped process, a host that vanished, a partition): the connection is dropped and
   * made again, and the read fails, which ends the watches so their clients relist.
   */
  private async read(): Promise<StreamReply> {
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.client.disconnect(true);
        reject(new Error(`no answer from Redis to a ${blockMs} ms XREAD BLOCK within ${blockMs + silenceGraceMs} ms`));
      }, blockMs + silenceGraceMs);
    });
    try {
      return await Promise.race([
        this.client.xread(
          'COUNT',
          this.limit,
          'BLOCK',
          blockMs,
          'STREAMS',
          this.stream,
          `${this.head}-0`,
        ) as Promise<StreamReply>,
        silent,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private append(c: Change): void {
    if (c.rv <= this.head) return;
    if (c.rv !== this.head + 1) this.reset(c.rv - 1); // the Stream was trimmed past us: a gap
    this.items.push(c);
    this.head = c.rv;
    while (this.head - this.base > this.limit) this.shift();
  }

  private shift(): void {
    this.items[this.off++] = undefined;
    this.base++;
    if (this.off > 1024 && this.off * 2 > this.items.length) {
      this.items = this.items.slice(this.off);
      this.off = 0;
    }
  }
}
