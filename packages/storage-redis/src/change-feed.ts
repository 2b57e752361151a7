import { ChangeWindow } from '@kevents/storage';
import { bufferIdToRv, decodeEntry, type Change } from './codec.js';
import { Cluster } from 'ioredis';
import { closeClient, refreshSlots, type Client } from './connection.js';

type StreamReply = [Buffer, [Buffer, Buffer[]][]][] | null;

/** How long one `XREAD` blocks waiting for changes. */
const blockMs = 1_000;
/** How much longer than that the reader waits for an answer before it gives the connection up. */
const silenceGraceMs = 2_000;

/** What a {@link ChangeFeed} reads and how. */
export interface ChangeFeedOptions {
  /** The feed's own connection (blocking reads hold it). */
  readonly client: Client;
  /** The Stream's key. */
  readonly stream: string;
  /** How many changes the window holds (and one read takes) at most. */
  readonly limit: number;
  /**
   * The shortest time between two reads of the Stream: under a steady stream of writes one read
   * (and one wake-up of the watches) carries every change of the interval, instead of one read
   * per change.
   */
  readonly readIntervalMs: number;
  /** The store's current resourceVersion (the counter). */
  readonly currentRv: () => Promise<number>;
  /** Called when the feed loses its connection (after the epoch has risen). */
  readonly onError: (err: unknown) => void;
  /**
   * Whether a watch of the process is open. While none is and nothing waits for the next change,
   * the feed does not read the Stream.
   */
  readonly watching: () => boolean;
}

/**
 * The one blocking Stream reader of a process: `XREAD BLOCK` on its own connection, appending
 * what it reads to a {@link ChangeWindow} of recent changes that every watch of the process
 * reads through its own cursor. Watches behind
 * the window read the Stream directly (and learn there whether their changes were compacted).
 *
 * The feed reads only while the process has a watch open or something waits for the next change
 * (a request waiting for a resourceVersion): a process that only writes and reads does not fetch
 * and decode every change it makes. Idle, it sends a `PING` every second on its connection
 * instead, so that a lost connection is noticed as soon as while reading. When it is wanted
 * again it starts its window over at the current resourceVersion and wakes the waiting watches,
 * which read what came before from the Stream.
 *
 * When the reader loses its connection the `epoch` rises: watches started before it end with
 * Unavailable so their clients relist; the reader reconnects by itself and starts its window over
 * at the current resourceVersion (Redis may have come back without its data).
 */
export class ChangeFeed extends ChangeWindow<Change> {
  /** Rises on every lost connection of the reader. */
  epoch = 0;
  /** Whether the reader is connected and reading (or, idle, answering). */
  healthy = false;
  /** Whether the feed is idle: not reading the Stream because nothing in the process wants its changes. */
  idle = false;
  /**
   * Whether the window follows the Stream now (synced, reading): only then does it take the
   * process's own writes ({@link own}), and only then do the watches read it (an idle feed does
   * not notice a Redis that restarted without its data between two pings).
   */
  following = false;
  private closed = false;
  private loop: Promise<void> | undefined;
  /** The head when the feed last woke the watches. */
  private notifiedHead = -1;
  /** Ends the idle feed's wait between two pings (it is wanted, or closed). */
  private kick: (() => void) | undefined;
  /** The feed's own connection (for diagnostics). */
  readonly client: Client;
  private readonly stream: string;
  private readonly currentRv: () => Promise<number>;
  private readonly onError: (err: unknown) => void;
  private readonly readIntervalMs: number;
  private readonly watching: () => boolean;

  constructor(options: ChangeFeedOptions) {
    super(options.limit, 0);
    this.readIntervalMs = options.readIntervalMs;
    this.client = options.client;
    this.stream = options.stream;
    this.currentRv = options.currentRv;
    this.onError = options.onError;
    this.watching = options.watching;
  }

  /** Starts reading from the current resourceVersion. */
  start(): void {
    this.loop ??= this.run();
  }

  /**
   * The changes this process just wrote, in resourceVersion order: those that follow the
   * window's head join it at once, so that the next read of the Stream starts after them and
   * does not fetch and decode them again (with one replica, every change is its own). A change
   * that does not follow (another replica wrote between) is left to the read, and so is every
   * change while the feed is idle or reconnecting. The watches are woken by the read, at its
   * pace, as for the changes it reads.
   */
  own(changes: readonly Change[]): void {
    if (!this.following) return;
    for (const c of changes) {
      if (c.rv !== this.head + 1) return;
      this.append(c);
    }
  }

  /** A watch was opened: an idle feed starts reading again. */
  wake(): void {
    this.kick?.();
  }

  /** Calls `fn` once after the next change; an idle feed starts reading again. */
  override onNext(fn: () => void): void {
    super.onNext(fn);
    this.kick?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.kick?.();
    this.waiters.wakeNow();
    closeClient(this.client);
    await this.loop?.catch(() => undefined);
  }

  private wanted(): boolean {
    return this.waiters.size > 0 || this.watching();
  }

  private async run(): Promise<void> {
    let synced = false;
    let lastRead = 0;
    while (!this.closed) {
      try {
        if (!synced) {
          // First start, back from idle or from a lost connection: Redis may have come back
          // without its data (its counter lower, or by now past the old head), so the window starts
          // over at the counter. The watches read once it follows (those behind, from the Stream).
          this.reset(await this.currentRv());
          this.notifiedHead = this.head;
          // The counter came over the store's connection; the feed's own must answer too.
          await this.ping();
          synced = true;
          this.healthy = true;
        }
        if (!this.wanted()) {
          this.following = false;
          this.idle = true;
          await this.idleUntilWanted();
          this.idle = false;
          synced = false;
          continue;
        }
        if (!this.following) {
          this.following = true;
          // Watches that read nothing while the feed did not follow read now.
          this.waiters.notify();
        }
        const wait = lastRead + this.readIntervalMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        // Own writes added during the wait: the read starts after them and would not wake anyone for them.
        this.notifyMoved();
        const reply = await this.read();
        lastRead = performance.now();
        if (reply !== null) {
          // Entries at or below the head (own writes added meanwhile) are not decoded again.
          for (const [, entries] of reply)
            for (const [id, fields] of entries) if (bufferIdToRv(id) > this.head) this.append(decodeEntry(id, fields));
        }
        // What the read brought, and own writes added while it waited (their entries woke it).
        this.notifyMoved();
      } catch (err) {
        this.following = false;
        this.idle = false;
        if (this.closed) break;
        if (this.client instanceof Cluster) refreshSlots(this.client);
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
   * Waits until something wants the feed's changes (or it is closed), pinging Redis once a
   * `blockMs` meanwhile; a ping that fails or gets no answer as soon as a read would have
   * throws, as the read would.
   */
  private async idleUntilWanted(): Promise<void> {
    while (!this.closed && !this.wanted()) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.kick = resolve;
        timer = setTimeout(resolve, blockMs);
      });
      clearTimeout(timer);
      this.kick = undefined;
      if (this.closed || this.wanted()) return;
      await this.ping();
    }
  }

  /** Wakes the watches when the window's head moved since their last wake-up by the feed. */
  private notifyMoved(): void {
    if (this.head === this.notifiedHead) return;
    this.notifiedHead = this.head;
    this.waiters.notify();
  }

  /** A `PING` on the feed's connection, with as long to answer as a read ({@link answered}). */
  private ping(): Promise<unknown> {
    return this.answered(this.client.ping(), 'PING', blockMs + silenceGraceMs);
  }

  /**
   * One `XREAD BLOCK`. Redis answers it within the block time even when nothing was written, so
   * no answer by then plus a grace period means the connection or the server is gone without a
   * word (a stopped process, a host that vanished, a partition): the connection is dropped and
   * made again, and the read fails, which ends the watches so their clients relist.
   */
  private read(): Promise<StreamReply> {
    return this.answered(
      this.client.xreadBuffer(
        'COUNT',
        this.limit,
        'BLOCK',
        blockMs,
        'STREAMS',
        this.stream,
        `${this.head}-0`,
      ) as Promise<StreamReply>,
      `${blockMs} ms XREAD BLOCK`,
      blockMs + silenceGraceMs,
    );
  }

  /** `reply`, or a failure and a dropped connection when Redis has not answered `what` within `ms`. */
  private async answered<T>(reply: Promise<T>, what: string, ms: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.client.disconnect(true);
        reject(new Error(`no answer from Redis to a ${what} within ${ms} ms`));
      }, ms);
    });
    try {
      return await Promise.race([reply, silent]);
    } finally {
      clearTimeout(timer);
    }
  }
}
