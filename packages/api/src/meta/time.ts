/**
 * Wire encodings of `metav1.Time` (RFC 3339, seconds, UTC `Z`) and `metav1.MicroTime`
 * (RFC 3339 with exactly six fractional digits, UTC `Z`). Both are carried as strings in
 * kevents objects; these functions parse any RFC 3339 input and normalize it.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/** An instant with microsecond precision: whole seconds since the epoch plus microseconds. */
export interface Instant {
  readonly seconds: number;
  readonly micros: number;
}

/** Parses an RFC 3339 timestamp (any offset, any number of fractional digits). */
export function parseRFC3339(value: string): Instant | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  let ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  if (new Date(ms).getUTCDate() !== day) return undefined;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const [zh, zm] = zone!.slice(1).split(':').map(Number);
    ms -= sign * (zh! * 60 + zm!) * 60_000;
  }
  const micros = frac ? Number(frac.slice(0, 6).padEnd(6, '0')) : 0;
  return { seconds: Math.floor(ms / 1000), micros };
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** Formats an instant as `metav1.Time`: `2024-01-02T03:04:05Z`. */
export function formatTime(i: Instant): string {
  return `${isoSeconds(i.seconds)}Z`;
}

/** Formats an instant as `metav1.MicroTime`: `2024-01-02T03:04:05.123456Z`. */
export function formatMicroTime(i: Instant): string {
  return `${isoSeconds(i.seconds)}.${String(i.micros).padStart(6, '0')}Z`;
}

/** The current instant; microseconds come from the high-resolution clock. */
export function now(): Instant {
  const ms = Date.now();
  const sub = Math.floor((performance.now() % 1) * 1000);
  return { seconds: Math.floor(ms / 1000), micros: (ms % 1000) * 1000 + sub };
}

const canonicalTime = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;
const canonicalMicroTime = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/;
const validDay = (v: string): boolean =>
  Number(v.slice(8, 10)) <= 28 || new Date(`${v.slice(0, 10)}T00:00:00Z`).getUTCDate() === Number(v.slice(8, 10));

/** Normalizes an RFC 3339 string to `metav1.Time`; undefined when it does not parse. */
export function normalizeTime(value: string): string | undefined {
  if (canonicalTime.test(value) && validDay(value)) return value;
  const i = parseRFC3339(value);
  return i && formatTime(i);
}

/** Normalizes an RFC 3339 string to `metav1.MicroTime`; undefined when it does not parse. */
export function normalizeMicroTime(value: string): string | undefined {
  if (canonicalMicroTime.test(value) && validDay(value)) return value;
  const i = parseRFC3339(value);
  return i && formatMicroTime(i);
}

/** Milliseconds since the epoch of an RFC 3339 string (NaN when it does not parse). */
export function timeToMillis(value: string | null | undefined): number {
  if (!value) return NaN;
  const i = parseRFC3339(value);
  return i ? i.seconds * 1000 + i.micros / 1000 : NaN;
}

let cachedSecond = -1;
let cachedTime = '';

/** `metav1.Time` for the current second (formatted once per second). */
export function timeNow(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedTime = formatTime({ seconds: second, micros: 0 });
  }
  return cachedTime;
}
/** `metav1.MicroTime` for the current microsecond. */
export const microTimeNow = (): string => formatMicroTime(now());
