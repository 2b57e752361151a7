import { Command } from 'ioredis';

/** The size of the slabs commands are written into; a longer command gets a buffer of its own. */
const slabBytes = 64 * 1024;

/** The slab commands are written into, and where its free part starts. */
let slab = Buffer.allocUnsafe(slabBytes);
let slabUsed = 0;

/** How many decimal digits `n` (≥ 0) takes. */
function digits(n: number): number {
  let d = 1;
  for (let p = 10; n >= p; p *= 10) d++;
  return d;
}

/** Writes `n` (≥ 0) in decimal at `pos`, as `width` digits; returns the position after them. */
function writeDecimal(buf: Buffer, pos: number, n: number, width: number): number {
  const end = pos + width;
  for (let i = end - 1; i >= pos; i--) {
    buf[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return end;
}

/** Writes `<marker><n>\r\n` at `pos`; returns the position after it. */
function writeHeader(buf: Buffer, pos: number, marker: number, n: number): number {
  buf[pos] = marker;
  pos = writeDecimal(buf, pos + 1, n, digits(n));
  buf[pos] = 0x0d;
  buf[pos + 1] = 0x0a;
  return pos + 2;
}

/**
 * Writes `s` as a RESP bulk string (`$<bytes>\r\n<UTF-8>\r\n`) at `pos`; `buf` has room for
 * 3 bytes per UTF-16 unit and 16 more. Returns the position after it.
 */
function writeBulkString(buf: Buffer, pos: number, s: string): number {
  const n = s.length;
  // The byte count precedes the bytes: they are written where a count as long as the string's
  // length ends (an ASCII string's count), and moved in the rare case the count is longer.
  const guess = digits(n);
  let at = pos + guess + 3;
  const bytes = buf.write(s, at);
  const width = digits(bytes);
  if (width !== guess) {
    buf.copyWithin(pos + width + 3, at, at + bytes);
    at = pos + width + 3;
  }
  buf[pos] = 0x24;
  writeDecimal(buf, pos + 1, bytes, width);
  buf[at - 2] = 0x0d;
  buf[at - 1] = 0x0a;
  pos = at + bytes;
  buf[pos] = 0x0d;
  buf[pos + 1] = 0x0a;
  return pos + 2;
}

/** Writes a RESP bulk string of `b`'s bytes at `pos`; returns the position after it. */
function writeBulkBytes(buf: Buffer, pos: number, b: Uint8Array): number {
  pos = writeHeader(buf, pos, 0x24, b.length);
  buf.set(b, pos);
  pos += b.length;
  buf[pos] = 0x0d;
  buf[pos + 1] = 0x0a;
  return pos + 2;
}

/**
 * A command as Redis reads it (RESP: an array of bulk strings, strings as UTF-8), in one
 * buffer: the bytes ioredis' own `Command.toWritable` sends, without building the command as a
 * string and measuring each argument's UTF-8 length before writing it (a create's ~1 KiB body
 * was scanned four times). A lone surrogate is written as U+FFFD, as Node writes it.
 */
export function encodeCommand(name: string, args: readonly (string | Uint8Array)[]): Buffer {
  let room = 16 + 3 * name.length + 16;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    room += 16 + (typeof arg === 'string' ? 3 * arg.length : arg.length);
  }
  let buf: Buffer;
  let start = 0;
  if (room > slabBytes) buf = Buffer.allocUnsafe(room);
  else {
    if (slabUsed + room > slabBytes) {
      slab = Buffer.allocUnsafe(slabBytes);
      slabUsed = 0;
    }
    buf = slab;
    start = slabUsed;
  }
  let pos = writeHeader(buf, start, 0x2a, args.length + 1);
  pos = writeBulkString(buf, pos, name);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    pos = typeof arg === 'string' ? writeBulkString(buf, pos, arg) : writeBulkBytes(buf, pos, arg);
  }
  if (buf === slab) slabUsed = (pos + 7) & ~7;
  return buf.subarray(start, pos);
}

/**
 * An ioredis command that writes itself with {@link encodeCommand}: one buffer, which a corked
 * socket sends as it is (ioredis' own Script commands override `toWritable` the same way).
 * Arguments other than strings and buffers are made strings by ioredis as for any command.
 */
export class EncodedCommand extends Command {
  override toWritable(socket: object): string | Buffer {
    const args = this.args as readonly unknown[];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (typeof arg !== 'string' && !(arg instanceof Uint8Array)) return super.toWritable(socket);
    }
    return encodeCommand(this.name, args as readonly (string | Uint8Array)[]);
  }
}
