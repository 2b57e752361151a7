import { isJsonObject } from './json-value.js';
import type { JsonValue } from './json-value.js';

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `unicode.IsPrint` for one code point (letters, marks, numbers, punctuation, symbols, ASCII space). */
export function isGoPrint(ch: string): boolean {
  return printable.test(ch);
}

const shortEscapes: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's `strconv.Quote` (what `%q` prints): printable runes kept, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const short = shortEscapes[ch];
    if (short !== undefined) {
      out += short;
      continue;
    }
    if (isGoPrint(ch)) {
      out += ch;
      continue;
    }
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else if (cp < 0x80) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/**
 * A number as Go's `%v` prints it: integers in decimal (`int64`), other numbers as
 * `strconv.FormatFloat(f, 'g', -1, 64)` (exponent form below 1e-4 and from 1e6 on). JSON does not
 * tell integers from floats; integral numbers print as Go prints the `int64` its decoder makes.
 */
export function goFormatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

/** Structured-merge-diff's `value.ToString`: how values appear in path strings (`[name="x"]`). */
export function goValueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goFormatNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goValueString).join(',') + ']';
  if (isJsonObject(v)) {
    return Object.keys(v)
      .map((k) => `${k}=${goValueString(v[k]!)}`)
      .join('');
  }
  return '{{undefined}}';
}
