/** A Go `time.Duration` in nanoseconds, as carried by the config kinds (`5m0s` on the wire). */
export type DurationNanos = number;

/** What {@link parseGoDuration} made of a string: the nanoseconds, or Go's error text. */
export type DurationParse =
  { readonly ok: true; readonly nanos: DurationNanos } | { readonly ok: false; readonly error: string };

const unitNanos: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n], // U+00B5 micro sign
  ['μs', 1_000n], // U+03BC Greek small letter mu
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const maxUint = 1n << 63n;
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Go's `time.quote`: double quotes around the text, `"` and `\` escaped, and every byte of a
 * control or non-ASCII character (in UTF-8) written as `\xNN`.
 */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of new TextEncoder().encode(ch)) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/**
 * Go's `time.ParseDuration`, byte for byte: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with the units
 * ns, us (µs, μs), ms, s, m, h; `0` alone needs no unit; the total must fit in an int64 of
 * nanoseconds. On failure, Go's error text (`time: invalid duration "x"`,
 * `time: missing unit in duration "5"`, `time: unknown unit "d" in duration "5d"`).
 */
export function parseGoDuration(orig: string): DurationParse {
  const invalid = (): DurationParse => ({ ok: false, error: `time: invalid duration ${goTimeQuote(orig)}` });
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, nanos: 0 };
  if (s === '') return invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid();
    // [0-9]*
    let i = 0;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      if (v > maxUint / 10n) return invalid();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > maxUint) return invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?
    let post = false;
    let f = 0n;
    let scale = 1;
    if (s[0] === '.') {
      s = s.slice(1);
      let overflow = false;
      let j = 0;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (maxUint - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > maxUint) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid();
    // The unit: everything up to the next digit or dot.
    let k = 0;
    while (k < s.length && s[k] !== '.' && !isDigit(s[k])) k++;
    if (k === 0) return { ok: false, error: `time: missing unit in duration ${goTimeQuote(orig)}` };
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = unitNanos.get(u);
    if (unit === undefined)
      return { ok: false, error: `time: unknown unit ${goTimeQuote(u)} in duration ${goTimeQuote(orig)}` };
    if (v > maxUint / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      // Go: float64 keeps fractions of hours nanosecond-accurate.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > maxUint) return invalid();
    }
    d += v;
    if (d > maxUint) return invalid();
  }
  if (neg) return { ok: true, nanos: -Number(d) };
  if (d > maxUint - 1n) return invalid();
  return { ok: true, nanos: Number(d) };
}

/**
 * Parses a Go duration string (`5m0s`, `1h30m`, `300ms`, `-1.5h`, `0`) like `time.ParseDuration`.
 * Returns undefined when the string is not a valid duration ({@link parseGoDuration} says why).
 */
export function parseDuration(s: string): DurationNanos | undefined {
  const r = parseGoDuration(s);
  return r.ok ? r.nanos : undefined;
}

/** Formats nanoseconds the way Go's `Duration.String()` does: `1m0s`, `30s`, `1.5s`, `300ms`, `0s`. */
export function formatDuration(ns: DurationNanos): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(Math.round(ns));
  let out: string;
  if (u < 1e9) {
    const [unit, size] = u < 1e3 ? ['ns', 1] : u < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    out = `${trimFraction(u / size)}${unit}`;
  } else {
    const h = Math.floor(u / 3600e9);
    u -= h * 3600e9;
    const m = Math.floor(u / 60e9);
    u -= m * 60e9;
    out = `${trimFraction(u / 1e9)}s`;
    if (h > 0 || m > 0) out = `${m}m${out}`;
    if (h > 0) out = `${h}h${out}`;
  }
  return neg ? `-${out}` : out;
}

function trimFraction(n: number): string {
  return Number(n.toFixed(9)).toString();
}
