/** A Go `time.Duration` in nanoseconds, as carried by the config kinds (`5m0s` on the wire). */
export type DurationNanos = number;

const unitNanos: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/**
 * Parses a Go duration string (`5m0s`, `1h30m`, `300ms`, `-1.5h`, `0`) like `time.ParseDuration`.
 * Returns undefined when the string is not a valid duration.
 */
export function parseDuration(s: string): DurationNanos | undefined {
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  const re = /^([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const m = re.exec(rest);
    if (!m || m[1] === '' || m[1] === '.') return undefined;
    total += Number(m[1]) * unitNanos[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return sign * Math.round(total);
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
