import { ProtobufDecodeError, intOverflow, invalidLength, unexpectedEOF } from './errors.js';

/**
 * A protobuf reader that fails where gogo-protobuf's generated `Unmarshal` fails, with its error:
 * varints of more than ten bytes overflow, lengths that are negative as a Go `int` are invalid,
 * lengths past the end of the enclosing message are an unexpected EOF.
 */
export class ProtobufReader {
  /** The low 32 bits of the last varint read (unsigned). */
  lo = 0;
  /** The high 32 bits of the last varint read (unsigned). */
  hi = 0;

  /** The bytes read. */
  readonly data: Uint8Array;
  /** The offset of the next byte to read. */
  pos: number;
  /**
   * How many more fields may be read ({@link countField}): a bound on the work a body of many
   * tiny fields costs, counted as the fields are met. Unbounded unless set.
   */
  fieldsLeft = Infinity;

  constructor(data: Uint8Array, pos: number) {
    this.data = data;
    this.pos = pos;
  }

  /** Counts one field read; past {@link fieldsLeft}, a `TooManyFields` error. */
  countField(): void {
    if (--this.fieldsLeft < 0) throw new ProtobufDecodeError('TooManyFields', 'proto: too many fields');
  }

  /** Reads a varint ending before `end` into `lo` and `hi`. */
  varint(end: number): void {
    const data = this.data;
    let pos = this.pos;
    if (pos < end) {
      const b = data[pos]!;
      if (b < 0x80) {
        this.lo = b;
        this.hi = 0;
        this.pos = pos + 1;
        return;
      }
    }
    let lo = 0;
    let hi = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 64) throw intOverflow();
      if (pos >= end) throw unexpectedEOF();
      const b = data[pos++]!;
      const bits = b & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (shift - 32);
      if (b < 0x80) break;
    }
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
    this.pos = pos;
  }

  /**
   * Reads a length (a Go `int`) and returns the end it gives, checked against `end`; `base` is
   * where the message began (Go adds the length to the index in the message's own slice).
   */
  length(end: number, base: number): number {
    this.varint(end);
    if (this.hi >= 0x80000000) throw invalidLength();
    if (this.hi === 0x7fffffff && this.lo + (this.pos - base) >= 2 ** 32) throw invalidLength();
    if (this.hi !== 0) throw unexpectedEOF();
    const post = this.pos + this.lo;
    if (post > end) throw unexpectedEOF();
    return post;
  }

  /**
   * Skips the field whose tag starts at `this.pos`, as `skipGenerated` does: groups nest,
   * wire types 6 and 7 are illegal; `limit` is where the caller checks the skip ends.
   */
  skip(end: number, limit: number): void {
    const data = this.data;
    const start = this.pos;
    let pos = start;
    let depth = 0;
    const varint = (): void => {
      this.pos = pos;
      this.varint(end);
      pos = this.pos;
    };
    for (;;) {
      if (pos >= end) throw unexpectedEOF();
      varint();
      const wireType = this.lo & 7;
      switch (wireType) {
        case 0:
          for (let shift = 0; ; shift += 7) {
            if (shift >= 64) throw intOverflow();
            if (pos >= end) throw unexpectedEOF();
            if (data[pos++]! < 0x80) break;
          }
          break;
        case 1:
          pos += 8;
          break;
        case 2:
          varint();
          if (this.hi >= 0x80000000) throw invalidLength();
          if (this.hi === 0x7fffffff && this.lo + (pos - start) >= 2 ** 32) throw invalidLength();
          pos += this.hi * 2 ** 32 + this.lo;
          break;
        case 3:
          depth++;
          break;
        case 4:
          if (depth === 0) throw new ProtobufDecodeError('UnexpectedEndOfGroup', 'proto: unexpected end of group');
          depth--;
          break;
        case 5:
          pos += 4;
          break;
        default:
          throw new ProtobufDecodeError('IllegalWireType', `proto: illegal wireType ${wireType}`);
      }
      if (depth === 0) break;
    }
    if (pos > limit) throw unexpectedEOF();
    this.pos = pos;
  }

  /** The bytes from `this.pos` to `post`, and moves past them. */
  take(post: number): Uint8Array {
    const b = this.data.subarray(this.pos, post);
    this.pos = post;
    return b;
  }
}
