import { isGoyamlTimestamp } from './yaml-timestamp.js';

/**
 * Whether goyaml v2 writes a string unquoted as far as its meaning goes: its encoder quotes a
 * string that, read back plain, would resolve to another type (`resolve("", s)` is not `!!str`:
 * null, bool, int, float or timestamp in YAML 1.1's spellings as goyaml reads them) or that is a
 * YAML 1.1 base-60 float (`1:20`). Go's `strconv.ParseInt`, `ParseUint` and `ParseFloat` and
 * `time.Parse` accept more than they seem to (`0o17`, `0b1`, `1_0`, `.5_5`, `2001-1-2 3:4:5`), so
 * each is followed here to the letter.
 */
export function plainIsString(s: string): boolean {
  return resolvesToString(s) && !isBase60Float(s);
}

/** YAML 1.1 spellings goyaml resolves by table (`<<` is in its table but never looked up). */
const special = new Set(
  [
    'y Y yes Yes YES true True TRUE on On ON',
    'n N no No NO false False FALSE off Off OFF',
    '~ null Null NULL',
    '.nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF',
  ]
    .join(' ')
    .split(' '),
);

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const base60Float = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

function resolvesToString(s: string): boolean {
  if (s === '') return false;
  const c = s.charCodeAt(0);
  const sign = c === 43 || c === 45;
  const dig = c >= 48 && c <= 57;
  const dot = c === 46;
  if (!sign && !dig && !dot && !'yYnNtTfFoO~'.includes(s[0]!)) return true;
  if (special.has(s)) return false;
  if (dot) return !goParseFloatOk(s);
  if (!sign && !dig) return true;
  if (isGoyamlTimestamp(s)) return false;
  const plain = s.includes('_') ? s.replaceAll('_', '') : s;
  if (goParseIntOk(plain, 0) || goParseUintOk(plain, 0)) return false;
  if (yamlStyleFloat.test(plain) && Number.isFinite(Number(plain))) return false;
  if (plain.startsWith('0b')) return !(goParseIntOk(plain.slice(2), 2) || goParseUintOk(plain.slice(2), 2));
  if (plain.startsWith('-0b')) return !goParseIntOk('-' + plain.slice(3), 2);
  return true;
}

function isBase60Float(s: string): boolean {
  if (s === '') return false;
  const c = s.charCodeAt(0);
  if (!(c === 43 || c === 45 || (c >= 48 && c <= 57)) || !s.includes(':')) return false;
  return base60Float.test(s);
}

const maxUint64 = (1n << 64n) - 1n;
const int64Cutoff = 1n << 63n;

/** The value Go's `strconv.ParseUint(s, base, 64)` returns without error, or undefined. */
function goParseUint(s: string, base: number): bigint | undefined {
  if (s === '') return undefined;
  const s0 = s;
  const base0 = base === 0;
  if (base0) {
    base = 10;
    if (s[0] === '0') {
      const p = s.length >= 3 ? s[1]!.toLowerCase() : '';
      base = p === 'b' ? 2 : p === 'o' ? 8 : p === 'x' ? 16 : 8;
      s = s.slice(p === 'b' || p === 'o' || p === 'x' ? 2 : 1);
    }
  }
  let underscores = false;
  let n = 0n;
  const b = BigInt(base);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c === 95 && base0) {
      underscores = true;
      continue;
    } else if (c >= 48 && c <= 57) d = c - 48;
    else if ((c | 0x20) >= 97 && (c | 0x20) <= 122) d = (c | 0x20) - 87;
    else return undefined;
    if (d >= base) return undefined;
    n = n * b + BigInt(d);
    if (n > maxUint64) return undefined;
  }
  if (underscores && !underscoreOk(s0)) return undefined;
  return n;
}

function goParseUintOk(s: string, base: number): boolean {
  return goParseUint(s, base) !== undefined;
}

/** Whether Go's `strconv.ParseInt(s, base, 64)` succeeds. */
function goParseIntOk(s: string, base: number): boolean {
  if (s === '') return false;
  const neg = s[0] === '-';
  const un = goParseUint(s[0] === '+' || neg ? s.slice(1) : s, base);
  if (un === undefined) return false;
  return neg ? un <= int64Cutoff : un < int64Cutoff;
}

/** Go's `underscoreOK`: underscores only between digits (or after a base prefix). */
function underscoreOk(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1]!.toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    const l = c.toLowerCase();
    if ((c >= '0' && c <= '9') || (hex && l >= 'a' && l <= 'f')) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * Whether Go's `strconv.ParseFloat(s, 64)` succeeds for a string that starts with '.' (the only
 * kind goyaml hands it unfiltered): decimal digits with underscores, one '.', an optional
 * exponent, the whole string, and a finite result (an overflow is an error).
 */
function goParseFloatOk(s: string): boolean {
  let i = 0;
  let sawdot = false;
  let sawdigits = false;
  let underscores = false;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === '_') underscores = true;
    else if (c === '.') {
      if (sawdot) break;
      sawdot = true;
    } else if (c >= '0' && c <= '9') sawdigits = true;
    else break;
  }
  if (!sawdigits) return false;
  if (i < s.length && (s[i] === 'e' || s[i] === 'E')) {
    i++;
    if (i < s.length && (s[i] === '+' || s[i] === '-')) i++;
    if (i >= s.length || s[i]! < '0' || s[i]! > '9') return false;
    for (; i < s.length && ((s[i]! >= '0' && s[i]! <= '9') || s[i] === '_'); i++) {
      if (s[i] === '_') underscores = true;
    }
  }
  if (i !== s.length) return false;
  if (underscores && !underscoreOk(s)) return false;
  return Number.isFinite(Number(underscores ? s.replaceAll('_', '') : s));
}
