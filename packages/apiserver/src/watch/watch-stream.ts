import { randomUUID } from 'node:crypto';
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

  constructor(res: ServerResponse | Http2ServerResponse) {
    this.#res = res;
    const headers = {
      'Audit-Id': randomUUID(),
      'Content-Type': 'application/json',
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

  /** Bytes written to the connection that it has not sent yet (the client is not reading them). */
  get pendingBytes(): number {
    if (this.#socket !== null) return this.#socket.writableLength;
    const res = this.#res as { writableLength?: number; stream?: { writableLength?: number } };
    return res.stream?.writableLength ?? res.writableLength ?? 0;
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
   * Writes `lines` as one chunk without waiting for the client: the output is buffered in the
   * server. Returns false (and writes nothing more) when the buffered output then passes
   * `limitBytes`: the caller ends the watch.
   */
  writeBuffered(lines: readonly Buffer[], limitBytes: number): boolean {
    if (this.closed || lines.length === 0) return true;
    if (this.#socket === null) (this.#res as ServerResponse).write(concat(lines));
    else this.#socket.write(frame(lines));
    return this.pendingBytes <= limitBytes;
  }

  /** Calls `fn` once when the client goes away. */
  onClose(fn: () => void): void {
    (this.#res as ServerResponse).on('close', fn);
  }

  /**
   * Writes `lines` as one chunk. Returns a promise to await only when the socket asks to slow
   * down (then the stream reads no more from its watch until the client has caught up).
   */
  write(lines: readonly Buffer[]): Promise<void> | undefined {
    if (this.closed || lines.length === 0) return undefined;
    const socket = this.#socket;
    const ok = socket === null ? (this.#res as ServerResponse).write(concat(lines)) : socket.write(frame(lines));
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

function concat(lines: readonly Buffer[]): Buffer {
  return lines.length === 1 ? lines[0]! : Buffer.concat(lines);
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
