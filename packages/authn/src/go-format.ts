/**
 * Go's formatting of the values kube-apiserver puts in its authentication errors, so the logged
 * text reads the same: `%q` of strings and string slices, and `time.Time.String()` in UTC.
 */

export { goQuote, goQuoteList } from '@kevents/api';

const pad = (n: number | bigint, w = 2): string => String(n).padStart(w, '0');

/** Seconds from Go's internal epoch (year 1) to the Unix epoch: `unixToInternal`. */
export const unixToInternal = 62_135_596_800n;
const internalToAbsolute = 9_223_371_966_579_724_800n;
const absoluteZeroYear = -292_277_022_399n;
const daysBefore = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
const u64 = (v: bigint): bigint => BigInt.asUintN(64, v);

/** Go's `int64` wrap-around. */
export const int64 = (v: bigint): bigint => BigInt.asIntN(64, v);

/**
 * Go's `time.Time.String()` in UTC of an instant given as Go's internal seconds (since year 1,
 * an int64, wrapping as Go's does) and nanoseconds: `2024-01-02 03:04:05.5 +0000 UTC`. Go's
 * calendar arithmetic on unsigned 64-bit "absolute" seconds, so the far-out-of-range instants
 * (a JWT `exp` of 1e300) print as kube-apiserver prints them.
 */
export function goInternalTime(internalSeconds: bigint, nanos = 0): string {
  const abs = u64(int64(internalSeconds) + internalToAbsolute);
  let d = abs / 86_400n;
  let n = d / 146_097n;
  let y = 400n * n;
  d -= 146_097n * n;
  n = d / 36_524n;
  n -= n >> 2n;
  y += 100n * n;
  d -= 36_524n * n;
  n = d / 1_461n;
  y += 4n * n;
  d -= 1_461n * n;
  n = d / 365n;
  n -= n >> 2n;
  y += n;
  d -= 365n * n;
  const year = int64(y) + absoluteZeroYear;
  let day = Number(d);
  const leap = year % 4n === 0n && (year % 100n !== 0n || year % 400n === 0n);
  let month: number;
  let mday: number;
  if (leap && day === 31 + 29 - 1) {
    month = 2;
    mday = 29;
  } else {
    if (leap && day > 31 + 29 - 1) day--;
    let m = Math.floor(day / 31);
    const end = daysBefore[m + 1]!;
    let begin: number;
    if (day >= end) {
      m++;
      begin = end;
    } else begin = daysBefore[m]!;
    month = m + 1;
    mday = day - begin + 1;
  }
  const sec = Number(abs % 86_400n);
  const ys = year < 0n ? `-${pad(-year, 4)}` : pad(year, 4);
  const frac = nanos ? `.${pad(nanos, 9).replace(/0+$/, '')}` : '';
  return `${ys}-${pad(month)}-${pad(mday)} ${pad(Math.floor(sec / 3600))}:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)}${frac} +0000 UTC`;
}

/** Go's `time.Time.String()` of a UTC instant in milliseconds: `2024-01-02 03:04:05 +0000 UTC`. */
export function goTime(ms: number): string {
  const whole = Math.floor(ms);
  const secs = Math.floor(whole / 1000);
  return goInternalTime(BigInt(secs) + unixToInternal, (whole - secs * 1000) * 1_000_000);
}

/** The JSON type name Go's encoding/json uses in `cannot unmarshal X into Go value of type T`. */
export function jsonTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** `json: cannot unmarshal number into Go value of type string`. */
export const unmarshalError = (v: unknown, goType: string): string =>
  `json: cannot unmarshal ${jsonTypeName(v)} into Go value of type ${goType}`;
