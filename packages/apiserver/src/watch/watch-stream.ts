import { randomUUID } from '../request/random-uuid.js';
import { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';

const crlf = Buffer.from('\r\n');

/**
 * The HTTP side of one watch: a chunked JSON-lines response. Each batch of lines goes out as one
 * HTTP chunk in one socket write (the store wakes watches at most once per its batch interval,
 * so under load a batch holds several events and a write costs far more than its bytes). The
 * chunk is framed here and written straight to the socket, which spares Node's per-write cork,
 * tick and four-buffer writev; a response that has no socket yet (a pipelined request) is
 * written through the response as usual, and so is an HTTP/2 stream (one DATA frame per batch).
 */
export class WatchStream {
  readonly #res: ServerResponse | Http2ServerResponse;
  readonly #socket: Socket | null;
  #draining: Promise<void> | undefined;
  #ended = false;
  /** Events written that the connection has not sent yet, and the events of each such write, oldest first. */
  #pendingEvents = 0;
  #writes: number[] = [];
  #writesHead = 0;
  /** Called after each write the connection sent, while {@link backWithin} waits. */
  #onSent: (() => void) | undefined;
  /** A write's callback: the connection sent it (or failed): its events are no longer pending. */
  readonly #sent = (): void => {
    this.#pendingEvents -= this.#writes[this.#writesHead++] ?? 0;
    if (this.#writesHead === this.#writes.length) {
      this.#writes.length = 0;
      this.#writesHead = 0;
    }
    this.#onSent?.();
  };

  constructor(res: ServerResponse | Http2ServerResponse, contentType = 'application/json') {
    this.#res = res;
    const headers = {
      'Audit-Id': randomUUID(),
      'Content-Type': contentType,
      'Cache-Control': 'no-cache, private',
    };
    if (res instanceof ServerResponse) {
      res.writeHead(200, { ...headers, 'Transfer-Encoding': 'chunked', Connection: 'close' });
      res.flushHeaders();
      this.#socket = res.headersSent && res.socket !== null ? res.socket : null;
    } else {
      res.writeHead(200, headers);
      this.#socket = null;
    }
  }

  /** Whether the client went away or the stream was ended. */
  get closed(): boolean {
    return this.#ended || this.#res.destroyed;
  }

  /**
   * Bytes written to the connection that it has not sent yet (the client is not reading them):
   * over HTTP/1.1 what the socket holds past the kernel's buffer, over HTTP/2 what the stream
   * holds past the client's flow-control window (queued in the session until the client reads).
   */
  get pendingBytes(): number {
    if (this.#socket !== null) return this.#socket.writableLength;
    const res = this.#res as { writableLength?: number; stream?: { writableLength?: number } };
    return res.stream?.writableLength ?? res.writableLength ?? 0;
  }

  /** Events in writes the connection has not sent yet (0 once nothing is pending). */
  get pendingEvents(): number {
    return this.pendingBytes === 0 ? 0 : this.#pendingEvents;
  }

  /** Whether more than `limitBytes` or `limitEvents` are pending. */
  over(limitBytes: number, limitEvents: number): boolean {
    return this.pendingBytes > limitBytes || this.pendingEvents > limitEvents;
  }

  /**
   * Resolves true once no more than `limitBytes` and `limitEvents` are pending (or the stream
   * closed), false when that has not happened `graceMs` after the call: the client did not
   * catch up. Judged after the connection's completed writes of that turn are counted, so a
   * busy event loop does not end a watch whose client did read.
   */
  backWithin(limitBytes: number, limitEvents: number, graceMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      let waiting = true;
      const done = (ok: boolean): void => {
        if (!waiting) return;
        waiting = false;
        clearTimeout(timer);
        this.#onSent = undefined;
        this.onClose(check, true);
        resolve(ok);
      };
      const within = (): boolean => this.closed || !this.over(limitBytes, limitEvents);
      const check = (): void => {
        if (within()) done(true);
      };
      // setImmediate: the writes the connection completed in the turn that ran the timer are counted first.
      const timer = setTimeout(() => setImmediate(() => done(within())), graceMs);
      this.#onSent = check;
      this.onClose(check);
    });
  }

  /**
   * Ends the stream at once, dropping what the client has not read: the connection (HTTP/1.1)
   * or the stream (HTTP/2) is destroyed, so its buffered output is freed.
   */
  abort(): void {
    this.#ended = true;
    if (this.#socket !== null) this.#socket.destroy();
    else this.#res.destroy();
  }

  /**
   * Writes `lines` (`events` events) as one chunk without waiting for the client: what the
   * connection cannot send yet is buffered in the server (see {@link over}).
   */
  writeBuffered(lines: readonly Buffer[], events: number): void {
    if (this.closed || lines.length === 0) return;
    this.#count(events);
    if (this.#socket === null) (this.#res as ServerResponse).write(joined(lines), this.#sent);
    else this.#socket.write(frame(lines), this.#sent);
  }

  #count(events: number): void {
    this.#pendingEvents += events;
    this.#writes.push(events);
  }

  /** Calls `fn` once when the client goes away (or stops calling it, with `off`). */
  onClose(fn: () => void, off = false): void {
    if (off) (this.#res as ServerResponse).off('close', fn);
    else (this.#res as ServerResponse).on('close', fn);
  }

  /**
   * Writes `lines` as one chunk. Returns a promise to await only when the socket asks to slow
   * down (then the stream reads no more from its watch until the client has caught up).
   */
  write(lines: readonly Buffer[], events = lines.length): Promise<void> | undefined {
    if (this.closed || lines.length === 0) return undefined;
    const socket = this.#socket;
    this.#count(events);
    const ok =
      socket === null
        ? (this.#res as ServerResponse).write(joined(lines), this.#sent)
        : socket.write(frame(lines), this.#sent);
    if (ok) return undefined;
    this.#draining ??= new Promise<void>((resolve) => {
      const emitter: NodeJS.EventEmitter = socket ?? this.#res;
      const done = (): void => {
        emitter.off('drain', done);
        (this.#res as ServerResponse).off('close', done);
        this.#draining = undefined;
        resolve();
      };
      emitter.on('drain', done);
      (this.#res as ServerResponse).on('close', done);
    });
    return this.#draining;
  }

  /** Ends the response (idempotent). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (!this.#res.destroyed) this.#res.end();
  }
}

let lastJoinedLines: readonly Buffer[] = [];
let lastJoined: Buffer = Buffer.alloc(0);
/** The joined lines of shared (frozen) line arrays, kept as long as the lines are. */
const joinedOf = new WeakMap<readonly Buffer[], Buffer>();

/**
 * `lines` as one buffer (an HTTP/2 DATA write, or a response write without a socket of its
 * own). As with {@link frame}, the streams woken together with the same lines write the same
 * buffer: a stream's unsent output is then shared, not a copy per stream.
 */
function joined(lines: readonly Buffer[]): Buffer {
  if (lines.length === 1) return lines[0]!;
  if (lines === lastJoinedLines) return lastJoined;
  const shared = Object.isFrozen(lines);
  const kept = shared ? joinedOf.get(lines) : undefined;
  if (kept !== undefined) return kept;
  if (!(lines.length === lastJoinedLines.length && lines.every((l, i) => l === lastJoinedLines[i])))
    lastJoined = Buffer.concat(lines);
  lastJoinedLines = lines;
  if (shared) joinedOf.set(lines, lastJoined);
  return lastJoined;
}

let lastLines: readonly Buffer[] = [];
let lastFrame: Buffer = Buffer.alloc(0);
/** Chunks of shared (frozen) line arrays, kept as long as the lines are. */
const framed = new WeakMap<readonly Buffer[], Buffer>();

/**
 * `lines` as one HTTP/1.1 chunk: hex size, CRLF, data, CRLF. The store wakes every watch of a
 * change together and lines are shared per change, so the streams woken together mostly send
 * the same lines: the chunk of a shared (frozen) array of lines is kept with it, and the last
 * chunk is reused when the same lines come again in another array.
 */
function frame(lines: readonly Buffer[]): Buffer {
  if (lines === lastLines) return lastFrame;
  const shared = Object.isFrozen(lines);
  const kept = shared ? framed.get(lines) : undefined;
  if (kept !== undefined) return kept;
  if (!(lines.length === lastLines.length && lines.every((l, i) => l === lastLines[i]))) lastFrame = frameOf(lines);
  lastLines = lines;
  if (shared) framed.set(lines, lastFrame);
  return lastFrame;
}

function frameOf(lines: readonly Buffer[]): Buffer {
  let size = 0;
  for (const l of lines) size += l.length;
  const head = `${size.toString(16)}\r\n`;
  const out = Buffer.allocUnsafe(head.length + size + 2);
  let at = out.write(head, 0, 'latin1');
  for (const l of lines) at += l.copy(out, at);
  crlf.copy(out, at);
  return out;
}
