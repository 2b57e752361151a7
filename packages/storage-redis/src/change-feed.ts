import { ChangeWindow } from '@kevents/storage';
import { decodeEntry, type Change } from './codec.js';
import { Cluster } from 'ioredis';
import { closeClient, refreshSlots, type Client } from './connection.js';

type StreamReply = [Buffer, [Buffer, Buffer[]][]][] | null;

/** How long one `XREAD` blocks waiting for changes. */
const blockMs = 1_000;
/** How much longer than that the reader waits for an answer before it gives the connection up. */
const silenceGraceMs = 2_000;

/**
 * The one blocking Stream reader of a process: `XREAD BLOCK` on its own connection, appending
 * what it reads to a {@link ChangeWindow} of recent changes that every watch of the process
 * reads through its own cursor. Watches behind
 * the window read the Stream directly (and learn there whether their changes were compacted).
 *
 * When the reader loses its connection the `epoch` rises: watches started before it end with
 * Unavailable so their clients relist; the reader reconnects by itself and carries on from its
 * last id (or resets its window when Redis came back with an older counter).
 */
export class ChangeFeed extends ChangeWindow<Change> {
  /** Rises on every lost connection of the reader. */
  epoch = 0;
  /** Whether the reader is connected and reading. */
  healthy = false;
  private closed = false;
  private loop: Promise<void> | undefined;
  /** The feed's own connection (for diagnostics). */
  readonly client: Client;
  private readonly stream: string;
  private readonly currentRv: () => Promise<number>;
  private readonly onError: (err: unknown) => void;
  private readonly readIntervalMs: number;

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
    super(limit, 0);
    this.readIntervalMs = readIntervalMs;
    this.client = client;
    this.stream = stream;
    this.currentRv = currentRv;
    this.onError = onError;
  }

  /** Starts reading from the current resourceVersion. */
  start(): void {
    this.loop ??= this.run();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiters.wakeNow();
    closeClient(this.client);
    await this.loop?.catch(() => undefined);
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
        this.client.xreadBuffer(
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
}
