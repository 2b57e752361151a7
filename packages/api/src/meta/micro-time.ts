/**
 * `metav1.MicroTime` as kube-apiserver decodes it: Go's `time.Parse` with the layout
 * `2006-01-02T15:04:05.000000Z07:00` (RFC3339Micro), which requires exactly six fractional
 * digits and an offset (`Z` or `±hh:mm`). Errors are Go's `time.ParseError` texts.
 */
import { formatMicroTime } from './time.js';

const canonicalMicroTime = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/;
const validDay = (v: string): boolean =>
  v.charCodeAt(8) < 50 ||
  (v.charCodeAt(8) === 50 && v.charCodeAt(9) <= 56) ||
  new Date(`${v.slice(0, 10)}T00:00:00Z`).getUTCDate() === Number(v.slice(8, 10));

/** The layout `metav1.MicroTime` is parsed with (Go's `RFC3339Micro`). */
export const microTimeLayout = '2006-01-02T15:04:05.000000Z07:00';

/** Go's `time.quote`: `"` and `\` escaped, bytes outside printable ASCII as `\xNN`. */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's `getnum`: one or two digits (exactly two when `fixed`). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** Milliseconds since the epoch of a UTC date and time (years 0-99 included, unlike `Date.UTC`). */
function utcMillis(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

const daysIn = (month: number, year: number): number => new Date(utcMillis(year, month + 1, 0)).getUTCDate();

/** The first and last second Go can marshal (`Time.MarshalJSON`: years 0 to 9999). */
const minSeconds = utcMillis(0, 1, 1) / 1000;
const maxSeconds = utcMillis(10000, 1, 1) / 1000 - 1;

/** The outcome of {@link parseMicroTime}: the canonical UTC text, or Go's error. */
export type MicroTimeParse =
  { readonly value: string; readonly error?: undefined } | { readonly value?: undefined; readonly error: string };

/**
 * Parses a MicroTime as kube-apiserver does and normalizes it to UTC
 * (`2024-01-02T03:04:05.123456Z`); anything Go's `time.Parse(RFC3339Micro, s)` refuses is an
 * error worded as Go words it.
 */
export function parseMicroTime(input: string): MicroTimeParse {
  // The common case, already canonical (UTC, six digits, a real day): Go's parse gives it back as it is.
  if (input.length === 27 && canonicalMicroTime.test(input) && validDay(input)) return { value: input };
  const q = goTimeQuote(input);
  const cannot = (rest: string, elem: string): MicroTimeParse => ({
    error: `parsing time ${q} as "${microTimeLayout}": cannot parse ${goTimeQuote(rest)} as "${elem}"`,
  });
  const range = (what: string): MicroTimeParse => ({ error: `parsing time ${q}: ${what} out of range` });
  let v = input;
  const literal = (lit: string): boolean => {
    if (!v.startsWith(lit)) return false;
    v = v.slice(lit.length);
    return true;
  };
  // 2006
  if (v.length < 4 || !/^[0-9]{4}$/.test(v.slice(0, 4))) return cannot(v, '2006');
  const year = Number(v.slice(0, 4));
  v = v.slice(4);
  if (!literal('-')) return cannot(v, '-');
  // 01
  let n = getnum(v, true);
  if (!n) return cannot(v, '01');
  const month = n[0];
  v = n[1];
  if (month < 1 || month > 12) return range('month');
  if (!literal('-')) return cannot(v, '-');
  // 02
  n = getnum(v, true);
  if (!n) return cannot(v, '02');
  const day = n[0];
  v = n[1];
  if (!literal('T')) return cannot(v, 'T');
  // 15
  n = getnum(v, false);
  if (!n) return cannot(v, '15');
  const hour = n[0];
  v = n[1];
  if (hour >= 24) return range('hour');
  if (!literal(':')) return cannot(v, ':');
  // 04
  n = getnum(v, true);
  if (!n) return cannot(v, '04');
  const minute = n[0];
  v = n[1];
  if (minute >= 60) return range('minute');
  if (!literal(':')) return cannot(v, ':');
  // 05
  n = getnum(v, true);
  if (!n) return cannot(v, '05');
  const second = n[0];
  v = n[1];
  if (second >= 60) return range('second');
  // .000000: exactly six digits
  if (v.length < 7 || (v[0] !== '.' && v[0] !== ',')) return cannot(v, '.000000');
  const frac = v.slice(1, 7);
  if (!/^[+-]?[0-9]+$/.test(frac)) return cannot(v, '.000000');
  if (frac.startsWith('-')) return range('fractional second');
  const micros = Number(frac.replace('+', ''));
  v = v.slice(7);
  // Z07:00
  let offsetSeconds = 0;
  if (v.startsWith('Z')) {
    v = v.slice(1);
  } else {
    if (v.length < 6 || v[3] !== ':') return cannot(v, 'Z07:00');
    const hh = getnum(v.slice(1, 3), true);
    const mm = getnum(v.slice(4, 6), true);
    if (!hh || !mm || hh[1] !== '' || mm[1] !== '' || (v[0] !== '+' && v[0] !== '-')) return cannot(v, 'Z07:00');
    if (hh[0] > 24) return range('time zone offset hour');
    if (mm[0] > 60) return range('time zone offset minute');
    offsetSeconds = (v[0] === '-' ? -1 : 1) * (hh[0] * 60 + mm[0]) * 60;
    v = v.slice(6);
  }
  if (v !== '') return { error: `parsing time ${q}: extra text: ${goTimeQuote(v)}` };
  if (day < 1 || day > daysIn(month, year)) return range('day');
  const seconds = utcMillis(year, month, day, hour, minute, second) / 1000 - offsetSeconds;
  if (seconds < minSeconds || seconds > maxSeconds)
    return { error: 'Time.MarshalJSON: year outside of range [0,9999]' };
  return { value: formatMicroTime({ seconds, micros }) };
}
