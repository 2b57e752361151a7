/**
 * Protobuf varints as gogo-protobuf's generated code reads and writes them: up to ten bytes, the
 * low 64 bits kept, held here as two unsigned 32-bit halves so no read allocates.
 */

/** A 64-bit value as two unsigned 32-bit halves. */
export interface Varint64 {
  lo: number;
  hi: number;
}

const two32 = 2 ** 32;

/** The halves as a signed 64-bit number (exact up to 2^53, rounded beyond, as `JSON.parse` would). */
export function toInt64(v: Varint64): number {
  if (v.hi === 0) return v.lo;
  if (v.hi < 0x200000 || v.hi >= 0xffe00000) return (v.hi | 0) * two32 + v.lo;
  return Number(BigInt.asIntN(64, (BigInt(v.hi) << 32n) | BigInt(v.lo)));
}

/** The halves as an exact signed 64-bit integer. */
export const toBigInt64 = (v: Varint64): bigint => BigInt.asIntN(64, (BigInt(v.hi) << 32n) | BigInt(v.lo));

/** The halves as an exact unsigned 64-bit integer. */
export const toBigUint64 = (v: Varint64): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);

/** The halves of a signed 64-bit integer given as a number (integral; beyond 2^63 wraps as Go's conversion of the JSON number would not be reached: the JSON is valid). */
export function fromInt64(n: number): Varint64 {
  if (n >= 0 && n < two32) return { lo: n >>> 0, hi: 0 };
  if (n < 0 && n >= -two32) return { lo: n >>> 0, hi: 0xffffffff };
  const b = BigInt.asUintN(64, BigInt(Math.trunc(n)));
  return { lo: Number(b & 0xffffffffn), hi: Number(b >> 32n) };
}
