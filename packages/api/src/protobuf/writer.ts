/**
 * A protobuf writer that writes what gogo-protobuf's generated `MarshalToSizedBuffer` writes:
 * fields in the order they are given, varints in their shortest form, strings as UTF-8. A nested
 * message reserves one length byte and moves its body when the length needs more.
 */
export class ProtobufWriter {
  private buf: Buffer;
  /** Bytes written so far. */
  pos = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Writes one byte. */
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** Writes an unsigned varint of up to 2^53. */
  uvarint(n: number): void {
    this.ensure(10);
    const buf = this.buf;
    while (n >= 0x80) {
      buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    buf[this.pos++] = n;
  }

  /** Writes a varint of the two unsigned 32-bit halves of a 64-bit value (negatives take ten bytes). */
  varint64(lo: number, hi: number): void {
    if (hi === 0) {
      this.uvarint(lo);
      return;
    }
    this.ensure(10);
    const buf = this.buf;
    // the low 28 bits
    for (let i = 0; i < 4; i++) {
      buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo >>>= 7;
    }
    // bits 28..34: 4 of lo, 3 of hi
    const b = (lo & 0x0f) | ((hi & 0x07) << 4);
    hi >>>= 3;
    if (hi === 0) {
      buf[this.pos++] = b;
      return;
    }
    buf[this.pos++] = b | 0x80;
    while (hi >= 0x80) {
      buf[this.pos++] = (hi & 0x7f) | 0x80;
      hi >>>= 7;
    }
    buf[this.pos++] = hi;
  }

  /** Writes a signed 32-bit integer as Go's generated code does (negatives sign-extended to 64 bits). */
  int32(n: number): void {
    n |= 0;
    if (n >= 0) this.uvarint(n);
    else this.varint64(n >>> 0, 0xffffffff);
  }

  /** Writes a UTF-8 string with its length. */
  string(s: string): void {
    if (s.length < 0x80 && isAscii(s)) {
      this.ensure(1 + s.length);
      const buf = this.buf;
      buf[this.pos++] = s.length;
      for (let i = 0; i < s.length; i++) buf[this.pos++] = s.charCodeAt(i);
      return;
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.uvarint(n);
    this.ensure(n);
    this.pos += this.buf.write(s, this.pos, n, 'utf8');
  }

  /** Writes bytes with their length. */
  bytes(b: Uint8Array): void {
    this.uvarint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Appends bytes as they are (fields another writer wrote). */
  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Starts a length-delimited message: returns the mark `end` takes. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the message begun at `mark`, writing its length before it. */
  end(mark: number): void {
    const len = this.pos - mark - 1;
    if (len < 0x80) {
      this.buf[mark] = len;
      return;
    }
    let extra = 0;
    for (let n = len; n >= 0x80; n = Math.floor(n / 0x80)) extra++;
    this.ensure(extra);
    this.buf.copyWithin(mark + 1 + extra, mark + 1, this.pos);
    this.pos += extra;
    let n = len;
    let at = mark;
    while (n >= 0x80) {
      this.buf[at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[at] = n;
  }

  /** A copy of the bytes written. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}
