/**
 * `metav1.Time` and `metav1.MicroTime` as their protobuf form holds them (`Timestamp{seconds,
 * nanos}`) and as Go's JSON writes them back: `time.Unix(seconds, nanos).UTC()` formatted with
 * RFC 3339 (MicroTime with six fraction digits), the zero time (0001-01-01T00:00:00Z) as null.
 */

/** Unix seconds of Go's zero `time.Time`, 0001-01-01T00:00:00Z. */
export const zeroTimeSeconds = -62135596800;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Days since 1970-01-01 of a proleptic Gregorian date (any year). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const daysIn = (y: number, m: number): number =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/**
 * Unix seconds and nanoseconds of an RFC 3339 time as Go's `time.Parse(time.RFC3339, ...)` reads
 * it (a fraction and an offset allowed); undefined when it does not parse.
 */
export function parseTime(value: string): { seconds: number; nanos: number } | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let seconds = daysFromCivil(year, month, day) * 86400 + Number(h) * 3600 + Number(mi) * 60 + Number(s);
  if (sign) {
    if (Number(oh) > 24 || Number(om) > 59) return undefined;
    seconds -= (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  }
  const nanos = frac ? Number(frac.padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

const unixToAbsolute = 9223372028715321600n;

/** `appendInt(b, x, 4)` of Go's time formatting: a sign, then at least four digits. */
const goYear = (y: bigint): string => (y < 0n ? '-' + (-y).toString().padStart(4, '0') : y.toString().padStart(4, '0'));

/** Go's formatting of any int64 Unix second (its calendar wraps where Go's int64 arithmetic does). */
function formatSlow(seconds: bigint): string {
  // Go adds the offset to the absolute epoch in int64 (wrapping), then reads it as uint64.
  const abs = BigInt.asUintN(64, BigInt.asIntN(64, seconds + unixToAbsolute));
  const unix = abs - unixToAbsolute;
  let days = unix / 86400n;
  let rem = unix % 86400n;
  if (rem < 0n) {
    rem += 86400n;
    days -= 1n;
  }
  // civil from days (Howard Hinnant), exact on bigints
  const z = days + 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const r = Number(rem);
  const two = (n: number | bigint): string => n.toString().padStart(2, '0');
  return `${goYear(year)}-${two(month)}-${two(day)}T${two(Math.floor(r / 3600))}:${two(Math.floor(r / 60) % 60)}:${two(r % 60)}`;
}

const minFast = -62167219200; // 0000-01-01T00:00:00Z
const maxFast = 253402300799; // 9999-12-31T23:59:59Z

/** `YYYY-MM-DDTHH:MM:SS` of Unix seconds (a number when exact, else a bigint) as Go writes them. */
function formatSeconds(seconds: number | bigint): string {
  if (typeof seconds === 'number' && seconds >= minFast && seconds <= maxFast)
    return new Date(seconds * 1000).toISOString().slice(0, 19);
  return formatSlow(BigInt(seconds));
}

/**
 * What Go's JSON writes for a `metav1.Time` read from protobuf `seconds` (nanos are dropped by
 * `Time.Unmarshal`): null for the zero time.
 */
export function timeJSON(seconds: number | bigint): string | null {
  if (seconds === zeroTimeSeconds) return null;
  return `${formatSeconds(seconds)}Z`;
}

/**
 * What Go's JSON writes for a `metav1.MicroTime` read from protobuf `seconds` and `nanos`
 * (truncated to microseconds toward zero, then normalized as `time.Unix` does).
 */
export function microTimeJSON(seconds: number | bigint, nanos: number): string | null {
  let ns = nanos - (nanos % 1000);
  let s: number | bigint = seconds;
  if (ns < 0 || ns >= 1e9) {
    // time.Unix: sec += nsec / 1e9 (truncated), then borrow for a negative remainder
    let carry = Math.trunc(ns / 1e9);
    ns -= carry * 1e9;
    if (ns < 0) {
      ns += 1e9;
      carry--;
    }
    s =
      typeof s === 'number' && Number.isSafeInteger(s + carry)
        ? s + carry
        : BigInt.asIntN(64, BigInt(s) + BigInt(carry));
  }
  if (s === zeroTimeSeconds && ns === 0) return null;
  if (typeof s === 'bigint' && s >= BigInt(minFast) && s <= BigInt(maxFast)) s = Number(s);
  return `${formatSeconds(s)}.${String(Math.floor(ns / 1000)).padStart(6, '0')}Z`;
}
